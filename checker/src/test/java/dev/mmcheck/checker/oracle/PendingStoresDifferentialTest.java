package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.result.CheckResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
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
        Interleavings.Named named = Interleavings.name(p);
        int[] base = named.base();
        List<int[]> orders = Interleavings.of(p, INTERLEAVINGS_PER_PROGRAM);
        boolean[] none = new boolean[p.size()];
        for (int[] order : orders) {
            interleavings++;
            CheckResult extended = Interleavings.check(p, named, order, config, none);
            CheckResult paper = Interleavings.check(p, named, order, config.withEveryPendingStore(false), none);
            for (Analysis a : List.of(Analysis.TSO, Analysis.PSO)) {
                OperationalOracle.Model model = a == Analysis.TSO ? OperationalOracle.Model.TSO
                        : java ? OperationalOracle.Model.PSO_JAVA : OperationalOracle.Model.PSO_PAPER;
                Set<Interleavings.Pair> ext = Interleavings.pairs(extended.violationsOf(a), base);
                Set<Interleavings.Pair> old = Interleavings.pairs(paper.violationsOf(a), base);
                if (!ext.containsAll(old)) {
                    failures.add("program " + index + ", interleaving " + Arrays.toString(order) + ": " + a
                            + " paper monitor reports " + old + " but the extended one only " + ext + "\n" + p);
                }
                if (!ext.isEmpty() && old.isEmpty()) {
                    interleavingsOnlyExtended++;
                }
                for (Interleavings.Pair r : ext) {
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
}
