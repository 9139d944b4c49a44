package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.trace.TraceFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fix of the hand-written traces: the exact changes, each proven needed, the whole proven clean. */
class FixSearchTest {

    private static final Set<Analysis> TSO_PSO = EnumSet.of(Analysis.TSO, Analysis.PSO);
    private static final Set<Analysis> JMM = EnumSet.of(Analysis.JMM);

    private static FixResult fix(String trace, Set<Analysis> models) throws Exception {
        Path file = Path.of(FixSearchTest.class.getResource("/traces/" + trace + ".trace").toURI());
        Symbols symbols = new Symbols();
        EventBuffer run = new EventBuffer();
        TraceFiles.read(file, symbols, run);
        return FixSearch.search(run, symbols, models, FixSearch.Config.defaults());
    }

    /** The change lines ({@code File.java:LINE: what}), in the result's order. */
    private static List<String> changes(FixResult r) {
        List<String> out = new ArrayList<>();
        for (FixResult.Planned p : r.changes()) {
            out.add(p.change().line());
        }
        return out;
    }

    private static void assertProven(FixResult r) {
        assertTrue(r.proven(), String.join("\n", r.lines()));
        assertTrue(r.exact(), "exact search");
        assertTrue(r.remaining().isEmpty());
        for (FixResult.Planned p : r.changes()) {
            assertTrue(p.back() >= 1, p.change() + " is not needed");
            assertFalse(p.removes().isEmpty(), p.change() + " was chosen for nothing");
        }
    }

    @Test
    void dekkerWithPlainFieldsTheFieldMadeVolatile() throws Exception {
        FixResult r = fix("01-dekker-plain", TSO_PSO);
        assertProven(r);
        // 1.6 (0.5 + one store + 0.1 a load): cheaper than a fence (2) or the one plain store made a volatile store,
        // which needs a VarHandle declared (2 for the edit + one store)
        assertEquals(List.of("Dekker.java:12: declare flag1 volatile (every access to it becomes volatile)"), changes(r));
        assertEquals(1.6, r.cost(), 1e-9);
        assertEquals(EnumSet.of(Analysis.TSO, Analysis.PSO), r.models());
    }

    @Test
    void batchStoreBufferingOneFenceBetweenTheLoops() throws Exception {
        FixResult r = fix("33-batch-store-buffering", TSO_PSO);
        assertProven(r);
        // 2 (1 + one execution): the point between the store loop and the load loop, cheaper than either end (4)
        // or the stores made volatile (3.5)
        assertEquals(List.of("Batch.java:12: put VarHandle.fullFence() right after the load of round1"), changes(r));
        assertEquals(2, r.cost(), 1e-9);
    }

    @Test
    void batchStoreBufferingUnderJmmOneFenceBetweenTheLoopsInEachThread() throws Exception {
        FixResult r = fix("33-batch-store-buffering", JMM);
        assertProven(r);
        // the access-mode model's store-buffering shape needs a fence in each thread: the points between the loops
        // (2 each) instead of the ends (4 each)
        assertEquals(List.of("Batch.java:12: put VarHandle.fullFence() right after the load of round1",
                "Batch.java:22: put VarHandle.fullFence() right after the load of round2"), changes(r));
        assertEquals(4, r.cost(), 1e-9);
    }

    @Test
    void lazySetDekkerTheReleaseStoreMadeVolatile() throws Exception {
        FixResult r = fix("11-lazyset-dekker", TSO_PSO);
        assertProven(r);
        assertEquals(List.of("Flags.java:7: make the release store to flag1 a volatile store (set() or setVolatile "
                + "instead of lazySet/setRelease)"), changes(r));
    }

    @Test
    void twoPlusTwoWritesUnderPsoAReleaseFence() throws Exception {
        FixResult r = fix("13-two-plus-two-writes", TSO_PSO);
        assertProven(r);
        assertEquals(EnumSet.of(Analysis.PSO), r.models(), "only PSO reported: only PSO is replayed");
        // 1.3 (1 for the line + 0.3): the plain store made a release store needs a VarHandle declared (2 + 0.1)
        assertEquals(List.of("W.java:2: put VarHandle.releaseFence() right before the store to y"), changes(r));
        assertEquals(1.3, r.cost(), 1e-9);
    }

    @Test
    void helperWithTwoCallersAFencePerCaller() throws Exception {
        FixResult r = fix("23-helper-two-callers", TSO_PSO);
        assertProven(r);
        // a fence after each call (2 + 2) is cheaper than Buf.java:10 made volatile, which every caller runs (0.5 + 4)
        assertEquals(List.of(
                "Lock.java:12: put VarHandle.fullFence() right after the call (the store to int[][] at Buf.java:10 "
                        + "inside it)",
                "Stats.java:40: put VarHandle.fullFence() right after the call (the store to int[][] at Buf.java:10 "
                        + "inside it)"), changes(r));
        assertEquals(2, r.findings().size());
        assertEquals(4.0, r.cost(), 1e-9);
    }

    @Test
    void aFenceInsideAMethodThatGoesOnAfterTheAccessIsWrittenAtTheAccessNotTheCall() throws Exception {
        FixResult r = fix("34-helper-lock-method", TSO_PSO);
        assertProven(r);
        // after the call, the fence would run after lock's load too: at the store itself (for both callers)
        assertEquals(List.of("Bakery.java:19: put VarHandle.fullFence() right after the store to int[][]"), changes(r),
                String.join("\n", r.lines()));
        assertEquals(3, r.cost(), 1e-9);
    }

    @Test
    void aFenceNoLineCanHoldIsNotProposed() {
        // Dekker written one line per thread (`flag1 = 1; r1 = flag2;`), and a watcher that reads flag1 16 times: the
        // store and the load of a thread share a line (two instructions, two bytecode indexes)
        Symbols symbols = new Symbols();
        int t1 = symbols.thread("T1");
        int t2 = symbols.thread("T2");
        int t3 = symbols.thread("T3");
        int flag1 = symbols.address("flag1");
        int flag2 = symbols.address("flag2");
        EventBuffer run = new EventBuffer();
        int watch = symbols.site(new dev.mmcheck.checker.event.Site("Dekker", "watch", "Dekker.java", 30, 2));
        for (int i = 0; i < 16; i++) {
            run.event(dev.mmcheck.checker.event.EventKind.LOAD.code(), t3, flag1, watch);
        }
        run.event(dev.mmcheck.checker.event.EventKind.STORE.code(), t1, flag1,
                symbols.site(new dev.mmcheck.checker.event.Site("Dekker", "thread1", "Dekker.java", 12, 1)));
        run.event(dev.mmcheck.checker.event.EventKind.LOAD.code(), t1, flag2,
                symbols.site(new dev.mmcheck.checker.event.Site("Dekker", "thread1", "Dekker.java", 12, 4)));
        run.event(dev.mmcheck.checker.event.EventKind.STORE.code(), t2, flag2,
                symbols.site(new dev.mmcheck.checker.event.Site("Dekker", "thread2", "Dekker.java", 20, 1)));
        run.event(dev.mmcheck.checker.event.EventKind.LOAD.code(), t2, flag1,
                symbols.site(new dev.mmcheck.checker.event.Site("Dekker", "thread2", "Dekker.java", 20, 4)));
        FixResult r = FixSearch.search(run, symbols, TSO_PSO, FixSearch.Config.defaults());
        assertProven(r);
        // a fence right after a store (2) would be a line after that line's load too: the store made volatile
        // (2 + 1), cheaper than the flag the watcher reads (0.5 + 1 + 1.7)
        assertEquals(List.of("Dekker.java:12: make the store to flag1 a volatile store (a VarHandle's setVolatile, or "
                + "set() instead of setOpaque/setPlain)"), changes(r), String.join("\n", r.lines()));
        assertEquals(3, r.cost(), 1e-9);
    }

    @Test
    void messagePassingWithAReleaseStoreUnderJmmAnAcquireFence() throws Exception {
        FixResult r = fix("05-message-passing-release", JMM);
        assertProven(r);
        // the plain load of flag made an acquire load needs a VarHandle declared (2.1): a fence's line is cheaper (1.3)
        assertEquals(List.of("MP.java:21: put VarHandle.acquireFence() right before the load of data"), changes(r));
    }

    @Test
    void seqlockRereadUnderJmmAnAcquireFenceBeforeTheReread() throws Exception {
        FixResult r = fix("30-jmm-seqlock-reread", JMM);
        assertProven(r);
        // the seqlock's own fix: the fence before the version's re-read (1.3), not a plain load given a mode (2.1)
        assertEquals(List.of("Seq.java:22: put VarHandle.acquireFence() right before the load of version"), changes(r));
    }

    @Test
    void aCleanRunHasNothingToRemove() throws Exception {
        FixResult r = fix("03-dekker-volatile", TSO_PSO);
        assertTrue(r.findings().isEmpty());
        assertTrue(r.changes().isEmpty());
        assertEquals(List.of("no finding to remove"), r.lines());
    }

    @Test
    void theLinesNameTheChangeItsCostAndTheProof() throws Exception {
        List<String> lines = fix("13-two-plus-two-writes", TSO_PSO).lines();
        assertEquals("the fewest changes that remove every finding of this run (1 finding under pso): 1 change",
                lines.get(0));
        assertEquals("  W.java:2: put VarHandle.releaseFence() right before the store to y", lines.get(1));
        assertEquals("      cost 1.3 (1 execution x 0.3, +1 for the edit); removes 1 finding; left out, 1 finding "
                + "comes back", lines.get(2));
        assertEquals("proof by replay under pso: with these changes this run has 0 findings; without it, 1",
                lines.get(3));
    }
}
