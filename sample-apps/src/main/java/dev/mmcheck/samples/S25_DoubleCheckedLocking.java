package dev.mmcheck.samples;

/**
 * S25 — Broken double-checked locking (jcstress' {@code Singleton_07 NonFinal}): the instance field
 * is not volatile and the singleton's field is not final. The creator stores the field, then the
 * instance, inside the lock; on PSO the two stores can commit out of order, so a reader that finds
 * the instance without taking the lock can read the field's default value. TSO keeps stores in order.
 *
 * <p>The window is narrow: both of the reader's loads must fall between the creator's store of the
 * instance and its monitorexit, which flushes. Each of 2000 rounds races two threads on a new holder.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S25_DoubleCheckedLocking}.
 */
@Expected(tso = false, pso = true, why = "the constructor's store can commit after the instance's, inside the lock")
public final class S25_DoubleCheckedLocking implements Runnable {

    /** The singleton, with a field that is not final. */
    static final class Singleton {
        int x;

        Singleton() {
            x = 42; // mmcheck:store
        }
    }

    /** The lazily initialized holder. */
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

    private Holder holder = new Holder();
    private long sum;
    private int broken;

    @Override
    public void run() {
        Rounds.run(2000, () -> holder = new Holder(), r -> use(), r -> use());
        System.out.println("S25_DoubleCheckedLocking: saw the default value " + broken + " times");
    }

    private void use() {
        int v = holder.get().x; // mmcheck:access
        if (v == 0) {
            broken++;
        }
        sum += v;
    }
}
