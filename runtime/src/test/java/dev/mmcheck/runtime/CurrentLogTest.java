package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link EventLog#current}'s one-entry cache of the log of the thread in a solo period: it answers that thread
 * only, and every other thread gets its own log, even one whose class overrides {@link Thread#getId()}.
 */
class CurrentLogTest {

    /** A thread that claims the id of another. */
    static final class SameId extends Thread {
        private final long id;

        SameId(Runnable task, long id) {
            super(task);
            this.id = id;
        }

        @Override
        @SuppressWarnings("deprecation")
        public long getId() {
            return id;
        }
    }

    @Test
    @SuppressWarnings("deprecation")
    void theCachedLogOfASoloThreadIsNeverAnotherThreadsLog() throws Exception {
        ThreadLog mine = EventLog.current();
        Solo.owner = mine; // as in a period: the next lookup caches this log
        try {
            assertSame(mine, EventLog.current());
            assertSame(mine, EventLog.current(), "answered from the cache");
            AtomicReference<ThreadLog> seen = new AtomicReference<>();
            AtomicReference<ThreadLog> again = new AtomicReference<>();
            Thread other = new SameId(() -> {
                seen.set(EventLog.current());
                again.set(EventLog.current());
            }, Thread.currentThread().getId());
            other.start();
            other.join();
            assertNotSame(mine, seen.get(), "another thread never gets the cached log, whatever id it claims");
            assertSame(seen.get(), again.get(), "but its own, every time");
            assertSame(mine, EventLog.current());
        } finally {
            Solo.owner = null;
        }
    }

    /** Threads whose class makes them all equal, and whose hashCode must never be called by the runtime. */
    static final class AllEqual extends Thread {
        AllEqual(Runnable task) {
            super(task);
        }

        @Override
        public int hashCode() {
            // instrumented application code would log here, asking for this very thread's log: a loop
            throw new AssertionError("the runtime called an application's Thread.hashCode");
        }

        @Override
        public boolean equals(Object o) {
            throw new AssertionError("the runtime called an application's Thread.equals");
        }
    }

    @Test
    void threadsAreKeptByIdentityNeverByTheirOwnHashCodeOrEquals() throws Exception {
        AtomicReference<ThreadLog> first = new AtomicReference<>();
        AtomicReference<ThreadLog> second = new AtomicReference<>();
        Thread a = new AllEqual(() -> first.set(EventLog.current()));
        Thread b = new AllEqual(() -> second.set(EventLog.current()));
        a.start();
        a.join();
        b.start();
        b.join();
        assertNotSame(first.get(), second.get(), "each thread has its own log");
        assertSame(first.get(), EventLog.existingLogOf(a));
        assertSame(second.get(), EventLog.logOf(b));
        EventLog.forget(a);
        EventLog.forget(b);
        assertSame(null, EventLog.existingLogOf(a));
    }

    /** A thread with no name whose class overrides getId, as instrumented application code may. */
    static final class NamelessOwnId extends Thread {
        NamelessOwnId(Runnable task) {
            super(task, "");
        }

        @Override
        @SuppressWarnings("deprecation")
        public long getId() {
            throw new AssertionError("the runtime called an application's Thread.getId");
        }
    }

    @Test
    void aNamelessThreadIsNamedWithoutCallingItsOwnGetId() throws Exception {
        AtomicReference<ThreadLog> log = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread t = new NamelessOwnId(() -> log.set(EventLog.current()));
        t.setUncaughtExceptionHandler((th, e) -> failed.set(e));
        t.start();
        t.join();
        assertSame(null, failed.get(), "no override called");
        org.junit.jupiter.api.Assertions.assertTrue(log.get().name().startsWith("thread-"), log.get().name());
        EventLog.forget(t);
    }
}
