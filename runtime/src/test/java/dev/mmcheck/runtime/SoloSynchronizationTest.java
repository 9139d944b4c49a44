package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Synchronization left out in a solo period (docs/agent.md, "Accesses of a thread running alone"): calls into
 * java.util.concurrent and monitors event by event, at their probes; calls of the JDK's atomic classes and field
 * updaters whole, with the window open across the call. Outside a period each is logged; a subclass of an atomic
 * class, whose methods may run code of their own, is logged in a period too.
 */
class SoloSynchronizationTest {

    /** A counter reached through a field updater. */
    static final class Counter {
        volatile long n;
    }

    /** An atomic whose methods could be overridden. */
    static final class MyAtomic extends AtomicLong {
    }

    private static final AtomicLongFieldUpdater<Counter> N = AtomicLongFieldUpdater.newUpdater(Counter.class, "n");

    @Test
    void inAPeriodEachIsLeftOutAndOutsideItIsLogged() {
        ThreadLog t = new ThreadLog(941, Thread.currentThread(), 64);
        Object monitor = new Object();
        AtomicLong a = new AtomicLong();
        AtomicLongArray array = new AtomicLongArray(4);
        Counter c = new Counter();
        Probes.updaterCreated(N, Counter.class, "n");

        Solo.owner = t;
        try {
            Probes.logJuc(t, 1);
            Probes.logMonitorEnter(monitor, t, 2);
            Probes.logMonitorExit(monitor, t, 3);
            Probes.lockAtomicUnlessSolo(a, t);
            assertEquals(1, t.lpWindow(), "the window is open across the atomic's call");
            a.incrementAndGet();
            Probes.logCall(t, 4, Kinds.INTERLOCKED);
            Probes.lockAtomicElementUnlessSolo(array, 2, t);
            array.incrementAndGet(2);
            Probes.logCall(t, 5, Kinds.INTERLOCKED);
            Probes.lockUpdaterUnlessSolo(N, c, t);
            N.incrementAndGet(c);
            Probes.logCall(t, 6, Kinds.INTERLOCKED);
            assertEquals(0, t.lvProducerIndex(), "nothing logged in the period");
            assertEquals(0, t.lpWindow(), "and every window closed");

            Probes.lockAtomicElementUnlessSolo(array, 99, t); // out of bounds: the call throws
            assertEquals(1, t.lpWindow());
            try {
                array.incrementAndGet(99);
            } catch (IndexOutOfBoundsException expected) {
                Probes.unlock(t); // the bracket's handler
            }
            assertEquals(0, t.lpWindow(), "a call that throws closes its window in the handler");
            assertEquals(0, t.lvProducerIndex());
            assertTrue(t.wasSolo);

            MyAtomic mine = new MyAtomic();
            Probes.lockAtomicUnlessSolo(mine, t);
            mine.incrementAndGet();
            Probes.logCall(t, 7, Kinds.INTERLOCKED);
            assertEquals(2, t.lvProducerIndex(), "a subclass's call is logged: it may run code of its own");
            assertEquals(Kinds.FULL_FENCE, t.lpInt(0, ThreadLog.KIND), "after the fence the period left out (its hand-over "
                    + "ring's, materialized before the event it logs)");
            assertEquals(Kinds.INTERLOCKED, t.lpInt(1, ThreadLog.KIND));
        } finally {
            Solo.owner = null;
        }

        long before = t.lvProducerIndex();
        Probes.logJuc(t, 1);
        Probes.logMonitorEnter(monitor, t, 2);
        Probes.logMonitorExit(monitor, t, 3);
        Probes.lockAtomicUnlessSolo(a, t);
        a.incrementAndGet();
        Probes.logCall(t, 4, Kinds.INTERLOCKED);
        Probes.lockUpdaterUnlessSolo(N, c, t);
        N.incrementAndGet(c);
        Probes.logCall(t, 6, Kinds.INTERLOCKED);
        assertEquals(before + 5, t.lvProducerIndex(), "outside a period: each logged");
        assertFalse(t.wasSolo, "the thread has left its period");
    }
}
