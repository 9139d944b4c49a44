package dev.mmcheck.checker.jmm;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.mmcheck.checker.jmm.AccessMode.OPAQUE;
import static dev.mmcheck.checker.jmm.AccessMode.PLAIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The monitor on hand-written runs: what the random programs of the differential test do not have
 * (thread start and join, the API's checks, copies), and the reports' fields on the notes' worked examples.
 * Locations: x = 0, y = 1; event ids are the run's positions from 1.
 */
class RobustnessMonitorTest {

    private static final int X = 0;
    private static final int Y = 1;

    private final List<RobustnessViolation> reports = new ArrayList<>();
    private final RobustnessMonitor m = new RobustnessMonitor(reports::add);

    @Test
    void storeBufferingIsReportedOnTheRunThatExposesItAndNotOnTheOther() {
        // x=1; a=y (0); y=1; b=x: at b, T1 SC-knows x=1 (through a's from-read to y=1) but may still read 0
        m.store(0, X, PLAIN, 1, 1);
        m.load(0, Y, PLAIN, 2);
        m.store(1, Y, PLAIN, 1, 3);
        m.load(1, X, PLAIN, 4);
        assertEquals(List.of(new RobustnessViolation(RobustnessViolation.Kind.STALE_READ, 1, X, 4, 1, 1,
                RobustnessViolation.INITIAL, 0)), reports);
        // x=1; y=1; a=y (1); b=x: b reading 0 is just the interleaving y=1; b=x; x=1; a=y
        RobustnessMonitor other = new RobustnessMonitor(reports::add);
        reports.clear();
        other.store(0, X, PLAIN, 1, 1);
        other.store(1, Y, PLAIN, 1, 2);
        other.load(0, Y, PLAIN, 3);
        other.load(1, X, PLAIN, 4);
        assertEquals(List.of(), reports);
    }

    @Test
    void threadStartHandsTheParentsWritesToTheChild() {
        m.store(0, X, PLAIN, 1, 1);
        m.store(0, Y, PLAIN, 1, 2);
        m.start(0, 1);
        m.load(1, Y, PLAIN, 3);
        m.load(1, X, PLAIN, 4);
        assertEquals(List.of(), reports);
    }

    /**
     * A thread's knowledge of another's writes is forgotten with its views when a start replaces them: a read of an
     * older copy of the writer's knowledge than the thread took before the start must take it again (a shortcut that
     * remembered what each thread took from each other would have to forget it here). Z = 2.
     */
    @Test
    void aThreadRestartedForgetsWhatItTookFromAnother() {
        int z = 2;
        m.store(2, z, PLAIN, 1, 1);
        m.store(2, Y, PLAIN, 1, 2);   // y's last write: T2's knowledge with z
        m.store(2, X, PLAIN, 1, 3);   // x's: newer, with z and y
        m.load(1, X, PLAIN, 4);       // T1 takes T2's knowledge at x's write
        m.start(0, 1);                // T1's views replaced by T0's (nothing)
        m.load(1, Y, PLAIN, 5);       // takes T2's knowledge at y's write again: z's write is before this read
        m.load(1, z, PLAIN, 6);       // a relaxed y read: z may still read its initial value
        assertEquals(List.of(new RobustnessViolation(RobustnessViolation.Kind.STALE_READ, 1, z, 6, 1, 1,
                RobustnessViolation.INITIAL, 0)), reports);
    }

    @Test
    void withoutTheStartTheSameReadsAreMessagePassingWithPlainFields() {
        m.store(0, X, PLAIN, 1, 1);
        m.store(0, Y, PLAIN, 1, 2);
        m.load(1, Y, PLAIN, 3);
        m.load(1, X, PLAIN, 4);
        assertEquals(1, reports.size());
        assertEquals(4, reports.get(0).event());
    }

    @Test
    void joinHandsTheJoinedThreadsWritesToTheJoiner() {
        m.store(1, X, PLAIN, 1, 1);
        m.store(1, Y, PLAIN, 1, 2);
        m.join(0, 1);
        m.load(0, Y, PLAIN, 3);
        m.load(0, X, PLAIN, 4);
        m.store(0, X, PLAIN, 2, 5);
        assertEquals(List.of(), reports);
    }

    @Test
    void aStartedThreadsWriteCannotBeOrderedBeforeTheParentsEarlierOne() {
        m.store(0, X, PLAIN, 1, 1);
        m.start(0, 1);
        m.store(1, X, PLAIN, 2, 2);
        assertEquals(List.of(), reports);
    }

    @Test
    void aCompareAndSetWithValuesIsReportedWhereTheValueBlindCheckCannotBe() {
        // T0: getAndSet x=1 (reads the initial 0); y=1. T1: reads y=1, then CAS(x, 5 -> 9) fails on 1. It could
        // read the initial 0 (not 5: it would still fail), a stale read; without values the monitor cannot
        // know that 0 is not 5, and the initial write was taken by T0's read-modify-write: no report.
        List<RobustnessViolation> blind = new ArrayList<>();
        RobustnessMonitor b = new RobustnessMonitor(blind::add);
        m.rmw(0, X, OPAQUE, 1, 1);
        b.rmw(0, X, OPAQUE, 1);
        m.store(0, Y, PLAIN, 1, 2);
        b.store(0, Y, PLAIN, 2);
        m.load(1, Y, PLAIN, 3);
        b.load(1, Y, PLAIN, 3);
        m.cas(1, X, OPAQUE, 5, false, 9, 4);
        b.cas(1, X, OPAQUE, false, 4);
        assertEquals(List.of(new RobustnessViolation(RobustnessViolation.Kind.STALE_READ, 1, X, 4, 1, 1,
                RobustnessViolation.INITIAL, 0)), reports);
        assertEquals(List.of(), blind);
    }

    @Test
    void aLosingCompareAndSetCannotReadTheValueTheWinnerTook() {
        // T0: CAS(x, 0 -> 1) wins; y=1. T1: reads y=1; CAS(x, 0 -> 2) loses: the only older write holds 0,
        // and T0's CAS read it, so no execution lets T1's CAS read it too (RSAN's read check reports this)
        m.cas(0, X, OPAQUE, 0, true, 1, 1);
        m.store(0, Y, PLAIN, 1, 2);
        m.load(1, Y, PLAIN, 3);
        m.cas(1, X, OPAQUE, 0, false, 2, 4);
        assertEquals(List.of(), reports);
    }

    @Test
    void aCopyGoesOnIndependently() {
        m.store(0, X, PLAIN, 1, 1);
        m.load(0, Y, PLAIN, 2);
        List<RobustnessViolation> copied = new ArrayList<>();
        RobustnessMonitor c = m.copy(copied::add);
        c.store(1, Y, PLAIN, 1, 3);
        c.load(1, X, PLAIN, 4);
        assertEquals(1, copied.size());
        assertEquals(List.of(), reports);
        // the original never saw T1's write of y: T1's read of x is just early
        m.load(1, X, PLAIN, 3);
        assertEquals(List.of(), reports);
        assertEquals(0, m.violations());
        assertEquals(1, c.violations());
    }

    @Test
    void theDefaultReadingOfVolatileIsTheSynchronizationOrder() {
        // mp-volatile-then-plain.litmus: only the leading fence reports it
        m.store(0, X, AccessMode.VOLATILE, 1, 1);
        m.store(0, Y, PLAIN, 1, 2);
        m.load(1, Y, PLAIN, 3);
        m.load(1, X, AccessMode.VOLATILE, 4);
        assertEquals(List.of(), reports);
    }

    @Test
    void underTheSynchronizationOrderVolatileDekkerStaysRobust() {
        RobustnessMonitor so = new RobustnessMonitor(reports::add, VolatileRule.SYNCHRONIZATION_ORDER);
        so.store(0, X, AccessMode.VOLATILE, 1, 1);
        so.load(0, Y, AccessMode.VOLATILE, 2);
        so.store(1, Y, AccessMode.VOLATILE, 1, 3);
        so.load(1, X, AccessMode.VOLATILE, 4);
        assertEquals(List.of(), reports);
    }

    @Test
    void underTheSynchronizationOrderAnUnrelatedVolatileWriteOrdersNothing() {
        // sb-unrelated-volatile.litmus: robust under the leading fence, reported here
        int z = 2;
        int w = 3;
        for (VolatileRule rule : VolatileRule.values()) {
            reports.clear();
            RobustnessMonitor r = new RobustnessMonitor(reports::add, rule);
            r.store(0, X, PLAIN, 1, 1);
            r.store(0, z, AccessMode.VOLATILE, 1, 2);
            r.load(0, Y, PLAIN, 3);
            r.store(1, Y, PLAIN, 1, 4);
            r.store(1, w, AccessMode.VOLATILE, 1, 5);
            r.load(1, X, PLAIN, 6);
            assertEquals(rule == VolatileRule.SYNCHRONIZATION_ORDER ? 1 : 0, reports.size(), rule.toString());
        }
    }

    @Test
    void underTheSynchronizationOrderAVolatileReadIsNeverOlderThanTheLatestVolatileWrite() {
        // mp-volatile-then-plain.litmus: reported under the leading fence, missed here
        for (VolatileRule rule : VolatileRule.values()) {
            reports.clear();
            RobustnessMonitor r = new RobustnessMonitor(reports::add, rule);
            r.store(0, X, AccessMode.VOLATILE, 1, 1);
            r.store(0, Y, PLAIN, 1, 2);
            r.load(1, Y, PLAIN, 3);
            r.load(1, X, AccessMode.VOLATILE, 4);
            assertEquals(rule == VolatileRule.LEADING_FENCE ? 1 : 0, reports.size(), rule.toString());
        }
    }

    @Test
    void aVolatileWriteKeepsTheMessageItFollowsAndItsWriterStillLearnsItByReading() {
        // T0: y=1; x=1 (volatile); T1: x=2 (volatile); r=x (volatile, its own write); s=y: the message of x=2 keeps
        // x=1's under the synchronization order, so T1's volatile read of x acquires y=1 and s cannot read 0; a
        // monitor that took x=2's message for T1's own knowledge alone (it is not) would skip the acquire and report
        m.store(0, Y, PLAIN, 1, 1);
        m.store(0, X, AccessMode.VOLATILE, 1, 2);
        m.store(1, X, AccessMode.VOLATILE, 2, 3);
        m.load(1, X, AccessMode.VOLATILE, 4);
        m.load(1, Y, PLAIN, 5);
        assertEquals(List.of(), reports);
    }

    @Test
    void aThreadIdUsedAgainStartsWithTheStartersKnowledgeOnly() {
        // T1 writes y then x and ends; its id starts a new thread from T0, which knows neither; the new T1 reads x=1
        // then y: plain message passing, reported; a monitor that let the new T1 inherit what the old one wrote skips
        // reading x's writer's knowledge and misses it
        m.store(1, Y, PLAIN, 1, 1);
        m.store(1, X, PLAIN, 1, 2);
        m.start(0, 1);
        m.load(1, X, PLAIN, 3);
        m.load(1, Y, PLAIN, 4);
        assertEquals(1, reports.size(), reports.toString());
        assertEquals(4, reports.get(0).event());
    }

    @Test
    void aCopyKeepsTheVolatileRuleAndTheLatestVolatileWrites() {
        RobustnessMonitor so = new RobustnessMonitor(reports::add, VolatileRule.SYNCHRONIZATION_ORDER);
        so.store(0, X, AccessMode.VOLATILE, 1, 1);
        so.store(0, Y, PLAIN, 1, 2);
        RobustnessMonitor c = so.copy(reports::add);
        c.load(1, Y, PLAIN, 3);
        c.load(1, X, AccessMode.VOLATILE, 4);
        assertEquals(List.of(), reports);
    }

    @Test
    void modesALoadOrAStoreCannotHaveAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> m.load(0, X, AccessMode.RELEASE, 1));
        assertThrows(IllegalArgumentException.class, () -> m.store(0, X, AccessMode.ACQUIRE, 1));
        assertThrows(IllegalArgumentException.class, () -> m.load(-1, X, PLAIN, 1));
        assertThrows(IllegalArgumentException.class, () -> m.load(0, -1, PLAIN, 1));
    }

    @Test
    void aViolationSaysWhatItMeans() {
        RobustnessViolation v = new RobustnessViolation(RobustnessViolation.Kind.WRITE_PLACEMENT, 1, X, 4, 1, 1,
                RobustnessViolation.INITIAL, 0);
        assertEquals("WRITE_PLACEMENT at event 4 (thread 1, location 0): can be placed right after the initial "
                + "value (#0) though SC orders write 1 (#1) before it", v.toString());
    }

    /**
     * Validated reads: a location retired (its object collected, its id given to another) is a new location that no
     * thread has read, so a thread's first read of it validates nothing. Without forgetting the old reads, T0's read
     * of the new z after a fence looks like a re-read that must see a newer write than its read of the old z, and the
     * stale read of x is dropped.
     */
    @Test
    void aRetiredLocationIsNotReReadForAValidation() {
        int z = 2;
        List<RobustnessViolation> dropped = new ArrayList<>();
        m.validateReads(v -> { }, dropped::add);
        m.load(0, z, PLAIN, 1);            // the old z, read at its initial value
        m.store(1, z, PLAIN, 1, 2);
        m.store(1, X, PLAIN, 1, 3);
        m.store(1, Y, PLAIN, 1, 4);
        m.load(0, Y, PLAIN, 5);            // y new
        m.load(0, X, PLAIN, 6);            // x may be old: held
        m.retire(z);
        m.fence(0, FenceKind.ACQUIRE);
        m.load(0, z, PLAIN, 7);            // the new z: not a re-read
        m.flush();
        assertEquals(List.of(), dropped);
        assertEquals(1, reports.size(), reports.toString());
        assertEquals(6, reports.get(0).event());
    }
}
