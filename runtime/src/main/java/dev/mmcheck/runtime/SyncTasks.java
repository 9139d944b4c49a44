package dev.mmcheck.runtime;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Wraps tasks handed to java.util.concurrent (executors, CompletableFuture) so that the handover is
 * seen from the side that runs them: the task begins and ends with the JDK's synchronization event
 * (an interlocked event on the JUC address, as {@link Probes#casJuc}). One allocation per task, none
 * per event.
 */
public final class SyncTasks {

    private SyncTasks() {
    }

    /** A Runnable that runs {@code r} between two JUC events of the thread running it. */
    public static Runnable runnable(Runnable r, int site) {
        return r == null || r instanceof SyncRunnable ? r : new SyncRunnable(r, site);
    }

    /** A Callable that calls {@code c} between two JUC events. */
    public static <V> Callable<V> callable(Callable<V> c, int site) {
        return c == null ? null : new SyncCallable<>(c, site);
    }

    /** A Supplier that gets from {@code s} between two JUC events. */
    public static <V> Supplier<V> supplier(Supplier<V> s, int site) {
        return s == null ? null : new SyncSupplier<>(s, site);
    }

    private static final class SyncRunnable implements Runnable {
        private final Runnable task;
        private final int site;

        SyncRunnable(Runnable task, int site) {
            this.task = task;
            this.site = site;
        }

        @Override
        public void run() {
            ThreadLog t = EventLog.current();
            Probes.casJuc(t, site);
            try {
                task.run();
            } finally {
                Probes.casJuc(t, site);
            }
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }

    private static final class SyncCallable<V> implements Callable<V> {
        private final Callable<V> task;
        private final int site;

        SyncCallable(Callable<V> task, int site) {
            this.task = task;
            this.site = site;
        }

        @Override
        public V call() throws Exception {
            ThreadLog t = EventLog.current();
            Probes.casJuc(t, site);
            try {
                return task.call();
            } finally {
                Probes.casJuc(t, site);
            }
        }
    }

    private static final class SyncSupplier<V> implements Supplier<V> {
        private final Supplier<V> task;
        private final int site;

        SyncSupplier(Supplier<V> task, int site) {
            this.task = task;
            this.site = site;
        }

        @Override
        public V get() {
            ThreadLog t = EventLog.current();
            Probes.casJuc(t, site);
            try {
                return task.get();
            } finally {
                Probes.casJuc(t, site);
            }
        }
    }
}
