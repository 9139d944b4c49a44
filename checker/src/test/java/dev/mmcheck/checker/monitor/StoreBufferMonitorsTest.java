package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TSO and PSO monitors on their own, driven by hand: what each reports (in ids) on the classic
 * litmus shapes, and what Java's fences and release stores remove. The engine, the names and the
 * oracles are tested elsewhere; this is the monitors' contract with their FindingSink.
 */
class StoreBufferMonitorsTest {

    private static final int X = 0;
    private static final int Y = 1;

    /** Dekker (store buffering): T0 st x; ld y. T1 st y; ld x. */
    private static MonitorDriver dekker(MonitorDriver d, int fenceKind) {
        d.ev(Kinds.STORE, 0, X, 1);
        if (fenceKind >= 0) {
            d.ev(fenceKind, 0, -1, 2);
        }
        d.ev(Kinds.LOAD, 0, Y, 3);
        d.ev(Kinds.STORE, 1, Y, 4);
        if (fenceKind >= 0) {
            d.ev(fenceKind, 1, -1, 5);
        }
        return d.ev(Kinds.LOAD, 1, X, 6);
    }

    @Test
    void tsoReportsDekkerWithTheStoreAndTheAccessThatMissesIt() {
        MonitorDriver d = new MonitorDriver();
        d.monitor(new TsoMonitor(d.clocks, d, MonitorConfig.defaults()));
        dekker(d, -1);
        assertEquals(List.of(new MonitorDriver.Found(Analysis.TSO, 0, 1, 1, 6)), d.found);
    }

    @Test
    void aFullFenceRemovesDekkerAStoreStoreFenceDoesNot() {
        MonitorDriver full = new MonitorDriver();
        full.monitor(new TsoMonitor(full.clocks, full, MonitorConfig.defaults()));
        dekker(full, Kinds.FULL_FENCE);
        assertEquals(List.of(), full.found);
        MonitorDriver storeStore = new MonitorDriver();
        storeStore.monitor(new PsoMonitor(storeStore.clocks, storeStore, MonitorConfig.defaults()));
        dekker(storeStore, Kinds.STORE_STORE_FENCE);
        assertEquals(1, storeStore.found.size(), "a StoreStore fence does not order a store before a load");
    }

    /** Message passing: T0 st x; st y. T1 ld y; ld x. Only PSO lets the second store overtake the first. */
    private static MonitorDriver messagePassing(MonitorDriver d, int flagKind) {
        d.ev(Kinds.STORE, 0, X, 1);
        d.ev(flagKind, 0, Y, 2);
        d.ev(Kinds.LOAD, 1, Y, 3);
        return d.ev(Kinds.LOAD, 1, X, 4);
    }

    @Test
    void messagePassingBreaksUnderPsoOnlyAndAReleaseStoreFixesIt() {
        MonitorDriver tso = new MonitorDriver();
        tso.monitor(new TsoMonitor(tso.clocks, tso, MonitorConfig.defaults()));
        assertEquals(List.of(), messagePassing(tso, Kinds.STORE).found);
        MonitorDriver pso = new MonitorDriver();
        pso.monitor(new PsoMonitor(pso.clocks, pso, MonitorConfig.defaults()));
        assertEquals(List.of(new MonitorDriver.Found(Analysis.PSO, 0, 1, 1, 4)), messagePassing(pso, Kinds.STORE).found);
        MonitorDriver release = new MonitorDriver();
        release.monitor(new PsoMonitor(release.clocks, release, MonitorConfig.defaults()));
        assertEquals(List.of(), messagePassing(release, Kinds.RELEASE_STORE).found,
                "a release store cannot commit before the thread's earlier stores");
    }

    @Test
    void aFullBufferCommitsItsOldestStoreAndSaysSo() {
        MonitorDriver d = new MonitorDriver();
        TsoMonitor tso = new TsoMonitor(d.clocks, d, MonitorConfig.defaults().withBufferBound(2));
        d.monitor(tso);
        d.ev(Kinds.STORE, 0, X, 1).ev(Kinds.STORE, 0, 2, 2).ev(Kinds.STORE, 0, 3, 3); // x committed early
        d.ev(Kinds.LOAD, 0, Y, 4).ev(Kinds.STORE, 1, Y, 5).ev(Kinds.LOAD, 1, X, 6);
        assertEquals(List.of(), d.found, "the store to x was committed when the buffer filled");
        assertEquals(1, tso.forcedCommits());
        assertEquals("buffer-bound", tso.notes().get(0).kind());
        assertTrue(tso.notes().get(0).text().contains("committed early"));
    }

    @Test
    void aResetCommitsEverythingUnchecked() {
        MonitorDriver d = new MonitorDriver();
        TsoMonitor tso = new TsoMonitor(d.clocks, d, MonitorConfig.defaults());
        d.monitor(tso);
        d.ev(Kinds.STORE, 0, X, 1).ev(Kinds.LOAD, 0, Y, 2);
        assertEquals(1, tso.buffered(0));
        tso.reset(new int[] {0, 1});
        d.clocks.reset();
        assertEquals(0, tso.buffered(0));
        d.ev(Kinds.STORE, 1, Y, 3).ev(Kinds.LOAD, 1, X, 4);
        assertEquals(List.of(), d.found);
    }
}
