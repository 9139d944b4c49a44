package dev.mmcheck.checker.history;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The checker against brute force ({@link HistoryOracle}) on random small histories, consistent and
 * inconsistent, with and without times: SC and TSO verdicts (gradual and plain enumeration), the five
 * criteria, and the partial store orders pww and wpww themselves. Also the paper's lemmas on the same
 * histories: SC implies CCM, CCM implies CC, CCv and CM, TSO implies wCCM, SC implies TSO, and times only
 * ever remove witnesses. {@code -Dmmcheck.history.cases=N} (default 2000) and
 * {@code -Dmmcheck.history.seed=S} choose how many and which.
 */
class HistoryDifferentialTest {

    static int cases() {
        return Integer.getInteger("mmcheck.history.cases", 2000);
    }

    static long seed() {
        return Long.getLong("mmcheck.history.seed", 20261126L);
    }

    @Test
    void verdictsCriteriaAndPartialStoreOrdersMatchTheDefinitions() {
        Random rnd = new Random(seed());
        RandomHistories.Kind[] kinds = RandomHistories.Kind.values();
        List<String> failures = new ArrayList<>();
        int n = cases();
        int[] sc = new int[2];
        int[] tsoOnly = new int[2];
        int[] neither = new int[2];
        int timeMatters = 0;
        int[] searched = new int[2];
        int ccmButNotSc = 0;
        int wccmButNotTso = 0;
        int[] explained = new int[1];
        long restarts = 0;
        for (int i = 0; i < n && failures.size() < 5; i++) {
            RandomHistories.Kind kind = kinds[i % kinds.length];
            boolean timed = (i / kinds.length) % 2 == 1;
            History h = RandomHistories.small(rnd, kind, timed);
            String where = "case " + i + " (" + kind + (timed ? ", timed" : "") + "):\n" + HistoryText.toString(h);
            try {
                HistoryOracle o = new HistoryOracle(h);
                boolean oSc = o.sc(timed);
                boolean oTso = o.tso(timed);
                HistoryResult r = HistoryChecker.check(h, HistoryChecker.Options.defaults());
                if (kind == RandomHistories.Kind.SC && !o.sc(false) || kind == RandomHistories.Kind.TSO && !o.tso(false)) {
                    failures.add(where + "a run of the " + kind + " simulator is not " + kind);
                }
                check(failures, where + "SC (gradual)", oSc, r.sc());
                check(failures, where + "TSO (gradual)", oTso, r.tso());
                HistoryResult p = HistoryChecker.check(h, HistoryChecker.Options.defaults().withGradual(false));
                check(failures, where + "SC (plain)", oSc, p.sc());
                check(failures, where + "TSO (plain)", oTso, p.tso());
                for (Verdict v : List.of(r.sc(), r.tso(), p.sc(), p.tso())) {
                    if (!v.consistent() && v.explanation() != null) {
                        explained[0] += explanation(failures, where + v.model() + " explanation at " + v.stage(), h, o,
                                v.model() == Model.TSO, v.explanation());
                    }
                }
                for (Map.Entry<Criterion, Explanation> e : r.whyNot().entrySet()) {
                    if (e.getValue() != null) {
                        explained[0] += explanation(failures, where + e.getKey() + " explanation", h, o,
                                e.getKey() == Criterion.WCCM, e.getValue());
                    }
                }
                if (timed) {
                    // restarts after every couple of placements: the verdict must not change
                    HistoryResult rs = HistoryChecker.check(h, HistoryChecker.Options.defaults().withFirstRound(2));
                    check(failures, where + "SC (restarting)", oSc, rs.sc());
                    check(failures, where + "TSO (restarting)", oTso, rs.tso());
                    for (Verdict v : List.of(rs.sc(), rs.tso())) {
                        restarts += v.search() == null ? 0 : v.search().restarts();
                    }
                    boolean uSc = o.sc(false);
                    boolean uTso = o.tso(false);
                    HistoryResult u = HistoryChecker.check(h, HistoryChecker.Options.defaults().withTimes(false));
                    check(failures, where + "SC (times ignored)", uSc, u.sc());
                    check(failures, where + "TSO (times ignored)", uTso, u.tso());
                    if ((oSc && !uSc) || (oTso && !uTso)) {
                        failures.add(where + "times made an inconsistent history consistent");
                    }
                    if (oSc != uSc || oTso != uTso) {
                        timeMatters++;
                    }
                }
                Map<Criterion, Boolean> oc = o.criteria();
                if (!oc.equals(r.criteria())) {
                    failures.add(where + "criteria: checker " + r.criteria() + ", definitions " + oc);
                }
                lemmas(failures, where, oc, o.sc(false), o.tso(false));
                partialStoreOrders(failures, where, h, o, oc);
                int k = timed ? 1 : 0;
                if (oSc) {
                    sc[k]++;
                } else if (oTso) {
                    tsoOnly[k]++;
                } else {
                    neither[k]++;
                }
                if ("search".equals(r.sc().stage()) || "search".equals(r.tso().stage())) {
                    searched[k]++;
                }
                ccmButNotSc += oc.get(Criterion.CCM) && !o.sc(false) ? 1 : 0;
                wccmButNotTso += oc.get(Criterion.WCCM) && !o.tso(false) ? 1 : 0;
            } catch (RuntimeException e) {
                StringBuilder s = new StringBuilder(where + "threw " + e);
                for (StackTraceElement el : e.getStackTrace()) {
                    s.append("\n  at ").append(el);
                }
                failures.add(s.toString());
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n\n", failures));
        }
        System.out.printf("history differential: %d histories; untimed SC %d, TSO-only %d, neither %d; timed SC %d, "
                + "TSO-only %d, neither %d; times decide %d; searched %d/%d; CCM-not-SC %d, wCCM-not-TSO %d; "
                + "explanation cycles checked %d; restarts %d%n",
                n, sc[0], tsoOnly[0], neither[0], sc[1], tsoOnly[1], neither[1], timeMatters, searched[0], searched[1],
                ccmButNotSc, wccmButNotTso, explained[0], restarts);
        // the generator must exercise every verdict, or agreement proves little
        for (int k = 0; k < 2; k++) {
            assertTrue(sc[k] > n / 20 && tsoOnly[k] > n / 200 && neither[k] > n / 20,
                    "verdicts too one-sided (" + (k == 1 ? "timed" : "untimed") + ")");
            assertTrue(searched[k] > n / 20, "too few histories reached the search");
        }
        assertTrue(timeMatters > n / 100, "times never changed a verdict");
        assertTrue(explained[0] > n / 10, "too few explanation cycles checked: " + explained[0]);
        assertTrue(restarts > n / 10, "the restarting searches hardly restarted: " + restarts);
        assertTrue(ccmButNotSc > 0 && wccmButNotTso > 0, "the search never had to refute a history");
    }

    /**
     * Simulated runs with the times of the simulation are consistent with their model, times and all:
     * small ones by brute force too, and larger ones (where only the checker can tell) with and without
     * the gradual stages, so that the time pruning never loses a witness.
     */
    @Test
    void simulatedRunsAreConsistentWithTheirOwnTimes() {
        Random rnd = new Random(seed() + 1);
        int n = Math.max(100, cases() / 4);
        for (int i = 0; i < n; i++) {
            RandomHistories.Kind kind = i % 2 == 0 ? RandomHistories.Kind.SC : RandomHistories.Kind.TSO;
            boolean big = i % 5 == 4;
            RandomHistories.Program p = big ? RandomHistories.program(rnd, 4, 1 + rnd.nextInt(4), 60, 0.5)
                    : RandomHistories.shaped(rnd, 2 + rnd.nextInt(3), 2, 3);
            History h = RandomHistories.run(rnd, p, kind, true, 5 + rnd.nextInt(60), false);
            String where = "run " + i + " (" + kind + "):\n" + HistoryText.toString(h);
            for (boolean gradual : new boolean[] {true, false}) {
                HistoryResult r = HistoryChecker.check(h, HistoryChecker.Options.defaults().withGradual(gradual));
                Verdict v = kind == RandomHistories.Kind.SC ? r.sc() : r.tso();
                assertTrue(v.consistent(), where + v.model() + " (" + (gradual ? "gradual" : "plain") + "): "
                        + v.outcome() + " at " + v.stage());
            }
            if (!big) {
                HistoryOracle o = new HistoryOracle(h);
                assertTrue(kind == RandomHistories.Kind.SC ? o.sc(true) : o.tso(true), where + "brute force");
            }
        }
    }

    /** The edge-by-edge check of explanations accepts the checker's cycle and rejects altered ones. */
    @Test
    void theExplanationCheckRejectsWrongCycles() throws Exception {
        History h = PaperExamplesTest.load("sb");
        HistoryOracle o = new HistoryOracle(h);
        Verdict sc = HistoryChecker.check(h, HistoryChecker.Options.defaults()).sc();
        List<Edge> cycle = sc.explanation().cycle();
        List<String> failures = new ArrayList<>();
        explanation(failures, "as found", h, o, false, sc.explanation());
        assertTrue(failures.isEmpty(), failures.toString());
        List<List<Edge>> altered = new ArrayList<>();
        for (int i = 0; i < cycle.size(); i++) {
            for (EdgeKind k : EdgeKind.values()) {
                Edge e = cycle.get(i);
                if (k != e.kind() && !(k.label().equals(e.kind().label()))) {
                    List<Edge> c = new ArrayList<>(cycle);
                    c.set(i, new Edge(e.from(), e.to(), k, e.via()));
                    altered.add(c);
                }
            }
            List<Edge> reversed = new ArrayList<>(cycle);
            Edge e = cycle.get(i);
            reversed.set(i, new Edge(e.to(), e.from(), e.kind(), e.via()));
            altered.add(reversed);
        }
        List<Edge> open = new ArrayList<>(cycle.subList(1, cycle.size()));
        altered.add(open);
        for (List<Edge> c : altered) {
            List<String> f = new ArrayList<>();
            explanation(f, "altered", h, o, false, new Explanation("altered", c, List.of()));
            assertTrue(!f.isEmpty(), "an altered cycle passed: " + c);
        }
    }

    private static void check(List<String> failures, String what, boolean expected, Verdict v) {
        if (v.outcome() == Verdict.Outcome.UNKNOWN || v.consistent() != expected) {
            failures.add(what + ": checker " + v.outcome() + " (stage " + v.stage() + "), brute force "
                    + (expected ? "consistent" : "inconsistent"));
        }
        if (!v.consistent() && v.explanation() == null) {
            failures.add(what + ": inconsistent without an explanation");
        }
    }

    /**
     * Checks an explanation edge by edge against the history, independently of how it was found: every
     * cycle is closed and each edge is what its kind says (po within a thread and forward; po-loc also on
     * one variable; wr from the write the read returned; rw from a read to a write of its variable other
     * than the one it returned; ww between two writes of one variable; a time edge from an operation whose
     * relaxed commit time, computed by the oracle, is at or before the other's issue time). Under TSO the
     * program-order edges of a cycle are all ppo (no write before a read) or all po-loc. Returns the number
     * of cycles checked.
     */
    private static int explanation(List<String> failures, String what, History h, HistoryOracle o, boolean tso,
            Explanation e) {
        int checked = 0;
        if (e.cycle() != null) {
            checked++;
            List<Edge> c = e.cycle();
            if (c.isEmpty()) {
                failures.add(what + ": empty cycle");
                return checked;
            }
            long[] rc = null;
            boolean anyPo = false;
            boolean anyPoLoc = false;
            for (int i = 0; i < c.size(); i++) {
                Edge ed = c.get(i);
                Edge next = c.get((i + 1) % c.size());
                String bad = null;
                if (ed.to() != next.from()) {
                    bad = "not a closed path";
                } else if (ed.from() < 0 || ed.from() >= h.size() || ed.to() < 0 || ed.to() >= h.size()) {
                    bad = "not an operation";
                } else {
                    Op a = h.op(ed.from());
                    Op b = h.op(ed.to());
                    switch (ed.kind()) {
                        case PO, PO_LOC -> {
                            if (a.thread() != b.thread() || a.index() >= b.index()) {
                                bad = "not program order";
                            } else if (ed.kind() == EdgeKind.PO_LOC && a.var() != b.var()) {
                                bad = "po-loc across variables";
                            } else if (tso && ed.kind() == EdgeKind.PO && a.write() && b.read()) {
                                bad = "a write-read pair is not in ppo";
                            }
                            anyPo |= ed.kind() == EdgeKind.PO;
                            anyPoLoc |= ed.kind() == EdgeKind.PO_LOC;
                        }
                        case WR -> {
                            if (!b.read() || h.writer(ed.to()) != ed.from()) {
                                bad = "not the write the read returned";
                            }
                        }
                        case RW -> {
                            if (!a.read() || !b.write() || a.var() != b.var() || h.writer(ed.from()) == ed.to()
                                    || ed.via() != h.writer(ed.from())) {
                                bad = "not a read before another write of its variable";
                            }
                        }
                        case WW, WW_FORCED, WW_TIME -> {
                            if (!a.write() || !b.write() || a.var() != b.var() || ed.from() == ed.to()) {
                                bad = "not two writes of one variable";
                            }
                        }
                        case RT -> {
                            if (!h.timed()) {
                                bad = "a time edge in an untimed history";
                            } else {
                                rc = rc != null ? rc : o.relaxedCommit(tso);
                                if (rc[ed.from()] > b.issue()) {
                                    bad = "relaxed commit time " + rc[ed.from()] + " after issue " + b.issue();
                                }
                            }
                        }
                        default -> bad = "unknown kind";
                    }
                }
                if (bad != null) {
                    failures.add(what + ": edge " + i + " " + ed + ": " + bad + "; cycle " + c);
                    return checked;
                }
            }
            if (tso && anyPo && anyPoLoc) {
                failures.add(what + ": a cycle mixing ppo and po-loc edges: " + c);
            }
        }
        for (Explanation sub : e.cases()) {
            checked += explanation(failures, what + " (case)", h, o, tso, sub);
        }
        return checked;
    }

    private static void lemmas(List<String> failures, String where, Map<Criterion, Boolean> c, boolean sc,
            boolean tso) {
        if (sc && !c.get(Criterion.CCM)) {
            failures.add(where + "SC but not CCM (Lemma 2)");
        }
        if (c.get(Criterion.CCM) && !(c.get(Criterion.CC) && c.get(Criterion.CCV) && c.get(Criterion.CM))) {
            failures.add(where + "CCM but not CC, CCv and CM (Lemma 1): " + c);
        }
        if (tso && !c.get(Criterion.WCCM)) {
            failures.add(where + "TSO but not wCCM (Lemma 3)");
        }
        if (sc && !tso) {
            failures.add(where + "SC but not TSO");
        }
        if ((c.get(Criterion.CCV) || c.get(Criterion.CM)) && !c.get(Criterion.CC)) {
            failures.add(where + "CCv or CM without CC");
        }
    }

    private static void partialStoreOrders(List<String> failures, String where, History h, HistoryOracle o,
            Map<Criterion, Boolean> c) {
        Structure st = new Structure(h);
        if (c.get(Criterion.CCM)) {
            Causality ca = new Causality(st);
            long[] pww = o.pww();
            compare(failures, where + "pww", h, pww, ca::pwwOrders);
        }
        if (c.get(Criterion.WCCM)) {
            WeakCausality wc = new WeakCausality(st);
            long[] wpww = o.wpww();
            compare(failures, where + "wpww", h, wpww, wc::wpwwOrders);
        }
    }

    private static void compare(List<String> failures, String what, History h, long[] rel,
            java.util.function.BiPredicate<Integer, Integer> checker) {
        for (int a = 0; a < h.size(); a++) {
            for (int b = 0; b < h.size(); b++) {
                if (a == b || !h.op(a).write() || !h.op(b).write() || h.op(a).var() != h.op(b).var()) {
                    continue;
                }
                boolean expected = HistoryOracle.has(rel, a, b);
                if (checker.test(a, b) != expected) {
                    failures.add(what + ": " + h.name(a) + " before " + h.name(b) + ": checker " + !expected
                            + ", definition " + expected);
                    return;
                }
            }
        }
    }
}
