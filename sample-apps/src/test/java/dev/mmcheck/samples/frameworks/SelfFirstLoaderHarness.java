package dev.mmcheck.samples.frameworks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;

/**
 * Code defined by a class loader that does not delegate to its parent, run under the agent by ClassLoadingIT
 * (docs/agent.md, "Where the runtime lives"). Web containers and plugin test harnesses load their classes
 * that way; {@link SelfFirstLoader} is modelled on one in a connection pool's test suite, which delegates only
 * names starting with {@code java} or {@code org} and defines every other class itself, so it cannot resolve
 * {@code dev.mmcheck.runtime.Probes}. {@link Racy}, defined by it, is Dekker's handshake with plain fields in
 * two threads (as sample S01): rewritten code that named the runtime's classes threw
 * {@code NoClassDefFoundError: dev/mmcheck/runtime/Probes} in the application while the report said
 * {@code complete: true}. Prints {@code harness: self-first loader ok, ...} when it ends.
 */
public final class SelfFirstLoaderHarness {

    /** The class the loader defines and the harness runs. */
    static final String RACY = "dev.mmcheck.samples.frameworks.SelfFirstLoaderHarness$Racy";
    /** Rounds of the handshake. */
    static final int ROUNDS = 2000;

    /** Dekker's flags with plain fields, raised and read by two threads in rounds; defined by the loader. */
    public static final class Racy implements Callable<String> {
        int flag1;
        int flag2;
        int entered;
        int both;

        void thread1() {
            flag1 = 1;
            if (flag2 == 0) {
                entered++;
                Thread.yield();
            }
        }

        void thread2() {
            flag2 = 1;
            if (flag1 == 0) {
                entered++;
                Thread.yield();
            }
        }

        @Override
        public String call() throws InterruptedException {
            CyclicBarrier barrier = new CyclicBarrier(2, new Reset(this));
            Thread a = new Thread(new Side(this, barrier, true), "T1");
            Thread b = new Thread(new Side(this, barrier, false), "T2");
            a.start();
            b.start();
            a.join();
            b.join();
            return "both threads entered in " + both + " of " + ROUNDS + " rounds (loader "
                    + getClass().getClassLoader().getName() + ")";
        }
    }

    /** One thread's rounds. */
    static final class Side implements Runnable {
        private final Racy racy;
        private final CyclicBarrier barrier;
        private final boolean first;

        Side(Racy racy, CyclicBarrier barrier, boolean first) {
            this.racy = racy;
            this.barrier = barrier;
            this.first = first;
        }

        @Override
        public void run() {
            try {
                for (int r = 0; r < ROUNDS; r++) {
                    barrier.await();
                    if (first) {
                        racy.thread1();
                    } else {
                        racy.thread2();
                    }
                }
                barrier.await();
            } catch (InterruptedException | BrokenBarrierException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Between rounds: counts a round both threads entered, lowers the flags. */
    static final class Reset implements Runnable {
        private final Racy racy;

        Reset(Racy racy) {
            this.racy = racy;
        }

        @Override
        public void run() {
            racy.both += racy.entered > 1 ? 1 : 0;
            racy.flag1 = 0;
            racy.flag2 = 0;
            racy.entered = 0;
        }
    }

    /**
     * Delegates to its parent only names starting with {@code java} or {@code org}; defines every other class
     * itself from the class files under {@code classes}, and finds nothing else.
     */
    static final class SelfFirstLoader extends ClassLoader {
        private final Path classes;

        SelfFirstLoader(Path classes, ClassLoader parent) {
            super("self-first", parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("java") || name.startsWith("org")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Path file = classes.resolve(name.replace('.', '/') + ".class");
            if (!Files.isRegularFile(file)) {
                throw new ClassNotFoundException(name);
            }
            try {
                byte[] bytes = Files.readAllBytes(file);
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    private SelfFirstLoaderHarness() {
    }

    public static void main(String[] args) throws Exception {
        Path classes = Path.of(SelfFirstLoaderHarness.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        SelfFirstLoader loader = new SelfFirstLoader(classes, SelfFirstLoaderHarness.class.getClassLoader());
        try {
            loader.loadClass("dev.mmcheck.runtime.Probes");
            throw new AssertionError("the loader reaches mmcheck's runtime: it would test nothing");
        } catch (ClassNotFoundException expected) {
            // as the connection pool's loader: names outside java* and org* are its own or nothing
        }
        Class<?> racy = loader.loadClass(RACY);
        if (racy.getClassLoader() != loader) {
            throw new AssertionError("Racy was not defined by the harness's loader");
        }
        @SuppressWarnings("unchecked")
        Callable<String> run = (Callable<String>) racy.getDeclaredConstructor().newInstance();
        System.out.println("harness: self-first loader ok, " + run.call());
    }
}
