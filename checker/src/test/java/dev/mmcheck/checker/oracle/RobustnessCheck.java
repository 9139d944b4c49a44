package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.jmm.RobustnessMonitor;
import dev.mmcheck.checker.jmm.RobustnessViolation;
import dev.mmcheck.checker.jmm.VolatileRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One program of the differential test: the {@link RaOracle}'s verdict, and the {@link RobustnessMonitor}
 * on every SC interleaving, each step checked against the oracle's alternatives for that step. The
 * interleavings are walked as a tree (a copy of the monitor per branch), so each distinct prefix is
 * checked once; the oracle's answer is memoized by the prefix's execution graph.
 *
 * <p>Two monitors run side by side: one given the values (a compare-and-set checked exactly), one without
 * (a compare-and-set given the write check).
 */
public final class RobustnessCheck {

    /**
     * What one program gave; {@code failures} is empty when the monitor agreed with the oracle everywhere.
     *
     * @param nonRobust     the oracle found a consistent graph that is not SC
     * @param reported      the monitor with values reported on some interleaving
     * @param blindReported the monitor without values did
     * @param nodes         prefixes checked (nodes of the interleaving tree below the root)
     * @param distinct      distinct (prefix graph, thread) pairs asked of the oracle
     * @param reports       reports checked (with values)
     * @param reportedBy    how many reports (with values) each kind of operation got: "load acquire stale-read"
     * @param missedSteps   prefixes at which the oracle has an alternative and the monitor does not report (only
     *                      when not checked exactly: they are failures otherwise)
     */
    public record Result(boolean nonRobust, boolean reported, boolean blindReported, long nodes, long distinct,
            long reports, Map<String, Long> reportedBy, long missedSteps, List<String> failures) {
    }

    private final JmmProgram p;
    private final RaOracle oracle;
    private final int maxFailures;
    private final boolean exactly;
    private final VolatileRule rule;
    private long missedSteps;
    private final int[] base;
    private final Map<String, List<Long>> memo = new HashMap<>();
    private final List<String> failures = new ArrayList<>();
    private final List<RobustnessViolation> exact = new ArrayList<>();
    private final List<RobustnessViolation> blind = new ArrayList<>();
    private final int[] order;
    private final boolean withCas;   // only a compare-and-set is checked differently without values
    private boolean reported;
    private boolean blindReported;
    private long nodes;
    private long reports;
    private final Map<String, Long> reportedBy = new java.util.TreeMap<>();

    private RobustnessCheck(JmmProgram p, RaOracle.Volatile v, VolatileRule rule, boolean exact, int maxFailures) {
        this.p = p;
        this.rule = rule;
        this.oracle = new RaOracle(p, v);
        this.exactly = exact;
        this.maxFailures = maxFailures;
        this.base = new int[p.threads().size()];
        for (int t = 0; t < base.length; t++) {
            base[t] = p.base(t);
        }
        this.order = new int[p.size()];
        boolean cas = false;
        for (int g = 0; g < p.size(); g++) {
            cas |= p.op(g).kind() == JmmProgram.Kind.CAS;
        }
        this.withCas = cas;
    }

    /** Checks {@code p}; at most about {@code maxFailures} failures are described. */
    public static Result run(JmmProgram p, int maxFailures) {
        return run(p, RaOracle.Volatile.LEADING_SC_FENCE, VolatileRule.LEADING_FENCE, true, maxFailures);
    }

    /**
     * Checks the monitor reading volatile as {@code rule} on {@code p} against the oracle reading it as
     * {@code v}: exactly ({@code exact}), or only that every report is genuine, counting the steps and the
     * program the monitor misses.
     */
    public static Result run(JmmProgram p, RaOracle.Volatile v, VolatileRule rule, boolean exact, int maxFailures) {
        RobustnessCheck c = new RobustnessCheck(p, v, rule, exact, maxFailures);
        RaOracle.Graph witness = c.oracle.nonRobust();
        c.walk(new RobustnessMonitor(c.exact::add, rule), new RobustnessMonitor(c.blind::add, rule), new long[p.locations()],
                new long[p.locations()], c.oracle.empty(), new int[c.base.length], 0);
        if (c.failures.isEmpty() && (c.exactly ? c.reported != (witness != null) : c.reported && witness == null)) {
            c.failures.add(c.reported ? "the monitor reports on some interleaving, but the oracle finds every "
                    + "consistent graph SC" : "the monitor reports on no interleaving, but the oracle finds this "
                    + "consistent graph that is not SC:\n" + witness);
        }
        return new Result(witness != null, c.reported, c.withCas ? c.blindReported : c.reported, c.nodes, c.memo.size(), c.reports,
                c.reportedBy, c.missedSteps, c.failures);
    }

    private void walk(RobustnessMonitor m, RobustnessMonitor b, long[] memA, long[] memB, RaOracle.Graph g, int[] pc,
            int depth) {
        for (int t = 0; t < pc.length && failures.size() < maxFailures; t++) {
            if (pc[t] == p.threads().get(t).size()) {
                continue;
            }
            int op = base[t] + pc[t];
            JmmProgram.Op o = p.op(op);
            if (o.kind() == JmmProgram.Kind.LOCK && memA[o.loc()] != 0) {
                continue; // it would wait for the lock
            }
            nodes++;
            order[depth] = t;
            RobustnessMonitor m2 = m.copy(exact::add);
            RobustnessMonitor b2 = withCas ? b.copy(blind::add) : null;
            long[] memA2 = memA.clone();
            long[] memB2 = memB.clone();
            exact.clear();
            blind.clear();
            JmmRuns.feed(m2, o, t, op, memA2, true);
            if (withCas) {
                JmmRuns.feed(b2, o, t, op, memB2, false);
            }
            int thread = t;
            List<Long> alts = memo.computeIfAbsent(g.key() + "/" + t, k -> {
                if (!oracle.scAndConsistent(g)) {
                    failures.add("the SC run's graph is not consistent and SC:\n" + g);
                }
                return oracle.alternatives(g, thread);
            });
            check(alts, t, op, o, depth);
            pc[t]++;
            walk(m2, b2, memA2, memB2, oracle.scStep(g, t), pc, depth + 1);
            pc[t]--;
        }
    }

    private void check(List<Long> alts, int t, int op, JmmProgram.Op o, int depth) {
        StringBuilder run = new StringBuilder();
        for (int i = 0; i <= depth; i++) {
            run.append(i == 0 ? "" : ",").append(order[i]);
        }
        String where = "interleaving prefix [" + run + "] (op " + op + ": T" + t + " " + o + ")";
        if (exact.size() > 1 || blind.size() > 1) {
            failures.add(where + ": more than one report for one event");
        }
        if (!exactly && exact.isEmpty() && !alts.isEmpty()) {
            missedSteps++;
        } else if (exact.isEmpty() != alts.isEmpty()) {
            failures.add(where + ": the monitor " + (exact.isEmpty() ? "does not report" : "reports " + exact.get(0))
                    + " but the oracle's alternatives are " + alts);
        }
        for (RobustnessViolation v : exact) {
            reports++;
            reported = true;
            reportedBy.merge(o.kind().name().toLowerCase(java.util.Locale.ROOT) + " "
                    + o.mode().name().toLowerCase(java.util.Locale.ROOT) + " " + v.kind(), 1L, Long::sum);
            check(v, alts, t, op, o, where, "exact");
        }
        for (RobustnessViolation v : blind) {
            blindReported = true;
            check(v, alts, t, op, o, where, "value-blind");
        }
    }

    private void check(RobustnessViolation v, List<Long> alts, int t, int op, JmmProgram.Op o, String where,
            String which) {
        if (v.event() != op || v.thread() != t || v.location() != o.loc()) {
            failures.add(where + ": the " + which + " report names another event: " + v);
        }
        if (!alts.contains(v.visibleWrite())) {
            failures.add(where + ": the " + which + " report " + v + " is not genuine: the oracle's alternatives are "
                    + alts);
        }
        if (v.scStamp() <= v.visibleStamp()) {
            failures.add(where + ": the " + which + " report's SC-known write is not newer than its visible one: " + v);
        }
    }
}
