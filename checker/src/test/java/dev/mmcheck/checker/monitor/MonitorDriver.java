package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.runtime.Kinds;

import java.util.ArrayList;
import java.util.List;

/**
 * Drives one monitor by hand, as the engine does (the monitor sees each event before the clocks
 * advance past it), and records its findings in ids: the tests of this package need no engine.
 */
final class MonitorDriver implements FindingSink {

    /** A finding in ids: store thread, store site, access thread, access site. */
    record Found(Analysis analysis, int storeThread, int storeSite, int thread, int accessSite) {
    }

    final VectorClocks clocks = new VectorClocks(4, 16);
    final List<Found> found = new ArrayList<>();
    private Analyzer monitor;
    private long seq;

    MonitorDriver monitor(Analyzer m) {
        this.monitor = m;
        m.ensureThreads(4);
        m.ensureAddress(15);
        return this;
    }

    /** One event: kind, thread, operand (address or thread), site. */
    MonitorDriver ev(int kind, int t, int operand, int site) {
        monitor.event(kind, t, operand, site, seq++);
        switch (kind) {
            case Kinds.LOAD -> clocks.load(t, operand);
            case Kinds.STORE, Kinds.RELEASE_STORE, Kinds.VOLATILE_STORE -> clocks.store(t, operand);
            case Kinds.INTERLOCKED, Kinds.MONITOR_ENTER, Kinds.MONITOR_EXIT -> clocks.interlocked(t, operand);
            default -> clocks.local(t);
        }
        return this;
    }

    @Override
    public void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
            long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq) {
        found.add(new Found(analysis, storeThread, storeSite, thread, accessSite));
    }

    @Override
    public void cycle(Analysis analysis, List<Tx> transactions, List<Edge> edges, String advice, long s) {
        throw new AssertionError("a monitor reports no cycles");
    }
}
