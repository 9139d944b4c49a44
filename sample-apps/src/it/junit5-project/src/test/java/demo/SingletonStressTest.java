package demo;

import dev.mmcheck.junit5.MmcheckStress;

/** Broken double-checked locking, repeated under mmcheck until a repetition finds it. */
class SingletonStressTest {

    static final class Singleton {
        int x;

        Singleton() {
            x = 42;
        }
    }

    static final class Holder {
        private final Object lock = new Object();
        private Singleton instance;

        Singleton get() {
            Singleton s = instance;
            if (s == null) {
                synchronized (lock) {
                    s = instance;
                    if (s == null) {
                        s = new Singleton();
                        instance = s;
                    }
                }
            }
            return s;
        }
    }

    static volatile Holder holder;

    @MmcheckStress(iterations = 10)
    void doubleCheckedLocking() throws Exception {
        for (int round = 0; round < 200; round++) {
            holder = new Holder();
            Holder h = holder;
            Runnable use = () -> {
                if (h.get().x != 42) {
                    throw new AssertionError("saw the default value"); // what PSO allows
                }
            };
            Thread a = new Thread(use);
            Thread b = new Thread(use);
            a.start();
            b.start();
            a.join();
            b.join();
        }
    }
}
