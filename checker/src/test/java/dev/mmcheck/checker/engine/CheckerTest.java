package dev.mmcheck.checker.engine;

import dev.mmcheck.checker.bench.SyntheticStream;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Violation;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker around the monitors: thread slots and resets, dedup and counts, paths, bounds, allocation. */
class CheckerTest {

    private final Streams streams = new Streams();
    private final Symbols symbols = streams.symbols;

    private void ev(Checker c, String thread, EventKind k, String operand, int line) {
        streams.ev(c, thread, k, operand, line);
    }

    /** Dekker once in fresh threads {@code a} and {@code b}. */
    private void dekker(Checker c, String a, String b) {
        ev(c, a, EventKind.STORE, "x", 1);
        ev(c, a, EventKind.LOAD, "y", 2);
        ev(c, b, EventKind.STORE, "y", 3);
        ev(c, b, EventKind.LOAD, "x", 4);
        ev(c, a, EventKind.THREAD_END, null, 5);
        ev(c, b, EventKind.THREAD_END, null, 6);
    }

    @Test
    void repeatedViolationsAreCountedOnceEach() {
        Checker c = new Checker(symbols, Checker.Config.defaults());
        for (int i = 0; i < 10; i++) {
            dekker(c, "A" + i, "B" + i);
        }
        CheckResult r = c.result();
        assertEquals(1, r.violationsOf(Analysis.TSO).size());
        assertEquals(10, r.violationsOf(Analysis.TSO).get(0).count());
        assertEquals(10, r.violationsOf(Analysis.PSO).get(0).count());
        assertEquals(20, r.threads());
    }

    @Test
    void endedThreadsAreReclaimedAndViolationsStillFoundAfterAReset() {
        Checker c = new Checker(symbols, Checker.Config.defaults().withMinSlotsBeforeReset(4));
        for (int i = 0; i < 200; i++) {
            dekker(c, "A" + i, "B" + i);
        }
        CheckResult r = c.result();
        assertTrue(r.clockResets() > 0, "slots were reclaimed");
        assertEquals(200, r.violationsOf(Analysis.TSO).get(0).count(), "every Dekker run still reported");
        assertTrue(r.hasNote("clock-reset"), r.notes().toString());
    }

    @Test
    void anEventAfterTheThreadEndedIsRejected() {
        Checker c = new Checker(symbols, Checker.Config.defaults());
        ev(c, "A", EventKind.LOAD, "x", 1);
        ev(c, "A", EventKind.THREAD_END, null, 2);
        assertThrows(IllegalArgumentException.class, () -> ev(c, "A", EventKind.LOAD, "x", 3));
    }

    @Test
    void theReportCarriesThePathAndTheFix() {
        Checker c = new Checker(symbols, Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSO)));
        ev(c, "A", EventKind.STORE, "x", 1);
        ev(c, "A", EventKind.LOAD, "z", 2);
        ev(c, "A", EventKind.LOAD, "y", 3);
        ev(c, "B", EventKind.STORE, "y", 4);
        ev(c, "B", EventKind.LOAD, "x", 5);
        Violation v = c.result().violations().get(0);
        assertEquals("store", v.store().op());
        assertEquals("x", v.store().field());
        assertEquals(4, v.prev().site().line());
        assertEquals(5, v.access().site().line());
        List<EventInfo> path = v.path();
        assertNotNull(path);
        assertEquals(List.of(1, 3, 4), path.stream().map(e -> e.site().line()).toList(),
                "store x, then the load of y that left A, then B's store of y (prev)");
        assertTrue(v.advice().contains("after the store at X.java:1, before the load at X.java:3"), v.advice());
    }

    @Test
    void adviceOnOneLineNamesTheTwoAccessesRatherThanTheLineTwice() {
        Checker c = new Checker(symbols, Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSO)));
        ev(c, "A", EventKind.STORE, "x", 7);
        ev(c, "A", EventKind.LOAD, "y", 7); // a lambda on one line: x = 1; r1 = y;
        ev(c, "B", EventKind.STORE, "y", 9);
        ev(c, "B", EventKind.LOAD, "x", 9);
        Violation v = c.result().violations().get(0);
        assertTrue(v.advice().contains("between the store to x and the load of y (both at X.java:7)"), v.advice());
    }

    @Test
    void aFullBufferCommitsItsOldestStoreAndSaysSo() {
        Checker c = new Checker(symbols, Checker.Config.defaults().withMonitors(MonitorConfig.defaults()
                .withBufferBound(2)));
        ev(c, "A", EventKind.STORE, "x", 1);
        ev(c, "A", EventKind.STORE, "p", 2);
        ev(c, "A", EventKind.STORE, "q", 3);
        ev(c, "A", EventKind.LOAD, "y", 4);
        ev(c, "B", EventKind.STORE, "y", 5);
        ev(c, "B", EventKind.LOAD, "x", 6);
        CheckResult r = c.result();
        assertEquals(0, r.violations().size(), "the store to x was committed when the buffer filled");
        assertEquals(1L, r.forcedCommits().get(Analysis.TSO));
        assertEquals("buffer-bound", r.notes().get(0).kind(), r.notes().toString());
        assertTrue(r.notes().get(0).text().contains("committed early"), r.notes().toString());
        assertTrue(r.complete(), "a bound degrades the check; it leaves nothing unchecked");
    }

    @Test
    void theSteadyStateAllocatesNothingPerEvent() {
        Symbols s = new Symbols();
        EventBuffer events = SyntheticStream.generate(s, 4, 4096, 1 << 18, 11);
        Checker c = new Checker(s, Checker.Config.defaults());
        for (int warm = 0; warm < 5; warm++) {
            events.replay(c);
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(id);
        events.replay(c);
        long allocated = mx.getThreadAllocatedBytes(id) - before;
        assertTrue(allocated < 16 * 1024, allocated + " bytes allocated while replaying " + events.size() + " events");
    }

    /**
     * Memory bound: forgetting the address tables is a clock reset (every buffered store committed,
     * counted); checking goes on with fresh ids, and a violation wholly after the reset is still found.
     */
    @Test
    void forgettingAddressesIsAResetAndCheckingGoesOn() {
        Checker c = new Checker(symbols, Checker.Config.defaults());
        ev(c, "A", EventKind.STORE, "x", 1);
        ev(c, "A", EventKind.LOAD, "y", 2);
        c.forgetAddresses();
        ev(c, "B", EventKind.STORE, "y", 3);
        ev(c, "B", EventKind.LOAD, "x", 4);
        assertEquals(0, c.result().violations().size(), "the store to x was committed at the reset");
        ev(c, "A", EventKind.THREAD_END, null, 5);
        ev(c, "B", EventKind.THREAD_END, null, 6);
        dekker(c, "C", "D");
        CheckResult r = c.result();
        assertEquals(1, r.violationsOf(Analysis.TSO).size(), "a violation after the reset is found");
        assertTrue(r.hasNote("memory-bound"), r.notes().toString());
        assertTrue(r.complete(), "a bound degrades the check; nothing went unchecked");
        assertTrue(c.bytesPerAddress() >= 4L * (3 + 2 * 2), "the clocks' record at least");
    }

    /**
     * The tables never outgrow the memory bound: not by doubling their capacity, and not when a new
     * thread widens every address's record (Agrona's suite ran the agent's checker out of heap that way:
     * 35 threads, the table at its bound, a new slot allocating one twice its size beside it).
     */
    @Test
    void aNewThreadNeverWidensTheTablesPastTheMemoryBound() {
        Checker c = new Checker(symbols, Checker.Config.defaults());
        long bound = 120_000;
        c.limitMemory(bound);
        long most = 0;
        for (int t = 0; t < 40; t++) {
            for (int a = 0; a < 200; a++) {
                ev(c, "T" + t, EventKind.STORE, "a" + a, 1);
                most = Math.max(most, c.tableBytes());
            }
            ev(c, "T" + t, EventKind.FULL_FENCE, null, 2);
        }
        assertTrue(most <= bound, "the tables took " + most + " bytes, over the bound of " + bound);
        assertTrue(c.result().hasNote("memory-bound"), "widening at the bound forgot the history, as reported: "
                + c.result().notes());
        dekker(c, "C", "D");
        assertEquals(1, c.result().violationsOf(Analysis.TSO).size(), "checking goes on after it");
    }

    /**
     * After a new thread slot made the checker forget its addresses at the memory bound, the agent's address ids
     * live on, and their deaths come in: an id the tables no longer hold has no state, and its death must not
     * grow the tables (it grew them to the dead id at the wider stride, past the bound: an OutOfMemoryError at the
     * end of Agrona's suite).
     */
    @Test
    void theDeathOfAnAddressForgottenAtTheBoundDoesNotGrowTheTables() {
        Checker c = new Checker(symbols, Checker.Config.defaults());
        long bound = 120_000;
        c.limitMemory(bound);
        for (int t = 0; t < 40; t++) {
            for (int a = 0; a < 200; a++) {
                ev(c, "T" + t, EventKind.STORE, "a" + a, 1);
            }
            ev(c, "T" + t, EventKind.FULL_FENCE, null, 2);
        }
        assertTrue(c.result().hasNote("memory-bound"), "the bound made the checker forget: " + c.result().notes());
        long most = 0;
        for (int a = 0; a < 5_000; a++) {
            c.event(Kinds.ADDRESS_DEAD, 0, a, -1);
            most = Math.max(most, c.tableBytes());
        }
        assertTrue(most <= bound, "deaths grew the tables to " + most + " bytes, over the bound of " + bound);
        assertTrue(c.result().failures().isEmpty(), "no failure: " + c.result().failures());
        dekker(c, "C", "D");
        assertEquals(1, c.result().violationsOf(Analysis.TSO).size(), "checking goes on after them");
    }

    /** A thread's int clock never wraps: near the limit the checker resets (here at a lowered limit). */
    @Test
    void aClockNearItsLimitResetsInsteadOfWrapping() {
        Checker c = new Checker(symbols, Checker.Config.defaults());
        c.clockLimit(1000);
        for (int i = 0; i < 5000; i++) {
            ev(c, "A", EventKind.STORE, "x", 1);
            ev(c, "B", EventKind.LOAD, "x", 2);
        }
        CheckResult r = c.result();
        assertTrue(r.hasNote("clock-limit"), r.notes().toString());
        assertTrue(r.notes().stream().filter(n -> n.kind().equals("clock-limit")).findFirst().orElseThrow()
                .count() >= 4, r.notes().toString());
        dekker(c, "C", "D");
        assertEquals(1, c.result().violationsOf(Analysis.TSO).size(), "checking goes on after the reset");
    }
}
