package dev.mmcheck.samples.frameworks;

import java.io.IOException;
import java.io.InputStream;

/**
 * An access whose first execution makes the JVM load a class through an instrumented class loader whose lock
 * another thread holds, run under the agent by ClassLoadingIT (docs/agent.md, "Accesses of a thread running
 * alone").
 *
 * <p>{@code Reader} is defined by a class loader of the application's own ({@link Loader}, instrumented, not
 * parallel capable: loading a class through it holds the loader's lock). Its first read of {@code Box.x}
 * resolves {@code Box} through that loader. Thread "loader" holds the loader's lock (it is loading a class),
 * sleeps while "main" runs alone long enough for a solo period, then makes an access, which ends the period;
 * "main" meanwhile reads {@code box.x} for the first time and blocks on the loader's lock. When the agent
 * resolved {@code Box} inside the access's probes, "main" blocked inside the access its period left out, the
 * thread ending the period waited for "main" to leave it, and the run hung; with {@code solo=off} the loader's
 * own accesses ran inside the probes, unlogged. The agent now resolves the class before the probes.
 * Prints {@code harness: loader lock ok, x=42} when it ends.
 */
public final class LoaderLockHarness {

    /** What Reader reads: loaded by the application's class loader. */
    public static final class Box {
        /** The value read. */
        public int x = 42;
    }

    /** What the application calls Reader through: loaded by the application's class loader. */
    public interface BoxReader {
        /** Reads {@code box.x}. */
        int read(Box box);
    }

    /** Defined by {@link Loader}, so that its first access to {@code Box.x} resolves Box through that loader. */
    public static final class Reader implements BoxReader {
        /** Written by the constructor: its probes resolve the agent's classes in Reader before the read. */
        public int made = 1;

        @Override
        public int read(Box box) {
            return box.x; // the first execution resolves Box through Loader, under its lock
        }
    }

    /** A class loader that defines Reader itself and, for one name, sleeps with its lock held, then counts. */
    static final class Loader extends ClassLoader {
        /** The name "loader" asks for: it sleeps with the lock held, counts (an access), and finds nothing. */
        static final String SLOW = "dev.mmcheck.samples.frameworks.NoSuchClass";
        /** Lookups of {@link #SLOW}: the access that ends main's solo period. */
        int slowLookups;

        Loader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) { // this loader itself: it is not parallel capable
                if (name.equals(SLOW)) {
                    try {
                        Thread.sleep(Long.getLong("harness.sleepMs", 2_500));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    slowLookups++;
                    throw new ClassNotFoundException(name);
                }
                if (name.equals(Reader.class.getName())) {
                    Class<?> c = findLoadedClass(name);
                    return c != null ? c : define(name);
                }
                return super.loadClass(name, resolve);
            }
        }

        private Class<?> define(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    private LoaderLockHarness() {
    }

    public static void main(String[] args) throws Exception {
        Loader loader = new Loader(LoaderLockHarness.class.getClassLoader());
        BoxReader reader = (BoxReader) loader.loadClass(Reader.class.getName()).getDeclaredConstructor().newInstance();
        if (reader.getClass().getClassLoader() != loader) {
            throw new AssertionError("Reader was not defined by the harness's loader");
        }
        Box box = new Box();
        Thread other = new Thread(() -> {
            try {
                loader.loadClass(Loader.SLOW);
            } catch (ClassNotFoundException expected) {
                // it sleeps with the lock held, then finds nothing
            }
        }, "loader");
        other.start();
        // alone, long enough for the checker to grant a solo period, while "loader" sleeps with the lock
        long[] own = new long[64];
        long until = System.nanoTime() + Long.getLong("harness.aloneMs", 1_500) * 1_000_000L;
        for (long i = 0; System.nanoTime() < until; i++) {
            own[(int) (i & 63)] += i;
        }
        int x = reader.read(box); // blocks on the loader's lock, inside an access left out
        other.join();
        System.out.println("harness: loader lock ok, x=" + x + " (" + own[1] + ", " + loader.slowLookups + ")");
    }
}
