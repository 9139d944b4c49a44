package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.fix.Change;
import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.fix.FixSearch;
import dev.mmcheck.checker.oracle.SpecialCasesDifferentialTest.Events;
import dev.mmcheck.checker.oracle.SpecialCasesDifferentialTest.Op;
import dev.mmcheck.checker.oracle.SpecialCasesDifferentialTest.Shared;
import dev.mmcheck.checker.oracle.SpecialCasesDifferentialTest.Word;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The oracle of {@code mmcheck fix} for the access-mode model (issue 35, docs/fix.md): on random programs in Java's
 * vocabulary ({@link SpecialCasesDifferentialTest#random}: loads and stores in every mode, compare-and-sets, fences,
 * lock sections), for a random SC interleaving the jmm analysis reports on, the run is fixed by {@link FixSearch}
 * under jmm alone and its changes are made to the program itself: a fence becomes a new operation right before or
 * after the operation at the change's site, issued with it; a load or store gets the stronger mode; a field made
 * volatile makes every access to that location volatile. Then:
 * <ul>
 *   <li>the search's proof holds ({@link FixResult#proven()});</li>
 *   <li>the production analysis on the changed program and interleaving reports nothing;</li>
 *   <li>the brute-force model ({@link RaOracle}, volatile read with its leading SC fence, the reading under which
 *       the monitor is exactly the model: RobustnessDifferentialTest) finds, at no step of the changed run, another
 *       read source or write placement that makes a consistent graph that is not SC: the changed run is robust at
 *       every step by the model's own definitions, not only by the monitor's views;</li>
 *   <li>each change is needed: with it left out (the others made) the brute-force model finds such a step.</li>
 * </ul>
 * The brute-force model is checked only on changed programs with no volatile access (nor a compare-and-set, volatile
 * in this vocabulary): the production analysis reads volatile by the JLS's synchronization order (a volatile write
 * synchronizes with every later volatile read of its location; docs/jmm-model.md, "Volatile"), which neither of the
 * brute force's readings is (C11's seq_cst lets such a read miss an earlier volatile write's data; the leading fence
 * lets a volatile store be placed before another thread's). Tried with them included (2026-11-29, 1,200 programs), 33
 * of 216 fixed runs (C11's reading) and 23 (the leading fence) kept such a step; each of the six read was at a
 * volatile access, or behind a volatile write and a later volatile read of its location, which the synchronization
 * order orders. Fixes whose changed program has a volatile access are checked by the production analysis (second
 * point) and the search's proof only, and counted. Half the programs are drawn without volatile accesses.
 *
 * <p>The brute force catches what the production analysis and the search's replay share: with the analysis reading a
 * release store as volatile (JmmAnalyzer, 2026-11-29, then reverted), the search proves a full fence in one thread
 * enough for an SB shape whose other side is a release store, the production analysis agrees, and the brute force
 * finds the changed run non-SC (program 32, {@code T0: release-store x; load-acquire x; opaque-store y | T1: store y;
 * store x}).
 */
class JmmFixDifferentialTest {

    private int fixed;
    private int multi;
    private int readingsDiffer;
    private int needed;
    private final int[] kinds = new int[Change.Kind.values().length];

    @Test
    void everyJmmFixIsRobustByTheModelAndEachChangeIsNeeded() {
        Random rnd = new Random(DifferentialSupport.seed() + 3235);
        int programs = Integer.getInteger("mmcheck.jmmfix.programs", 1200);
        List<String> failures = new ArrayList<>();
        int clean = 0;
        for (int i = 0; i < programs && failures.size() < 5; i++) {
            Shared s = SpecialCasesDifferentialTest.random(rnd, 150);
            while (i % 2 == 0 && volatileTouched(s)) {
                s = SpecialCasesDifferentialTest.random(rnd, 150); // half without volatile: the brute force's half
            }
            Events ev = SpecialCasesDifferentialTest.read(s);
            int[][] pick = {null};
            int[] seen = {0};
            JmmRuns.interleavings(s.toJmm(), order -> {
                if (reports(ev, order)) {
                    seen[0]++;
                    if (rnd.nextInt(seen[0]) == 0) {
                        pick[0] = order.clone();
                    }
                }
            });
            if (pick[0] == null) {
                clean++;
                continue;
            }
            check(i, s, ev, pick[0], failures);
        }
        System.out.printf("jmm fix: %d programs, %d runs fixed (%d needing 2+ changes), %d programs clean on every "
                + "interleaving; %d changes each shown needed by the model; %d fixed runs with a volatile access (not given to the brute force); "
                + "changes by kind %s%n", programs, fixed, multi, clean, needed, readingsDiffer, Arrays.toString(kinds));
        if (!failures.isEmpty()) {
            fail(String.join("\n\n", failures));
        }
        assertTrue(fixed > programs / 8, "too few runs with findings: " + fixed);
        assertTrue(multi > fixed / 5, "too few fixes needed two changes: " + multi);
        assertTrue((fixed - readingsDiffer) * 4 > fixed, "too few fixes without volatile accesses for the brute force: "
                + (fixed - readingsDiffer) + " of " + fixed);
    }

    private void check(int index, Shared s, Events ev, int[] order, List<String> failures) {
        fixed++;
        EventBuffer run = new EventBuffer();
        int[] pc = new int[s.threads().size()];
        for (int t : order) {
            int g = ev.base()[t] + pc[t]++;
            run.event(ev.kind()[g], ev.thread()[g], ev.operand()[g], ev.site()[g]);
        }
        FixResult fix = FixSearch.search(run, ev.symbols(), EnumSet.of(Analysis.JMM), FixSearch.Config.defaults());
        String where = "program " + index + ", interleaving " + Arrays.toString(order) + ":\n" + s;
        if (!fix.proven()) {
            failures.add(where + "NOT PROVEN: " + String.join("\n", fix.lines()));
            return;
        }
        List<Change> changes = new ArrayList<>();
        for (FixResult.Planned p : fix.changes()) {
            changes.add(p.change());
            kinds[p.change().kind().ordinal()]++;
        }
        multi += changes.size() > 1 ? 1 : 0;
        Changed c = Changed.of(s, order, changes);
        if (reports(SpecialCasesDifferentialTest.read(c.program()), c.order())) {
            failures.add(where + "the analysis still reports on the changed program\n" + c.program()
                    + Arrays.toString(c.order()) + " changes " + changes);
            return;
        }
        if (volatileTouched(c.program())) {
            // the brute force has no reading of volatile as the JLS's synchronization order (a volatile write
            // synchronizes with every later volatile read of its location), which the production analysis uses
            readingsDiffer++;
            return;
        }
        String step = nonRobustStep(c);
        if (step != null) {
            failures.add(where + "changes " + changes + " made; the model still has a non-SC step: " + step + "\n"
                    + c.program());
            return;
        }
        for (Change x : changes) {
            List<Change> without = new ArrayList<>(changes);
            without.remove(x);
            Changed w = Changed.of(s, order, without);
            if (nonRobustStep(w) == null && !reports(SpecialCasesDifferentialTest.read(w.program()), w.order())) {
                failures.add(where + "without " + x + " the changed run is robust too: " + changes);
                return;
            }
            needed++;
        }
    }

    /** Whether some access of {@code s} is volatile (a compare-and-set in this vocabulary is). */
    private static boolean volatileTouched(Shared s) {
        return s.threads().stream().flatMap(List::stream).anyMatch(op -> op.word() == Word.VOLATILE_LOAD
                || op.word() == Word.VOLATILE_STORE || op.word() == Word.CAS);
    }

    /** Whether the production jmm analysis reports on {@code order} of the program read as {@code ev}. */
    private static boolean reports(Events ev, int[] order) {
        Checker c = new Checker(ev.symbols(), Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.JMM))
                .withAutoSerializability(false));
        int[] pc = new int[ev.base().length];
        for (int t : order) {
            int g = ev.base()[t] + pc[t]++;
            c.event(ev.kind()[g], ev.thread()[g], ev.operand()[g], ev.site()[g]);
        }
        return !c.violations().isEmpty();
    }

    /** The first step of the changed run at which the brute-force model has a non-SC alternative, or null. */
    private static String nonRobustStep(Changed c) {
        RaOracle o = new RaOracle(c.program().toJmm());
        RaOracle.Graph g = o.empty();
        int[] pc = new int[c.program().threads().size()];
        for (int i = 0; i < c.order().length; i++) {
            int t = c.order()[i];
            Word w = c.program().threads().get(t).get(pc[t]++).word();
            List<Long> alt = o.alternatives(g, t);
            if (!alt.isEmpty()) {
                return "step " + i + " (thread " + t + ", " + w + ") may read or follow " + alt;
            }
            g = o.scStep(g, t);
            if (g == null) {
                return null; // a lock would block: not this run
            }
        }
        return null;
    }

    /** A program with changes made and the interleaving that issues its new fences with their neighbours. */
    record Changed(Shared program, int[] order) {

        /** {@code s} and {@code order} with {@code changes} made (sites {@code T<thread>:<index + 1>}). */
        static Changed of(Shared s, int[] order, List<Change> changes) {
            int n = s.threads().size();
            List<List<Op>> threads = new ArrayList<>();
            int[][] issued = new int[n][];
            int[] tail = new int[n]; // per thread: the fences after its last op, issued at the end
            for (int t = 0; t < n; t++) {
                List<Op> ops = s.threads().get(t);
                List<Op> out = new ArrayList<>();
                issued[t] = new int[ops.size()];
                int due = 0; // the fences after the previous op: issued with this one, as late as they run (Rewrite)
                for (int i = 0; i < ops.size(); i++) {
                    Op op = ops.get(i);
                    int start = out.size();
                    List<Op> after = new ArrayList<>();
                    Word w = op.word();
                    for (Change c : changes) {
                        boolean here = c.site().file().equals("T" + t) && c.site().line() == i + 1;
                        if (c.kind() == Change.Kind.VOLATILE_FIELD && op.loc() >= 0
                                && c.field().endsWith(JmmProgram.locationName(op.loc()))) {
                            w = volatileOf(w);
                        }
                        if (!here) {
                            continue;
                        }
                        switch (c.kind()) {
                            case FULL_FENCE_BEFORE -> out.add(new Op(Word.FULL_FENCE, -1));
                            case RELEASE_FENCE_BEFORE -> out.add(new Op(Word.STORE_STORE_FENCE, -1));
                            case ACQUIRE_FENCE_BEFORE -> out.add(new Op(Word.LOAD_FENCE, -1));
                            case FULL_FENCE_AFTER -> after.add(new Op(Word.FULL_FENCE, -1));
                            case ACQUIRE_FENCE_AFTER -> after.add(new Op(Word.LOAD_FENCE, -1));
                            case VOLATILE_STORE, VOLATILE_LOAD -> w = volatileOf(w);
                            case RELEASE_STORE -> w = w == Word.STORE || w == Word.OPAQUE_STORE ? Word.RELEASE_STORE : w;
                            case ACQUIRE_LOAD -> w = w == Word.LOAD || w == Word.OPAQUE_LOAD ? Word.ACQUIRE_LOAD : w;
                            default -> {
                            }
                        }
                    }
                    out.add(new Op(w, op.loc()));
                    issued[t][i] = due + out.size() - start;
                    out.addAll(after);
                    due = after.size();
                }
                tail[t] = due;
                threads.add(out);
            }
            List<Integer> next = new ArrayList<>();
            int[] pc = new int[n];
            for (int t : order) {
                for (int k = 0; k < issued[t][pc[t]]; k++) {
                    next.add(t);
                }
                pc[t]++;
            }
            for (int t = 0; t < n; t++) {
                for (int k = 0; k < tail[t]; k++) {
                    next.add(t);
                }
            }
            return new Changed(new Shared(threads, s.locations()), next.stream().mapToInt(Integer::intValue).toArray());
        }

        private static Word volatileOf(Word w) {
            return switch (w) {
                case LOAD, OPAQUE_LOAD, ACQUIRE_LOAD -> Word.VOLATILE_LOAD;
                case STORE, OPAQUE_STORE, RELEASE_STORE -> Word.VOLATILE_STORE;
                default -> w;
            };
        }
    }
}
