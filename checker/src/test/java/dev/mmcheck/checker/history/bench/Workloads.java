package dev.mmcheck.checker.history.bench;

import dev.mmcheck.checker.history.History;
import dev.mmcheck.checker.history.HistoryChecker;
import dev.mmcheck.checker.history.HistoryFormatException;
import dev.mmcheck.checker.history.Model;
import dev.mmcheck.checker.history.Op;
import dev.mmcheck.checker.history.RandomHistories;

import java.util.Random;

/**
 * The generated histories of the benchmarks: 4 threads, half writes, 8 variables, run by the SC
 * simulator (consistent with SC and TSO) or the TSO simulator (store buffers that drain late: consistent
 * with TSO, rarely with SC). Times, when asked for, are those of the simulation: each operation issued
 * up to 40 units before the moment it took effect and completed up to 40 after (moments are 10 apart,
 * so an operation overlaps a dozen or so others).
 */
public final class Workloads {

    /** Threads of every generated history. */
    public static final int THREADS = 4;
    /** Variables of every generated history. */
    public static final int VARS = 8;
    /** Time units either side of the moment an operation took effect. */
    public static final int SLACK = 40;

    private Workloads() {
    }

    /** A history of {@code ops} operations consistent with {@code model}, with or without times. */
    public static History consistent(int ops, boolean timed, Model model, long seed) {
        Random rnd = new Random(seed);
        RandomHistories.Program p = RandomHistories.fixed(rnd, THREADS, VARS, ops / THREADS, 0.5);
        return RandomHistories.run(rnd, p, model == Model.SC ? RandomHistories.Kind.SC : RandomHistories.Kind.TSO,
                timed, SLACK, false);
    }

    /**
     * An SC run (untimed) in which one read in the middle of the first thread returns the value written
     * just before the one it saw, chosen (scanning forward from the middle) so that the result is not SC:
     * a single stale read.
     */
    public static History staleRead(int ops, long seed) {
        History h = consistent(ops, false, Model.SC, seed);
        for (int id = h.threadLength(0) / 2; id < h.threadLength(0); id++) {
            Op o = h.op(id);
            if (o.read() && h.writer(id) >= 0 && o.value() > 1) {
                History stale = withValue(h, id, o.value() - 1);
                if (!HistoryChecker.check(stale, HistoryChecker.Options.defaults().withModels(true, false)
                        .withAllCriteria(false)).sc().consistent()) {
                    return stale;
                }
            }
        }
        throw new IllegalStateException("no read to make stale");
    }

    private static History withValue(History h, int victim, long value) {
        History.Builder b = History.builder("stale-read-" + h.size());
        for (int t = 0; t < h.threads(); t++) {
            b.thread(h.threadName(t));
        }
        for (int v = 0; v < h.vars(); v++) {
            b.variable(h.varName(v), h.initValue(v));
        }
        for (int id = 0; id < h.size(); id++) {
            Op o = h.op(id);
            long x = id == victim ? value : o.value();
            if (o.write()) {
                b.write(o.thread(), o.var(), x, History.NO_TIME, History.NO_TIME, 0);
            } else {
                b.read(o.thread(), o.var(), x, History.NO_TIME, History.NO_TIME, 0);
            }
        }
        try {
            return b.build();
        } catch (HistoryFormatException e) {
            throw new IllegalStateException(e);
        }
    }
}
