package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.report.CheckResult;
import dev.mmcheck.checker.report.Violation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The monitors checking every pending store (docs/monitors.md, "Every pending store") against the
 * brute force, one SC interleaving at a time. On every interleaving of many random programs:
 * <ul>
 *   <li>each report is genuine for that very interleaving: some TSO (PSO) run that issues the
 *       operations in the interleaving's order orders the reported access before the reported store
 *       in conflict order and outputs a trace that is not SC ({@link OperationalOracle#findNonSc(Program,
 *       OperationalOracle.Model, int[], int, int)});</li>
 *   <li>wherever the paper's monitor (last store only) reports, the extended one reports the same
 *       (store, access) pairs, and more.</li>
 * </ul>
 * Both the papers' operations and Java's are generated; programs are biased towards a thread storing
 * twice to one address, the case the extension is for.
 */
class PendingStoresDifferentialTest {

    private static final int INTERLEAVINGS_PER_PROGRAM = 400;

    private record Pair(int store, int access) {
    }

    private int checkedReports;
    private int reportsOnlyExtended;
    private int interleavingsOnlyExtended;
    private long interleavings;

    @Test
    void everyReportIsAGenuineExecutionOfItsInterleaving() {
        Random rnd = new Random(DifferentialSupport.seed() + 7);
        int programs = Math.max(200, DifferentialSupport.programs() / 4);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < programs && failures.size() < 5; i++) {
            boolean java = i % 2 == 1;
            Program p = biased(rnd, java ? Program.Ops.JAVA : Program.Ops.PAPER);
            MonitorConfig config = java ? MonitorConfig.defaults() : MonitorConfig.paper();
            runProgram(i, p, config, java, failures);
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("every pending store: %d programs, %d interleavings, %d reports checked against the "
                + "brute force, %d reports on %d interleavings that the paper's monitor does not make%n",
                programs, interleavings, checkedReports, reportsOnlyExtended, interleavingsOnlyExtended);
        assertTrue(checkedReports > 500, "too few reports to say anything");
        assertTrue(interleavingsOnlyExtended > 0, "the extension never reported more than the paper");
    }

    /** A random program, with a second store to the address of some thread's store now and then. */
    private static Program biased(Random rnd, Program.Ops ops) {
        Program p = Program.random(rnd, ops);
        List<List<Program.Op>> threads = new ArrayList<>();
        for (List<Program.Op> t : p.threads()) {
            List<Program.Op> copy = new ArrayList<>(t);
            if (copy.size() >= 2 && copy.size() < 5 && rnd.nextBoolean()) {
                for (int k = 0; k < copy.size(); k++) {
                    EventKind kind = copy.get(k).kind();
                    if (kind.writes() && kind != EventKind.INTERLOCKED) {
                        copy.add(new Program.Op(EventKind.STORE, copy.get(k).address()));
                        break;
                    }
                }
            }
            threads.add(copy);
        }
        return new Program(threads, p.addresses());
    }

    private void runProgram(int index, Program p, MonitorConfig config, boolean java, List<String> failures) {
        int n = p.threads().size();
        Symbols symbols = new Symbols();
        for (int t = 0; t < n; t++) {
            symbols.thread("T" + t);
        }
        for (int a = 0; a < p.addresses(); a++) {
            symbols.address("a" + a);
        }
        int[] base = new int[n + 1];
        int[] siteOf = new int[p.size()];
        for (int t = 0, g = 0; t < n; t++) {
            base[t] = g;
            for (int k = 0; k < p.threads().get(t).size(); k++, g++) {
                siteOf[g] = symbols.site(Site.at("T" + t, k + 1));
            }
        }
        base[n] = p.size();
        List<int[]> orders = new ArrayList<>();
        enumerate(p, new int[n], new int[p.size()], 0, orders);
        for (int[] order : orders) {
            interleavings++;
            CheckResult extended = run(p, symbols, siteOf, order, config);
            CheckResult paper = run(p, symbols, siteOf, order, config.withEveryPendingStore(false));
            for (Analysis a : List.of(Analysis.TSO, Analysis.PSO)) {
                OperationalOracle.Model model = a == Analysis.TSO ? OperationalOracle.Model.TSO
                        : java ? OperationalOracle.Model.PSO_JAVA : OperationalOracle.Model.PSO_PAPER;
                Set<Pair> ext = pairs(extended.violationsOf(a), base);
                Set<Pair> old = pairs(paper.violationsOf(a), base);
                if (!ext.containsAll(old)) {
                    failures.add("program " + index + ", interleaving " + Arrays.toString(order) + ": " + a
                            + " paper monitor reports " + old + " but the extended one only " + ext + "\n" + p);
                }
                if (!ext.isEmpty() && old.isEmpty()) {
                    interleavingsOnlyExtended++;
                }
                for (Pair r : ext) {
                    checkedReports++;
                    if (!old.contains(r)) {
                        reportsOnlyExtended++;
                    }
                    if (OperationalOracle.findNonSc(p, model, order, r.access(), r.store()) == null) {
                        failures.add("program " + index + ", interleaving " + Arrays.toString(order) + ": UNSOUND "
                                + a + " report of store " + r.store() + " before access " + r.access()
                                + ": no " + model + " run in that issue order has it\n" + p);
                    }
                }
            }
        }
    }

    private static Set<Pair> pairs(List<Violation> violations, int[] base) {
        Set<Pair> out = new HashSet<>();
        for (Violation v : violations) {
            out.add(new Pair(ref(v.store().site(), base), ref(v.access().site(), base)));
        }
        return out;
    }

    private static int ref(Site site, int[] base) {
        return base[Integer.parseInt(site.file().substring(1))] + site.line() - 1;
    }

    private static CheckResult run(Program p, Symbols symbols, int[] siteOf, int[] order, MonitorConfig config) {
        Checker checker = new Checker(symbols, new Checker.Config(
                EnumSet.of(Analysis.TSO, Analysis.PSO), config, 64, 16));
        int[] pc = new int[p.threads().size()];
        int[] base = new int[p.threads().size()];
        for (int t = 1; t < base.length; t++) {
            base[t] = base[t - 1] + p.threads().get(t - 1).size();
        }
        for (int t : order) {
            Program.Op op = p.threads().get(t).get(pc[t]);
            checker.event(op.kind().code(), t, op.address(), siteOf[base[t] + pc[t]]);
            pc[t]++;
        }
        return checker.result();
    }

    /** Every interleaving, up to {@link #INTERLEAVINGS_PER_PROGRAM} of them. */
    private static void enumerate(Program p, int[] pc, int[] order, int depth, List<int[]> out) {
        if (out.size() >= INTERLEAVINGS_PER_PROGRAM) {
            return;
        }
        if (depth == order.length) {
            out.add(order.clone());
            return;
        }
        for (int t = 0; t < pc.length; t++) {
            if (pc[t] < p.threads().get(t).size()) {
                order[depth] = t;
                pc[t]++;
                enumerate(p, pc, order, depth + 1, out);
                pc[t]--;
            }
        }
    }
}
