package dev.mmcheck.checker.history.bench;

import dev.mmcheck.checker.history.History;
import dev.mmcheck.checker.history.HistoryChecker;
import dev.mmcheck.checker.history.HistoryResult;
import dev.mmcheck.checker.history.Model;
import dev.mmcheck.checker.history.SearchStats;
import dev.mmcheck.checker.history.Verdict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Prints the "History checking" section of docs/performance.md: the gradual checker against the plain
 * enumeration of store orders on generated consistent histories (1,000 to 100,000 operations, with and
 * without times), the effect of the time-order pruning, and a single stale read. Each figure is the
 * median of {@code -Druns=N} (default 3) runs after a warm-up. Run with {@code bench/history-bench.sh}.
 */
public final class HistoryBenchReport {

    private static final int[] SIZES = {1_000, 10_000, 100_000};
    private static final long SEED = 20261127L;
    private static final long PLAIN_BUDGET = 1_000_000;
    /** Only so that the run ends: no gradual search has come near it since the timed search restarts. */
    private static final long GRADUAL_BUDGET = 20_000_000;
    private static final int MANY = Integer.getInteger("many", 20);

    private HistoryBenchReport() {
    }

    private record Run(long millis, HistoryResult result) {
    }

    private static Run measure(History h, HistoryChecker.Options o, int runs) {
        long[] ms = new long[runs];
        HistoryResult last = null;
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            last = HistoryChecker.check(h, o);
            ms[i] = (System.nanoTime() - t0) / 1_000_000;
        }
        Arrays.sort(ms);
        return new Run(ms[runs / 2], last);
    }

    private static Verdict verdict(HistoryResult r, Model m) {
        return m == Model.SC ? r.sc() : r.tso();
    }

    private static HistoryChecker.Options options(Model m, boolean gradual) {
        return HistoryChecker.Options.defaults().withModels(m == Model.SC, m == Model.TSO).withGradual(gradual)
                .withAllCriteria(false).withMaxSteps(gradual ? -1 : PLAIN_BUDGET);
    }

    private static String plainCell(Run p, Verdict pv) {
        if (pv.outcome() == Verdict.Outcome.UNKNOWN) {
            return String.format(Locale.ROOT, "> %,d (undecided after %,d placements)", p.millis(), pv.search().tried());
        }
        return String.format(Locale.ROOT, "%,d", p.millis());
    }

    /** Prints the section to standard output. */
    public static void main(String[] args) {
        int runs = Integer.getInteger("runs", 3);
        // warm-up: the JIT should have compiled the checker before anything is timed
        for (Model m : Model.values()) {
            for (boolean timed : new boolean[] {false, true}) {
                History w = Workloads.consistent(10_000, timed, m, SEED + 99);
                for (int i = 0; i < 3; i++) {
                    HistoryChecker.check(w, options(m, true));
                    HistoryChecker.check(w, options(m, false));
                }
            }
        }
        List<String> out = new ArrayList<>();
        out.add("Generated histories (checker/src/test/java/dev/mmcheck/checker/history/bench/Workloads.java): "
                + Workloads.THREADS + " threads, " + Workloads.VARS + " variables, half writes, every value unique;");
        out.add("SC runs checked against SC, TSO runs (store buffers draining late) against TSO. With times, each "
                + "operation's interval spans up to " + Workloads.SLACK + " units either side of the moment it took "
                + "effect, moments 10 units apart.");
        out.add("Median of " + runs + " runs after a warm-up; " + Runtime.getRuntime().availableProcessors()
                + " cores, Java " + System.getProperty("java.version") + ", " + System.getProperty("os.arch") + ".");
        out.add("");
        out.add("### Gradual checking against plain enumeration (consistent histories)");
        out.add("");
        out.add("\"plain\" runs the same search (incremental acyclicity, implied edges, time pruning) over store "
                + "orders that extend program order only, and stops after " + String.format(Locale.ROOT, "%,d",
                PLAIN_BUDGET) + " candidate placements; \"gradual\" first computes CC, CCv, CM and CCM (SC) or wCCM "
                + "(TSO) and extends pww or wpww.");
        out.add("");
        out.add("| model | ops | times | gradual ms (criteria + search) | plain ms | plain / gradual | write pairs "
                + "left open by pww/wpww | choice points gradual / plain | backtracks gradual / plain |");
        out.add("|---|---:|---|---:|---:|---:|---:|---:|---:|");
        List<String> pruning = new ArrayList<>();
        for (Model m : Model.values()) {
            for (int n : SIZES) {
                Run[] untimedGradual = new Run[1];
                for (boolean timed : new boolean[] {false, true}) {
                    History h = Workloads.consistent(n, timed, m, SEED + n);
                    Run g = measure(h, options(m, true), runs);
                    Verdict gv = verdict(g.result(), m);
                    Run p = measure(h, options(m, false), 1);
                    Verdict pv = verdict(p.result(), m);
                    if (pv.outcome() != Verdict.Outcome.UNKNOWN) {
                        p = measure(h, options(m, false), runs);
                        pv = verdict(p.result(), m);
                    }
                    System.err.printf("  %s %d %s: gradual %d ms, plain %d ms (%s)%n", m, n, timed ? "timed" : "untimed",
                            g.millis(), p.millis(), pv.outcome());
                    if (!gv.consistent() || pv.outcome() == Verdict.Outcome.INCONSISTENT) {
                        throw new IllegalStateException("a generated history was found inconsistent: " + m + " " + n);
                    }
                    HistoryResult.Stats s = g.result().stats();
                    long open = m == Model.SC ? s.pwwUnordered() : s.wpwwUnordered();
                    double pct = m == Model.SC ? s.pwwUnorderedPercent() : s.wpwwUnorderedPercent();
                    long poly = (s.ccmNanos() + s.wccmNanos()) / 1_000_000;
                    long search = gv.search().nanos() / 1_000_000;
                    out.add(String.format(Locale.ROOT, "| %s | %,d | %s | %,d (%,d + %,d) | %s | %s%.2f | %,d of %,d "
                            + "(%.2f%%) | %,d / %,d | %,d / %,d |", m, n, timed ? "yes" : "no", g.millis(), poly,
                            search, plainCell(p, pv), pv.outcome() == Verdict.Outcome.UNKNOWN ? "> " : "",
                            (double) p.millis() / Math.max(1, g.millis()), open, s.writePairs(), pct,
                            gv.search().decisions(), pv.search().decisions(), gv.search().backtracks(),
                            pv.search().backtracks()));
                    if (!timed) {
                        untimedGradual[0] = g;
                    } else {
                        SearchStats u = verdict(untimedGradual[0].result(), m).search();
                        SearchStats t = gv.search();
                        pruning.add(String.format(Locale.ROOT, "| %s | %,d | %,d / %,d | %,d / %,d | %,d / %,d | %,d "
                                + "| %,d | %,d / %,d |", m, n, u.nanos() / 1_000_000, t.nanos() / 1_000_000,
                                u.placements(), t.placements(), u.decisions(), t.decisions(), t.prunedTime(),
                                t.prunedInactive(), verdict(untimedGradual[0].result(), m).search().tried(),
                                t.tried()));
                    }
                }
            }
        }
        out.add("");
        out.add("### Effect of the time-order pruning (gradual)");
        out.add("");
        out.add("The same generated runs without and with their times: the search, its frontiers (writes placed), "
                + "its choice points, and what the relaxed time order pruned (MODV: a candidate ruled out by the "
                + "time order, or an inactive frontier). Times also add the store-order pairs they force before the "
                + "search starts.");
        out.add("");
        out.add("| model | ops | search ms untimed / timed | frontiers untimed / timed | choice points untimed / "
                + "timed | pruned by time | pruned as inactive | candidates tried untimed / timed |");
        out.add("|---|---:|---:|---:|---:|---:|---:|---:|");
        out.addAll(pruning);
        out.add("");
        out.add("### Many histories of 10,000 operations");
        out.add("");
        out.add("Single histories hide how often the search gets lost. " + MANY + " generated histories per row, "
                + "each checked once; plain stops after " + String.format(Locale.ROOT, "%,d", PLAIN_BUDGET)
                + " candidate placements, gradual after " + String.format(Locale.ROOT, "%,d", GRADUAL_BUDGET) + ".");
        out.add("");
        out.add("| model | times | gradual: decided, median / max ms | plain: decided, median / max ms |");
        out.add("|---|---|---|---|");
        for (Model m : Model.values()) {
            for (boolean timed : new boolean[] {false, true}) {
                long[] gms = new long[MANY];
                long[] pms = new long[MANY];
                int gOk = 0;
                int pOk = 0;
                for (int i = 0; i < MANY; i++) {
                    History h = Workloads.consistent(10_000, timed, m, SEED * 31 + i);
                    Run g = measure(h, options(m, true).withMaxSteps(GRADUAL_BUDGET), 1);
                    Run p = measure(h, options(m, false), 1);
                    gms[i] = g.millis();
                    pms[i] = p.millis();
                    gOk += verdict(g.result(), m).consistent() ? 1 : 0;
                    pOk += verdict(p.result(), m).consistent() ? 1 : 0;
                }
                Arrays.sort(gms);
                Arrays.sort(pms);
                out.add(String.format(Locale.ROOT, "| %s | %s | %d of %d, %,d / %,d | %d of %d, %,d / %,d |", m,
                        timed ? "yes" : "no", gOk, MANY, gms[MANY / 2], gms[MANY - 1], pOk, MANY, pms[MANY / 2],
                        pms[MANY - 1]));
                System.err.printf("  many %s %s done%n", m, timed);
            }
        }
        out.add("");
        out.add("### One stale read (not SC)");
        out.add("");
        out.add("An SC run in which one read in the middle of the first thread returns the value written just before "
                + "the one it saw (the first such read, from the middle on, that makes the run not SC). The plain "
                + "enumeration stops after " + String.format(Locale.ROOT, "%,d",
                PLAIN_BUDGET) + " candidate placements.");
        out.add("");
        out.add("| ops | gradual ms | decided by | plain ms | plain outcome |");
        out.add("|---:|---:|---|---:|---|");
        for (int n : new int[] {1_000, 10_000}) {
            History h = Workloads.staleRead(n, SEED + n);
            Run g = measure(h, options(Model.SC, true), runs);
            Run p = measure(h, options(Model.SC, false).withMaxSteps(PLAIN_BUDGET), 1);
            Verdict gv = g.result().sc();
            Verdict pv = p.result().sc();
            if (gv.consistent() || pv.consistent()) {
                throw new IllegalStateException("a stale read was found SC");
            }
            out.add(String.format(Locale.ROOT, "| %,d | %,d | %s | %,d | %s |", n, g.millis(), gv.stage(), p.millis(),
                    pv.outcome() == Verdict.Outcome.UNKNOWN ? "undecided after " + String.format(Locale.ROOT, "%,d",
                            pv.search().tried()) + " placements" : pv.outcome().name().toLowerCase(Locale.ROOT)
                            + " (" + pv.stage() + ")"));
        }
        for (String line : out) {
            System.out.println(line);
        }
    }
}
