package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wait of a thread ending a solo period for the solo thread's window (Solo, ThreadLog#awaitWindowClosed):
 * it ends when the window closes, and is given up, rather than hang, when the solo thread stays blocked
 * with its window open (the JVM loading a class inside the access, on a lock the waiting thread holds).
 */
class SoloWindowTest {

    @Test
    void theWaitEndsWhenARunningThreadClosesItsWindow() throws Exception {
        CountDownLatch opened = new CountDownLatch(1);
        ThreadLog[] log = new ThreadLog[1];
        Thread solo = new Thread(() -> {
            log[0] = new ThreadLog(931, Thread.currentThread(), 64);
            log[0].svWindow(1);
            opened.countDown();
            long until = System.nanoTime() + 50_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait(); // runnable, inside its access
            }
            log[0].soWindow(0);
        });
        solo.start();
        opened.await();
        assertTrue(log[0].awaitWindowClosed(), "a runnable thread's window closes: the wait ends with it");
        solo.join();
    }

    @Test
    void theWaitIsGivenUpWhenTheSoloThreadStaysBlockedWithItsWindowOpen() throws Exception {
        Object lock = new Object();
        CountDownLatch opened = new CountDownLatch(1);
        ThreadLog[] log = new ThreadLog[1];
        Thread solo;
        synchronized (lock) { // held by the waiting thread, as a class loader's lock by the one ending the period
            solo = new Thread(() -> {
                log[0] = new ThreadLog(932, Thread.currentThread(), 64);
                log[0].svWindow(1);
                opened.countDown();
                synchronized (lock) { // blocked inside the access
                    log[0].soWindow(0);
                }
            });
            solo.start();
            opened.await();
            long start = System.nanoTime();
            assertFalse(log[0].awaitWindowClosed(), "blocked on a lock this thread holds: waiting on would hang");
            long waited = System.nanoTime() - start;
            assertTrue(waited >= ThreadLog.WINDOW_BLOCKED_LIMIT_NANOS, "given up only after the limit: " + waited);
        }
        solo.join();
    }

    /**
     * A group of plain accesses (Probes, "groups of plain accesses"): the first opens the window and its unlock leaves
     * it open, the later ones run in it, and the group's end closes it; a group an exception left open ends at the
     * thread's next window.
     */
    @Test
    void aGroupOfPlainAccessesKeepsOneWindowOpenUntilItsEnd() {
        ThreadLog t = new ThreadLog(934, Thread.currentThread(), 64);
        Object o = new Object();
        long[] a = new long[4];
        Solo.owner = t;
        try {
            Probes.lockPlainFieldFirst(o, t, 1);
            Probes.unlock(t);
            assertTrue(t.soloWindowOpen(), "the first access's unlock leaves the group's window open");
            long before = t.soloLeftOut();
            Probes.lockPlainFieldIn(o, t, 2);
            Probes.unlock(t);
            assertEquals(5L, Probes.loadElementJIn(new long[] {5}, 0, t, 3));
            Probes.lockElementIn(a, 1, t);
            Probes.unlock(t);
            assertTrue(t.soloWindowOpen(), "the later accesses run in it");
            assertEquals(3, t.soloLeftOut() - before, "and are counted as left out");
            Probes.endGroup(t);
            assertFalse(t.soloWindowOpen(), "the group's end closes it");

            Probes.lockPlainFieldFirst(o, t, 1);
            Probes.unlock(t); // then an exception no probe foresaw: no endGroup
            assertTrue(t.soloWindowOpen());
            Probes.lockPlainField(o, t, 1); // the thread's next access, ungrouped, opens its own window
            assertTrue(t.soloWindowOpen());
            Probes.unlock(t);
            assertFalse(t.soloWindowOpen(), "the group left open ended at the next window, which closed after its access");
        } finally {
            Solo.owner = null;
        }
    }

    @Test
    void anAccessInsideALeftOutOneIsLoggedAndTheOuterWindowStaysOpen() {
        ThreadLog t = new ThreadLog(933, Thread.currentThread(), 64);
        Solo.owner = t;
        try {
            assertTrue(Solo.open(t), "the outer access is left out");
            assertFalse(Solo.open(t), "an access inside it (an instrumented class loader's, run by the JVM) is logged");
            assertEquals(1, t.lpWindow(), "and the outer window stays open until the outer access's probe closes it");
            Solo.close(t);
            assertEquals(0, t.lpWindow());
        } finally {
            Solo.owner = null;
        }
    }
}
