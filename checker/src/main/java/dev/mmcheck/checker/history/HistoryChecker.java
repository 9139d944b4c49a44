package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a history is SC and whether it is TSO, the gradual way (docs/history.md): first the
 * polynomial criteria CC, CCv, CM, CCM (SC side) and wCCM (TSO side), whose failure is already a verdict;
 * then, for a model whose criterion holds, the recorded times (if any) against the forced part of the
 * order; then a search over the store orders that extend pww (SC) or wpww (TSO). Every witness found is
 * checked again independently before it is reported.
 */
public final class HistoryChecker {

    private HistoryChecker() {
    }

    /**
     * What to check: which models, whether to use the recorded times, whether to run the gradual algorithm
     * (or the plain enumeration of store orders extending program order, for comparison), a budget of
     * candidate placements for the search (negative: none), and whether to evaluate all five criteria
     * (otherwise only those the chosen models need).
     */
    public record Options(boolean sc, boolean tso, boolean useTimes, boolean gradual, long maxSteps,
            boolean allCriteria, long firstRound) {

        /** Both models, times used, gradual, no budget, all criteria. */
        public static Options defaults() {
            return new Options(true, true, true, true, -1, true, -1);
        }

        /** These options with the models chosen. */
        public Options withModels(boolean checkSc, boolean checkTso) {
            return new Options(checkSc, checkTso, useTimes, gradual, maxSteps, allCriteria, firstRound);
        }

        /** These options with times used or ignored. */
        public Options withTimes(boolean use) {
            return new Options(sc, tso, use, gradual, maxSteps, allCriteria, firstRound);
        }

        /** These options with the gradual algorithm or the plain enumeration. */
        public Options withGradual(boolean g) {
            return new Options(sc, tso, useTimes, g, maxSteps, allCriteria, firstRound);
        }

        /** These options with a search budget (negative: none). */
        public Options withMaxSteps(long steps) {
            return new Options(sc, tso, useTimes, gradual, steps, allCriteria, firstRound);
        }

        /**
         * These options with the placement budget of the first round of a timed search (it doubles every two
         * rounds; negative, the default: 10,000 or four per operation, whichever is more). Tests set it tiny
         * to exercise the restarts.
         */
        public Options withFirstRound(long placements) {
            return new Options(sc, tso, useTimes, gradual, maxSteps, allCriteria, placements);
        }

        /** These options evaluating all five criteria, or only those the chosen models need. */
        public Options withAllCriteria(boolean all) {
            return new Options(sc, tso, useTimes, gradual, maxSteps, all, firstRound);
        }
    }

    /** Checks {@code history} as {@code options} say. */
    public static HistoryResult check(History history, Options options) {
        History h = options.useTimes() ? history : history.withoutTimes();
        Structure st = new Structure(h);
        boolean timed = h.timed();
        Map<Criterion, Boolean> criteria = new EnumMap<>(Criterion.class);
        Map<Criterion, Explanation> why = new EnumMap<>(Criterion.class);
        if (!options.gradual()) {
            Verdict sc = options.sc() ? plain(st, Model.SC, timed, options.maxSteps(), options.firstRound()) : null;
            Verdict tso = options.tso() ? plain(st, Model.TSO, timed, options.maxSteps(), options.firstRound()) : null;
            return new HistoryResult(history, criteria, why, sc, tso,
                    new HistoryResult.Stats(pairs(st), -1, -1, 0, 0, 0, 0));
        }
        boolean sideSc = options.sc() || options.allCriteria();
        boolean sideTso = options.tso() || options.allCriteria();
        long t0 = System.nanoTime();
        Causality ca = sideSc ? new Causality(st) : null;
        long t1 = System.nanoTime();
        WeakCausality wc = sideTso ? new WeakCausality(st) : null;
        long t2 = System.nanoTime();
        if (ca != null) {
            put(criteria, why, Criterion.CC, ca.cc, ca.ccCycle,
                    "CC fails: a read returns a value overwritten by a write causally before it");
            put(criteria, why, Criterion.CCV, ca.ccv, ca.ccvCycle,
                    "CCv fails: no single order of the writes agrees with what every thread causally saw");
            put(criteria, why, Criterion.CM, ca.cm, ca.cmCycle,
                    "CM fails: some thread's happens-before (hb_o) is cyclic");
            put(criteria, why, Criterion.CCM, ca.ccm, ca.ccmCycle,
                    "CCM fails: po ∪ wr ∪ pww ∪ rw[pww] is cyclic");
        }
        if (wc != null) {
            put(criteria, why, Criterion.WCCM, wc.wccm, wc.cycle, "wCCM fails: " + wccmGraph(wc) + " is cyclic");
        }

        Verdict sc = null;
        if (options.sc()) {
            if (!ca.ccm) {
                Criterion first = !ca.cc ? Criterion.CC : !ca.ccv ? Criterion.CCV : !ca.cm ? Criterion.CM
                        : Criterion.CCM;
                Explanation e = why.get(first);
                sc = new Verdict(Model.SC, Verdict.Outcome.INCONSISTENT, timed, first.label(), null, null,
                        new Explanation(e.claim() + (first == Criterion.CCM ? "" : " (so CCM fails too)")
                                + "; SC implies CCM", e.cycle(), List.of()), null);
            } else {
                sc = search(st, Model.SC, ca.ccmGraph, null, ca.pwwGraph, ca.pww, timed, options.maxSteps(),
                        options.firstRound(), "search");
            }
        }
        Verdict tso = null;
        if (options.tso()) {
            if (!wc.wccm) {
                Explanation e = why.get(Criterion.WCCM);
                tso = new Verdict(Model.TSO, Verdict.Outcome.INCONSISTENT, timed, "wCCM", null, null,
                        new Explanation(e.claim() + "; TSO implies wCCM", e.cycle(), List.of()), null);
            } else {
                tso = search(st, Model.TSO, wc.ppoGraph, wc.locGraph, wc.wpwwGraph, wc.wpww, timed, options.maxSteps(),
                        options.firstRound(),
                        "search");
            }
        }
        long pairs = pairs(st);
        return new HistoryResult(history, criteria, why, sc, tso, new HistoryResult.Stats(pairs,
                ca != null && ca.ccm ? ca.unordered : -1, wc != null && wc.wccm ? wc.unordered : -1,
                ca == null ? 0 : ca.rounds, wc == null ? 0 : wc.rounds, t1 - t0, t2 - t1));
    }

    private static String wccmGraph(WeakCausality wc) {
        if ("po-loc".equals(wc.cycleGraph)) {
            return "po-loc ∪ wr ∪ wpww ∪ rw[wpww]";
        }
        return "ppo ∪ wre ∪ wpww ∪ rw[wpww]";
    }

    private static void put(Map<Criterion, Boolean> criteria, Map<Criterion, Explanation> why, Criterion c,
            boolean holds, List<Edge> cycle, String claim) {
        criteria.put(c, holds);
        if (!holds) {
            why.put(c, new Explanation(claim, cycle, List.of()));
        }
    }

    private static long pairs(Structure st) {
        long pairs = 0;
        for (int x = 0; x < st.h.vars(); x++) {
            long nx = 0;
            for (int s = 0; s < st.threads; s++) {
                nx += st.h.writeCount(x, s);
            }
            pairs += nx * (nx - 1) / 2;
        }
        return pairs;
    }

    /**
     * With times: the store-order pairs the relaxed time order forces join the partial store order, and
     * the forced part of the order is checked against the times. Then the search over store orders
     * extending {@code order} (whose generating edges between writes are {@code orderGraph}).
     */
    private static Verdict search(Structure st, Model model, Graph mainGraph, Graph locGraph, Graph orderGraph,
            Clocks order, boolean timed, long maxSteps, long firstRound, String stage) {
        History h = st.h;
        long[] issue = timed ? TimeOrder.issue(h) : null;
        long[] rc = timed ? TimeOrder.relaxedCommit(h, model == Model.TSO) : null;
        if (timed) {
            Graph.Builder tb = new Graph.Builder(st.n, 2 * st.n);
            TimeOrder.addForcedWrites(st, issue, rc, tb);
            Graph forced = tb.build();
            if (forced.m > 0) {
                Graph.Builder ob = new Graph.Builder(st.n, orderGraph.m + forced.m);
                Causality.copy(orderGraph, ob);
                Causality.copy(forced, ob);
                Graph.View ov = new Graph.View(ob.build(), null);
                int[] writes = st.writes();
                int[] sorted = new int[st.n];
                if (ov.kahn(writes, writes.length, sorted, null) < writes.length) {
                    return timeOrder(model, ov.cycleAfterKahn(writes, writes.length));
                }
                order = new Clocks(st.n, st.threads);
                order.sweep(h, ov, sorted, writes.length, st.chain, Clocks.PO);
                mainGraph = withForced(st, mainGraph, forced, order);
                locGraph = locGraph == null ? null : withForced(st, locGraph, forced, order);
            }
        }
        int[] mainOrder = new int[st.n];
        Graph.View mv = new Graph.View(mainGraph, null);
        if (mv.kahn(null, st.n, mainOrder, issue) < st.n) {
            return timeOrder(model, mv.cycleAfterKahn(null, st.n));
        }
        int[] locOrder = null;
        if (locGraph != null) {
            locOrder = new int[st.n];
            Graph.View lv = new Graph.View(locGraph, null);
            if (lv.kahn(null, st.n, locOrder, issue) < st.n) {
                return timeOrder(model, lv.cycleAfterKahn(null, st.n));
            }
        }
        if (timed) {
            List<Edge> c = TimeOrder.check(mv, mainOrder, st.n, issue, rc, null, null);
            if (c != null) {
                return timeOrder(model, c);
            }
        }
        // With times, the search restarts: rounds alternate between two initial orders (by issue time,
        // and by the graph alone), with a budget of placements that doubles every two rounds. Each round
        // is a complete search when its budget suffices, so the verdict is the same; the restarts only
        // keep one unlucky early choice under one order from costing exponential time (a store buffer
        // can make issue times a poor guide to a TSO store order). Without times there is one order.
        long roundBudget = !timed ? -1 : firstRound > 0 ? firstRound : Math.max(10_000L, 4L * st.n);
        long used = 0;
        long[] sum = new long[8];
        int depth = 0;
        StoreOrderSearch s;
        StoreOrderSearch.Outcome out;
        long t0 = System.nanoTime();
        for (int round = 0;; round++) {
            int[] mo = mainOrder;
            int[] lo = locOrder;
            if (round > 0) {
                boolean byIssue = round % 2 == 0;
                mo = new int[st.n];
                mv.kahn(null, st.n, mo, byIssue ? issue : null);
                if (locGraph != null) {
                    lo = new int[st.n];
                    new Graph.View(locGraph, null).kahn(null, st.n, lo, byIssue ? issue : null);
                }
            }
            long budget = roundBudget < 0 ? maxSteps
                    : maxSteps < 0 ? roundBudget : Math.min(roundBudget, maxSteps - used);
            s = new StoreOrderSearch(st, order, mainGraph, mo, locGraph, lo, rc, budget);
            out = s.run();
            used += s.tried;
            sum[0] += s.placements;
            sum[1] += s.tried;
            sum[2] += s.prunedCycle;
            sum[3] += s.prunedTime;
            sum[4] += s.prunedInactive;
            sum[5] += s.backtracks;
            sum[6] += s.decisions;
            sum[7] = round;
            depth = Math.max(depth, s.maxDepth);
            if (out != StoreOrderSearch.Outcome.UNKNOWN || roundBudget < 0 || (maxSteps >= 0 && used >= maxSteps)) {
                break;
            }
            if (round % 2 == 1) {
                roundBudget *= 2;
            }
        }
        long nanos = System.nanoTime() - t0;
        SearchStats stats = new SearchStats(sum[0], sum[1], sum[2], sum[3], sum[4], sum[5], sum[6], depth, nanos,
                (int) sum[7]);
        switch (out) {
            case CONSISTENT: {
                int[][] ww = s.storeOrder();
                String problem = Witness.problem(st, ww, model == Model.TSO, rc);
                if (problem != null) {
                    throw new IllegalStateException("internal error: the " + model + " witness found is not one: "
                            + problem);
                }
                int[] total = model == Model.SC ? Witness.totalOrder(st, ww, rc) : null;
                return new Verdict(model, Verdict.Outcome.CONSISTENT, timed, stage, List.of(ww), total, null, stats);
            }
            case INCONSISTENT:
                return new Verdict(model, Verdict.Outcome.INCONSISTENT, timed, stage, null, null, s.explanation,
                        stats);
            default:
                return new Verdict(model, Verdict.Outcome.UNKNOWN, timed, stage, null, null, null, stats);
        }
    }

    private static Verdict timeOrder(Model model, List<Edge> cycle) {
        return new Verdict(model, Verdict.Outcome.INCONSISTENT, true, "time order", null, null,
                new Explanation("the recorded times rule out every witness: this cycle is in every one (the "
                        + "relaxed time order of MODV orders operations that end before others are issued)", cycle,
                        List.of()), null);
    }

    /** {@code base} plus the time-forced store-order edges and the rw edges of the strengthened order. */
    private static Graph withForced(Structure st, Graph base, Graph forced, Clocks order) {
        Graph.Builder b = new Graph.Builder(st.n, base.m + forced.m + st.threads * st.n);
        Causality.copy(base, b);
        Causality.copy(forced, b);
        Causality.addRw(st, b, order);
        return b.build();
    }

    /**
     * The plain enumeration (for comparison): store orders extending only program order, with the same
     * incremental checks; the base graph holds po ∪ wr (SC) or TSO's two graphs, plus the rw edges that
     * program order and the initial writes force.
     */
    private static Verdict plain(Structure st, Model model, boolean timed, long maxSteps, long firstRound) {
        Graph.Builder wb = new Graph.Builder(st.n, st.n);
        st.addWriteChains(wb);
        Graph wg = wb.build();
        int[] writes = st.writes();
        int[] order = new int[st.n];
        Graph.View wv = new Graph.View(wg, null);
        wv.kahn(writes, writes.length, order, null);
        Clocks chains = new Clocks(st.n, st.threads);
        chains.sweep(st.h, wv, order, writes.length, st.chain, Clocks.PO);
        Graph.Builder m = new Graph.Builder(st.n, 4 * st.n);
        Graph.Builder l = null;
        if (model == Model.SC) {
            st.addPo(m);
            st.addWr(m, false);
        } else {
            st.addPpo(m);
            st.addWr(m, true);
            l = new Graph.Builder(st.n, 4 * st.n);
            st.addPoLoc(l);
            st.addWr(l, false);
            Causality.addRw(st, l, chains);
        }
        Causality.addRw(st, m, chains);
        Graph mg = m.build();
        Graph lg = l == null ? null : l.build();
        List<Graph> graphs = new ArrayList<>();
        graphs.add(mg);
        if (lg != null) {
            graphs.add(lg);
        }
        for (Graph g : graphs) {
            List<Edge> c = Causality.acyclicOrCycle(g);
            if (c != null) {
                return new Verdict(model, Verdict.Outcome.INCONSISTENT, timed, "program order", null, null,
                        new Explanation("the edges every store order forces already form a cycle", c, List.of()),
                        null);
            }
        }
        return search(st, model, mg, lg, wg, chains, timed, maxSteps, firstRound, "search");
    }
}
