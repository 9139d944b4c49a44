package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link EventLog#current}'s one-entry cache of the log of the thread last found in a solo period: it answers
 * that thread only, and every other thread gets its own log.
 */
class CurrentLogTest {

    @Test
    void theCachedLogOfASoloThreadIsNeverAnotherThreadsLog() throws Exception {
        ThreadLog mine = EventLog.current();
        boolean was = mine.wasSolo;
        mine.wasSolo = true; // as after an access its period left out: the next lookup caches this log
        try {
            assertSame(mine, EventLog.current());
            assertSame(mine, EventLog.current(), "answered from the cache");
            AtomicReference<ThreadLog> seen = new AtomicReference<>();
            AtomicReference<ThreadLog> again = new AtomicReference<>();
            Thread other = new Thread(() -> {
                seen.set(EventLog.current());
                again.set(EventLog.current());
            });
            other.start();
            other.join();
            assertNotSame(mine, seen.get(), "another thread never gets the cached log");
            assertSame(seen.get(), again.get(), "but its own, every time");
            assertSame(mine, EventLog.current());
        } finally {
            mine.wasSolo = was;
        }
    }
}
