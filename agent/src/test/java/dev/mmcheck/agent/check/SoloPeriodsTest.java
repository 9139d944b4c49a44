package dev.mmcheck.agent.check;

import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The solo periods' coordinator driven without the real runtime: a fake {@link SoloRuntime} (runtime.Solo's claim,
 * grant and pending hand-over, a few stripes, logs as counters and a ring) and a fake {@link SoloFeed} (a drain that
 * feeds every log to its end, the events fed as lines). The steps of docs/architecture.md's solo loop: look, claim,
 * sweep, confirm (or not), hand-over.
 */
class SoloPeriodsTest {

    /** Looks 2 ms apart: more than SoloPeriods' least time between two looks. */
    private static final long LOOK = 2_000_000L;

    /** One thread's log as the fake runtime keeps it. */
    private static final class Log {
        final int serial;
        final Thread thread;
        long produced;
        long consumed;
        long holdAt = -1;
        int fence;
        int fenceSite = -1;
        final List<Object[]> ring = new ArrayList<>();

        Log(int serial, Thread thread) {
            this.serial = serial;
            this.thread = thread;
        }

        /** Adds a ring entry: kind, object, slot, site. */
        void enter(int kind, Object object, int slot, int site) {
            ring.add(new Object[] {kind, object, slot, site});
        }
    }

    /** runtime.Solo, runtime.Stripes and the logs, as plain fields. */
    private static final class FakeRuntime implements SoloRuntime<Log> {
        boolean enabled = true;
        String broken;
        Log claim;
        Log owner;
        boolean lone;
        Log pending;
        long pendingCount;
        String pendingEndedBy;
        Log lookedAlone;
        int confirmsNot;
        /** Run when the sweep releases the last stripe (another thread's event taking the claim away, say). */
        Runnable afterSweep = () -> { };

        @Override public boolean enabled() { return enabled; }
        @Override public String broken() { return broken; }
        @Override public Log pending() { return pending; }
        @Override public long pendingCount() { return pendingCount; }
        @Override public String pendingEndedBy() { return pendingEndedBy; }
        @Override public void handedOver(Log log) {
            if (pending == log) {
                pending = null;
            }
        }
        @Override public boolean claimed() { return claim != null; }
        @Override public boolean claim(Log log) {
            if (!enabled || claim != null || pending != null) {
                return false;
            }
            claim = log;
            return true;
        }
        @Override public boolean claimedFor(Log log) { return claim == log; }
        @Override public boolean confirm(Log log, boolean lone) {
            if (claim != log) {
                return false;
            }
            owner = log;
            this.lone = lone;
            return true;
        }
        @Override public void confirmNot(Log log) {
            confirmsNot++;
            if (claim == log && owner == null) {
                claim = null;
            }
        }
        @Override public void lookedAlone(Log log, long now) { lookedAlone = log; }
        @Override public int stripes() { return 8; }
        @Override public boolean tryLock(int s) { return true; }
        @Override public void unlock(int s) {
            if (s == stripes() - 1) {
                afterSweep.run();
            }
        }
        @Override public long produced(Log log) { return log.produced; }
        @Override public long consumed(Log log) { return log.consumed; }
        @Override public long holdAt(Log log) { return log.holdAt; }
        @Override public void releaseHold(Log log) { log.holdAt = -1; }
        @Override public int ringSize(Log log) { return log.ring.size(); }
        @Override public int ringKind(Log log, int i) { return (int) log.ring.get(i)[0]; }
        @Override public Object ringObject(Log log, int i) { return log.ring.get(i)[1]; }
        @Override public int ringSlot(Log log, int i) { return (int) log.ring.get(i)[2]; }
        @Override public int ringSite(Log log, int i) { return (int) log.ring.get(i)[3]; }
        @Override public int ringFence(Log log) { return log.fence; }
        @Override public int ringFenceSite(Log log) { return log.fenceSite; }
        @Override public void clearRing(Log log) {
            log.ring.clear();
            log.fence = 0;
        }
        @Override public int serial(Log log) { return log.serial; }
        @Override public String name(Log log) { return "t" + log.serial; }
        @Override public Thread thread(Log log) { return log.thread; }
    }

    /** The loop: a drain that feeds every live log to its end, and what was fed, a line each. */
    private static final class FakeFeed implements SoloFeed {
        final List<Log> active;
        final Thread checkerThread = new Thread(() -> { }, "checker");
        final Set<Integer> buffered = new HashSet<>();
        final List<String> fed = new ArrayList<>();
        boolean failed;

        FakeFeed(List<Log> active) {
            this.active = active;
        }

        @Override public boolean drainAll() {
            boolean progress = false;
            for (Log log : active) {
                progress |= log.consumed < log.produced;
                log.consumed = log.produced;
            }
            return progress;
        }
        @Override public boolean failed() { return failed; }
        @Override public boolean stopping() { return false; }
        @Override public Thread thread() { return checkerThread; }
        @Override public boolean storesBuffered(int serial) { return buffered.contains(serial); }
        @Override public void feedFence(int kind, int serial, int site) {
            fed.add("fence " + kind + " of t" + serial + " at " + site);
        }
        @Override public void feedAccess(int kind, int serial, Object object, int slot, int site) {
            fed.add("access " + kind + " of t" + serial + " to " + object + "." + slot + " at " + site);
        }
    }

    private final List<Log> active = new ArrayList<>();
    private final Map<Log, LogCursor> cursors = new HashMap<>();
    private final FakeRuntime runtime = new FakeRuntime();
    private final FakeFeed feed = new FakeFeed(active);
    private final SoloPeriods<Log> periods = new SoloPeriods<>(runtime, feed, active,
            log -> cursors.computeIfAbsent(log, l -> new LogCursor()));
    /** The busy thread's log (this thread, runnable) and a quiet one's (a thread never started). */
    private final Log busy = log(1, Thread.currentThread());
    private final Log quiet = log(2, new Thread(() -> { }, "quiet"));

    private Log log(int serial, Thread thread) {
        Log log = new Log(serial, thread);
        active.add(log);
        return log;
    }

    /** Two looks: at the first both threads logged; by the second only {@code busy} has, the other is fed to its end. */
    private void twoLooks() {
        busy.produced = 10;
        quiet.produced = 3;
        periods.maybeLook(LOOK);
        assertNull(runtime.claim, "both threads logged since the first look: no claim");
        quiet.consumed = 3;
        busy.produced = 15;
        periods.maybeLook(2 * LOOK);
    }

    @Test
    void theOneBusyThreadGetsAPeriodOnceTheOthersAreQuietAndFed() {
        twoLooks();
        assertSame(busy, runtime.owner, "granted to the busy thread");
        assertEquals(1, periods.grants());
        assertTrue(!runtime.lone, "another live thread has a log");
        assertEquals(15, busy.consumed, "the claim's drains fed the busy thread's log too");
        assertEquals(Map.of("t1", 1L, "t2", 1L), periods.busyTogether(5), "the first look found both busy");
        assertEquals(0, periods.claimsUnfenced());
    }

    @Test
    void aQuietThreadWithAStoreBufferedKeepsThePeriodFromBeingGranted() {
        feed.buffered.add(quiet.serial);
        twoLooks();
        assertNull(runtime.owner, "no period while the quiet thread's store may still be raced");
        assertNull(runtime.claim, "the claim is given up");
        assertEquals(0, periods.grants());
        assertEquals(1, periods.claimsUnfenced());
        assertEquals(List.of(), feed.fed, "no fence is fed for a period");
    }

    @Test
    void aClaimTakenAwayDuringTheSweepGrantsNothing() {
        runtime.afterSweep = () -> runtime.claim = null; // another thread's event, after the claim
        twoLooks();
        assertNull(runtime.owner);
        assertEquals(0, periods.grants());
        assertEquals(1, runtime.confirmsNot);
    }

    @Test
    void noPeriodWhileTwoThreadsLog() {
        twoLooks();
        runtime.owner = null;
        runtime.claim = null;
        busy.produced = 20;
        quiet.produced = 4;
        periods.maybeLook(10_000 * LOOK); // well after the next claim may be made
        assertNull(runtime.claim);
        assertEquals(Map.of("t1", 2L, "t2", 2L), periods.busyTogether(5));
    }

    @Test
    void theHandOverFeedsTheRingWhereThePeriodEndedOnce() {
        runtime.pending = busy;
        runtime.pendingCount = 10;
        runtime.pendingEndedBy = "ender";
        busy.produced = 12;
        busy.consumed = 9;
        busy.fence = Kinds.FULL_FENCE;
        busy.fenceSite = 7;
        Object o = "o";
        busy.enter(Kinds.STORE, o, 1, 8);
        busy.enter(Kinds.STORE_STORE_FENCE, null, 0, 9);
        busy.enter(Kinds.LOAD, o, 2, 10);
        periods.maybeLook(LOOK);
        assertEquals(List.of(), feed.fed, "not before the log's events up to the period's end are fed");
        assertSame(busy, runtime.pending);

        busy.consumed = 10;
        periods.handOver(busy, 10); // another thread's SOLO_END of the period, reached in the merge
        assertEquals(List.of("fence " + Kinds.FULL_FENCE + " of t1 at 7",
                "access " + Kinds.STORE + " of t1 to o.1 at 8",
                "fence " + Kinds.STORE_STORE_FENCE + " of t1 at 9",
                "access " + Kinds.LOAD + " of t1 to o.2 at 10"), feed.fed, "the ring's fence first, then its entries in order");
        assertEquals(3, periods.ringFed());
        assertEquals(1, periods.handOvers());
        assertEquals(Map.of("ender", 1L), periods.endedBy(5));
        assertNull(runtime.pending, "handed over");
        assertEquals(0, busy.ring.size(), "the ring is emptied");

        periods.handOver(busy, 10); // a later thread's SOLO_END of the same period
        assertEquals(4, feed.fed.size(), "fed once");
        assertEquals(1, periods.handOvers());
    }

    @Test
    void aHeldLogGetsItsRingAtTheHold() {
        busy.produced = 6;
        busy.consumed = 4;
        busy.holdAt = 5;
        busy.enter(Kinds.STORE, "o", 1, 3);
        periods.handOver(busy, 5);
        assertEquals(List.of(), feed.fed, "not before the log's events up to the hold are fed");
        assertEquals(5, busy.holdAt);
        busy.consumed = 5;
        periods.handOver(busy, 5);
        assertEquals(List.of("access " + Kinds.STORE + " of t1 to o.1 at 3"), feed.fed);
        assertEquals(-1, busy.holdAt, "the hold is released once the ring is fed");
    }

    @Test
    void theRingOfALogNoLongerLiveIsDroppedNotFed() {
        active.remove(busy); // its thread's end was fed: its end committed its stores
        busy.holdAt = 0;
        busy.enter(Kinds.STORE, "o", 1, 3);
        periods.handOver(busy, 0);
        assertEquals(List.of(), feed.fed);
        assertEquals(0, busy.ring.size());
    }

    @Test
    void aHandOverThatCouldNotBeMadeExactlyStopsChecking() {
        runtime.broken = "gave up waiting";
        CheckerStopped stopped = assertThrows(CheckerStopped.class, () -> periods.handOver(busy, 0));
        assertEquals("solo-hand-over", stopped.kind());
        assertEquals("gave up waiting", stopped.getMessage());
    }
}
