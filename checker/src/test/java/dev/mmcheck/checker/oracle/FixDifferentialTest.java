package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.SiteModes;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.fix.Change;
import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.fix.FixSearch;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.result.Violation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The oracle of {@code mmcheck fix} (issue 35, docs/fix.md): on random programs with Java's operations, for a random
 * SC interleaving the monitor reports on (TSO, and separately PSO), the run is fixed by {@link FixSearch} and its
 * changes are made to the program itself, not to the recorded run: a fence becomes a new operation right before or
 * after the operation at the change's site, issued with the thread's next operation (as late as it can run, as the replay
 * places it); a store's kind is changed (a volatile
 * store, a release store); a field made volatile makes every store to that address a volatile store. Then:
 * <ul>
 *   <li>the search's proof holds ({@link FixResult#proven()});</li>
 *   <li>the production monitor on the changed program and interleaving reports nothing (the replay the proof rests
 *       on, {@code Rewrite}, is the changed program's run);</li>
 *   <li>the brute force finds no run of the changed program that issues its operations in that interleaving's order
 *       and outputs a trace that is not SC ({@link OperationalOracle#findNonSc(Program, OperationalOracle.Model,
 *       int[], int, int)} with no access and store asked for): the per-interleaving claim of the differential tests
 *       (PendingStoresDifferentialTest) is "a report is such a run"; this one is the converse for a fixed run, "no
 *       report, and no such run";</li>
 *   <li>the price {@link FixResult#cost()} is what the program's operations give: each runs once; a fence costs its
 *       edit plus its weight, a mode its edit plus its weight (a plain store's mode 2 for the edit: a VarHandle to
 *       declare), a field made volatile 0.5 plus 1.0 per store and 0.1 per load of the address;</li>
 *   <li>on programs of at most {@value #EXHAUSTIVE_OPS} operations, exhaustively: no set of changes from the
 *       universe of all applicable ones (a full fence right before and right after every access, a release fence
 *       before every store, a release and a volatile store at every store, every address made volatile) that is
 *       strictly cheaper makes the same run clean (the production monitor on the changed program and interleaving
 *       reports nothing). Load modes and acquire fences are left out of the universe: TSO and PSO order loads
 *       anyway, they can only add cost;</li>
 *   <li>under TSO, PSO, Sober and jmm at once, on a random interleaving: the proof holds (jmm's fixes change load
 *       modes, which these programs cannot show, so no brute force there).</li>
 * </ul>
 * The brute force's claim is the established per-report one (PendingStoresDifferentialTest): a report on an
 * interleaving is a run in its issue order that orders the access before the store and is not SC. It is checked on
 * what proves each change needed: with the change left out (the others made) the monitor reports on the changed
 * program, and each such report is such a run. "No non-SC run in this issue order" is NOT claimed for the changed
 * program: the monitors are complete per program, not per interleaving (docs/monitors.md, Fig. 8), and a fix is for
 * the run; when the changed program has such a run, the monitor must report it on some interleaving (counted).
 *
 * <p>What the oracle found (both fixed in {@code Candidates}): a plain field's store was only offered as the field
 * made volatile, never as that one store made a volatile store, dearer when the run accesses the field elsewhere;
 * and under PSO a release store at a later store of the thread (one the violation's path does not go through, but
 * that another thread read before the access) was never offered, though it is the cheapest fix of such runs.
 */
class FixDifferentialTest {

    /** Programs at most this long are checked exhaustively for a cheaper fix. */
    static final int EXHAUSTIVE_OPS = 6;
    private static final int TRIES = 24;

    private int runsFixed;
    private int cleanRuns;
    private int multiChange;
    private int exhaustive;
    private int broughtBack;
    private int allModelRuns;
    private int allModelMulti;
    private int nonScElsewhere;
    private long subsetsTried;
    private final int[] kinds = new int[Change.Kind.values().length];

    @Test
    void everyFixIsCleanOnTheChangedProgramProvenAndNoCheaperSetIs() {
        Random rnd = new Random(DifferentialSupport.seed() + 35);
        int programs = DifferentialSupport.programs();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < programs && failures.size() < 5; i++) {
            Program p = biased(rnd);
            for (Analysis a : List.of(Analysis.TSO, Analysis.PSO)) {
                int[] order = reportedInterleaving(p, a, rnd);
                if (order == null) {
                    cleanRuns++;
                    continue;
                }
                check(i, p, a, order, failures);
            }
            allModels(i, p, randomOrder(p, rnd), failures);
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("fix: %d programs, %d runs fixed (%d needing 2+ changes), %d runs clean; %d reports "
                + "brought back by leaving a change out, each a genuine run; %d changed programs non-SC in the run's "
                + "issue order, each reported on another interleaving; %d runs checked exhaustively over %d "
                + "cheaper change sets; changes chosen by kind %s; under tso+pso+sober+jmm %d runs fixed and proven "
                + "(%d needing 2+ changes)%n", programs, runsFixed, multiChange, cleanRuns, broughtBack,
                nonScElsewhere, exhaustive, subsetsTried, kindCounts(), allModelRuns, allModelMulti);
        // the generator must exercise both outcomes, and fixes of more than one change
        assertTrue(runsFixed > programs / 10, "too few runs with findings: " + runsFixed);
        assertTrue(cleanRuns > programs / 10, "too few clean runs: " + cleanRuns);
        assertTrue(multiChange > 0 && allModelMulti > programs / 50, "too few fixes needed two changes");
        assertTrue(exhaustive > programs / 25, "too few exhaustive checks: " + exhaustive);
        assertTrue(kinds[Change.Kind.RELEASE_STORE.ordinal()] > 0 && kinds[Change.Kind.VOLATILE_FIELD.ordinal()] > 0
                && kinds[Change.Kind.VOLATILE_STORE.ordinal()] > 0,
                "the fixes never used some kind of change: " + kindCounts());
    }

    private void check(int index, Program p, Analysis a, int[] order, List<String> failures) {
        runsFixed++;
        // every other program's last thread stores as a call whose mode a fix changes in place (setOpaque): a mode
        // change there costs 0.5 for the edit, elsewhere 2 (a plain store, a VarHandle to declare)
        int opaqueThread = index % 2 == 1 ? p.threads().size() - 1 : -1;
        Interleavings.Named named = named(p, opaqueThread);
        EventBuffer run = new EventBuffer();
        int[] pc = new int[p.threads().size()];
        for (int t : order) {
            int ref = named.base()[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            run.event(op.kind().code(), t, op.address(), named.siteOf()[ref]);
        }
        FixResult fix = FixSearch.search(run, named.symbols(), EnumSet.of(a), FixSearch.Config.defaults());
        String where = "program " + index + ", " + a + ", interleaving " + Arrays.toString(order) + ":\n" + p;
        List<Change> changes = new ArrayList<>();
        for (FixResult.Planned planned : fix.changes()) {
            changes.add(planned.change());
            kinds[planned.change().kind().ordinal()]++;
        }
        multiChange += changes.size() > 1 ? 1 : 0;
        if (!fix.proven()) {
            failures.add(where + "NOT PROVEN: " + String.join("\n", fix.lines()));
            return;
        }
        Universe u = new Universe(p, opaqueThread);
        double price = 0;
        for (Change c : changes) {
            price += u.cost(c);
        }
        if (Math.abs(price - fix.cost()) > 1e-9) {
            failures.add(where + "priced " + fix.cost() + " but the program's operations give " + price + ": "
                    + changes);
        }
        Applied applied = Applied.of(p, order, changes);
        if (reports(applied.program(), applied.order(), a)) {
            failures.add(where + "the monitor still reports on the changed program\n" + applied.program()
                    + Arrays.toString(applied.order()) + " changes " + changes);
            return;
        }
        // each change needed: without it (the others made) the monitor reports, and each report is a genuine run
        for (Change c : changes) {
            List<Change> without = new ArrayList<>(changes);
            without.remove(c);
            Applied w = Applied.of(p, order, without);
            Interleavings.Named wn = Interleavings.name(w.program());
            Set<Interleavings.Pair> back = Interleavings.pairs(violations(w.program(), w.order(), a), wn.base());
            if (back.isEmpty()) {
                failures.add(where + "without " + c + " the changed program's run is clean too: " + changes);
            }
            for (Interleavings.Pair r : back) {
                broughtBack++;
                if (OperationalOracle.findNonSc(w.program(), model(a), w.order(), r.access(), r.store()) == null) {
                    failures.add(where + "without " + c + " the monitor reports store " + r.store() + " before "
                            + "access " + r.access() + " but no " + a + " run in that issue order has it\n"
                            + w.program());
                }
            }
        }
        // the changed program may still have a non-SC run in this issue order that the monitor sees on another
        // interleaving only (it is complete per program, not per interleaving: docs/monitors.md, Fig. 8)
        if (OperationalOracle.findNonSc(applied.program(), model(a), applied.order(), -1, -1) != null) {
            nonScElsewhere++;
            if (!MonitorRuns.run(applied.program(), EnumSet.of(a), MonitorConfig.defaults()).reported(a)) {
                failures.add(where + "the changed program has a non-SC " + a + " run in that issue order that the "
                        + "monitor reports on no interleaving\n" + applied.program());
            }
        }
        if (p.size() <= EXHAUSTIVE_OPS) {
            exhaustive++;
            List<Change> cheaper = u.cheaperClean(p, order, a, fix.cost());
            subsetsTried += u.tried();
            if (cheaper != null) {
                double c = 0;
                for (Change x : cheaper) {
                    c += u.cost(x);
                }
                failures.add(where + "GAP: " + cheaper + " (cost " + c + ") makes the run clean, cheaper than "
                        + changes + " (cost " + fix.cost() + ")");
            }
        }
    }

    /**
     * A random program: a quarter of them with Java's operations as {@link Program#random} generates them, the rest
     * 2-3 threads of 2-4 operations on 2-3 addresses, mostly stores (a fifth of them release stores, a twentieth
     * volatile) and loads: Java's mix has so many fences and volatile stores that few runs have findings, and fewer
     * need more than one change.
     */
    static Program biased(Random rnd) {
        if (rnd.nextInt(4) == 0) {
            return Program.random(rnd, Program.Ops.JAVA);
        }
        int addresses = 2 + rnd.nextInt(2);
        List<List<Program.Op>> threads = new ArrayList<>();
        for (int t = 0, n = 2 + rnd.nextInt(2); t < n; t++) {
            List<Program.Op> ops = new ArrayList<>();
            for (int i = 0, len = 2 + rnd.nextInt(3); i < len; i++) {
                int r = rnd.nextInt(100);
                int a = rnd.nextInt(addresses);
                EventKind k = r < 36 ? EventKind.STORE : r < 46 ? EventKind.RELEASE_STORE
                        : r < 49 ? EventKind.VOLATILE_STORE : r < 94 ? EventKind.LOAD
                        : r < 97 ? EventKind.INTERLOCKED : EventKind.STORE_STORE_FENCE;
                ops.add(new Program.Op(k, k.operand() == EventKind.Operand.ADDRESS ? a : -1));
            }
            threads.add(ops);
        }
        return new Program(threads, addresses);
    }

    /**
     * Under TSO, PSO, Sober and jmm at once, on any interleaving: the proof holds (no finding left, every change
     * needed). No brute force here (the program model has no load modes), but this is where findings of several
     * models need several changes, and where a set the hitting set chose can hold a change the others make needless.
     */
    private void allModels(int index, Program p, int[] order, List<String> failures) {
        Interleavings.Named named = Interleavings.name(p);
        EventBuffer run = new EventBuffer();
        int[] pc = new int[p.threads().size()];
        for (int t : order) {
            int ref = named.base()[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            run.event(op.kind().code(), t, op.address(), named.siteOf()[ref]);
        }
        FixResult fix = FixSearch.search(run, named.symbols(), EnumSet.of(Analysis.TSO, Analysis.PSO, Analysis.SOBER,
                Analysis.JMM), FixSearch.Config.defaults());
        if (fix.findings().isEmpty()) {
            return;
        }
        allModelRuns++;
        allModelMulti += fix.changes().size() > 1 ? 1 : 0;
        if (!fix.proven()) {
            failures.add("program " + index + ", tso+pso+sober+jmm, interleaving " + Arrays.toString(order)
                    + ": NOT PROVEN\n" + p + String.join("\n", fix.lines()));
        }
    }

    /** A random SC interleaving of {@code p} the monitor reports on under {@code a}, or null after some tries. */
    private static int[] reportedInterleaving(Program p, Analysis a, Random rnd) {
        for (int k = 0; k < TRIES; k++) {
            int[] order = randomOrder(p, rnd);
            if (reports(p, order, a)) {
                return order;
            }
        }
        return null;
    }

    private static int[] randomOrder(Program p, Random rnd) {
        int n = p.threads().size();
        int[] left = new int[n];
        for (int t = 0; t < n; t++) {
            left[t] = p.threads().get(t).size();
        }
        int[] order = new int[p.size()];
        for (int i = 0; i < order.length; i++) {
            int pick = rnd.nextInt(order.length - i);
            int t = 0;
            while (pick >= left[t]) {
                pick -= left[t++];
            }
            left[t]--;
            order[i] = t;
        }
        return order;
    }

    /** Whether the production monitor for {@code a} reports on interleaving {@code order} of {@code p}. */
    static boolean reports(Program p, int[] order, Analysis a) {
        return !violations(p, order, a).isEmpty();
    }

    /** The production monitor's reports for {@code a} on interleaving {@code order} of {@code p}. */
    static List<Violation> violations(Program p, int[] order, Analysis a) {
        Interleavings.Named named = Interleavings.name(p);
        Checker checker = new Checker(named.symbols(), new Checker.Config(EnumSet.of(a), MonitorConfig.defaults(), 64,
                16));
        int[] pc = new int[p.threads().size()];
        for (int t : order) {
            int ref = named.base()[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            checker.event(op.kind().code(), t, op.address(), named.siteOf()[ref]);
        }
        return checker.result().violationsOf(a);
    }

    static OperationalOracle.Model model(Analysis a) {
        return a == Analysis.TSO ? OperationalOracle.Model.TSO : OperationalOracle.Model.PSO_JAVA;
    }

    private String kindCounts() {
        StringBuilder b = new StringBuilder();
        for (Change.Kind k : Change.Kind.values()) {
            if (kinds[k.ordinal()] > 0) {
                b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(kinds[k.ordinal()]);
            }
        }
        return b.toString();
    }

    /** A program and interleaving with changes made to the program: fences inserted, kinds changed. */
    record Applied(Program program, int[] order) {

        /** {@code p} and {@code order} with {@code changes} made (sites {@code T<thread>:<index + 1>}). */
        static Applied of(Program p, int[] order, List<Change> changes) {
            int n = p.threads().size();
            List<List<Program.Op>> threads = new ArrayList<>();
            int[][] issued = new int[n][];   // per thread and original op: how many ops are issued with it
            int[] tail = new int[n];          // per thread: the fences after its last op, issued at the end
            for (int t = 0; t < n; t++) {
                List<Program.Op> ops = p.threads().get(t);
                List<Program.Op> out = new ArrayList<>();
                issued[t] = new int[ops.size()];
                int due = 0; // the fences after the previous op: issued with this one, as late as they can run (Rewrite)
                for (int i = 0; i < ops.size(); i++) {
                    Program.Op op = ops.get(i);
                    int start = out.size();
                    List<Program.Op> after = new ArrayList<>();
                    EventKind kind = op.kind();
                    for (Change c : changes) {
                        boolean here = c.site().file().equals("T" + t) && c.site().line() == i + 1;
                        boolean field = c.kind() == Change.Kind.VOLATILE_FIELD && op.address() >= 0
                                && c.field().equals("a" + op.address());
                        if (field && (kind == EventKind.STORE || kind == EventKind.RELEASE_STORE)) {
                            kind = EventKind.VOLATILE_STORE;
                        }
                        if (!here) {
                            continue;
                        }
                        switch (c.kind()) {
                            case FULL_FENCE_BEFORE -> out.add(new Program.Op(EventKind.FULL_FENCE, -1));
                            case RELEASE_FENCE_BEFORE -> out.add(new Program.Op(EventKind.STORE_STORE_FENCE, -1));
                            case FULL_FENCE_AFTER -> after.add(new Program.Op(EventKind.FULL_FENCE, -1));
                            case ACQUIRE_FENCE_AFTER -> after.add(new Program.Op(EventKind.LOAD_FENCE, -1));
                            case VOLATILE_STORE -> {
                                if (kind == EventKind.STORE || kind == EventKind.RELEASE_STORE) {
                                    kind = EventKind.VOLATILE_STORE;
                                }
                            }
                            case RELEASE_STORE -> {
                                if (kind == EventKind.STORE) {
                                    kind = EventKind.RELEASE_STORE;
                                }
                            }
                            default -> {
                                // load modes and fields: nothing a TSO or PSO program's loads can show
                            }
                        }
                    }
                    out.add(new Program.Op(kind, op.address()));
                    issued[t][i] = due + out.size() - start;
                    out.addAll(after);
                    due = after.size();
                }
                tail[t] = due;
                threads.add(out);
            }
            int[] pc = new int[n];
            List<Integer> newOrder = new ArrayList<>();
            for (int t : order) {
                for (int k = issued[t][pc[t]++]; k > 0; k--) {
                    newOrder.add(t);
                }
            }
            for (int t = 0; t < n; t++) {
                for (int k = tail[t]; k > 0; k--) {
                    newOrder.add(t);
                }
            }
            return new Applied(new Program(threads, p.addresses()),
                    newOrder.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** The program's sites as {@link Interleavings#name} gives them, the plain stores of {@code opaqueThread} opaque. */
    private static Interleavings.Named named(Program p, int opaqueThread) {
        Interleavings.Named plain = Interleavings.name(p);
        if (opaqueThread < 0) {
            return plain;
        }
        dev.mmcheck.checker.event.Symbols symbols = new dev.mmcheck.checker.event.Symbols();
        for (int t = 0; t < p.threads().size(); t++) {
            symbols.thread("T" + t);
        }
        for (int a = 0; a < p.addresses(); a++) {
            symbols.address("a" + a);
        }
        int[] siteOf = new int[p.size()];
        for (int t = 0, g = 0; t < p.threads().size(); t++) {
            for (int k = 0; k < p.threads().get(t).size(); k++, g++) {
                Site s = Site.at("T" + t, k + 1);
                if (t == opaqueThread && p.threads().get(t).get(k).kind() == EventKind.STORE) {
                    s = new Site(s.className(), s.method(), s.file(), s.line(), s.bci(), SiteModes.OPAQUE);
                }
                siteOf[g] = symbols.site(s);
            }
        }
        return new Interleavings.Named(symbols, siteOf, plain.base());
    }

    /** Every change applicable to a program under TSO and PSO, priced as FixSearch prices a run of it. */
    static final class Universe {
        private final List<Change> all = new ArrayList<>();
        private final List<Double> costs = new ArrayList<>();
        private final java.util.Map<Change, Double> prices = new java.util.HashMap<>();
        private final int[] stores;
        private final int[] loads;

        Universe(Program p, int opaqueThread) {
            stores = new int[p.addresses()];
            loads = new int[p.addresses()];
            for (int t = 0; t < p.threads().size(); t++) {
                List<Program.Op> ops = p.threads().get(t);
                for (int i = 0; i < ops.size(); i++) {
                    EventKind k = ops.get(i).kind();
                    Site s = Site.at("T" + t, i + 1);
                    if (k == EventKind.LOAD) {
                        loads[ops.get(i).address()]++;
                    } else if (k == EventKind.STORE || k == EventKind.RELEASE_STORE || k == EventKind.VOLATILE_STORE) {
                        stores[ops.get(i).address()]++;
                    }
                    if (!k.isAccess()) {
                        continue;
                    }
                    add(Change.at(Change.Kind.FULL_FENCE_AFTER, s, ""));
                    add(Change.at(Change.Kind.FULL_FENCE_BEFORE, s, ""));
                    // a plain store's mode is given through a VarHandle to declare: its edit is dearer than in place
                    double modeEdit = k == EventKind.STORE && t != opaqueThread ? 2.0 : 0.5;
                    if (k == EventKind.STORE || k == EventKind.RELEASE_STORE) {
                        add(Change.at(Change.Kind.RELEASE_FENCE_BEFORE, s, ""));
                        add(Change.at(Change.Kind.VOLATILE_STORE, s, ""), modeEdit + 1.0);
                    }
                    if (k == EventKind.STORE) {
                        add(Change.at(Change.Kind.RELEASE_STORE, s, ""), modeEdit + 0.1);
                    }
                }
            }
            for (int a = 0; a < p.addresses(); a++) {
                if (stores[a] > 0) {
                    add(Change.volatileField("a" + a, Site.at("T0", 1), ""));
                }
            }
        }

        private void add(Change c) {
            add(c, cost(c));
        }

        private void add(Change c, double price) {
            all.add(c);
            costs.add(price);
            prices.put(c, price);
        }

        /**
         * Each operation runs once: the edit plus the weight (a plain store's mode: 2 for the edit, a VarHandle to
         * declare); a field, 0.5 plus 1.0 a store and 0.1 a load.
         */
        double cost(Change c) {
            Double priced = prices.get(c);
            if (priced != null) {
                return priced;
            }
            if (c.kind() == Change.Kind.VOLATILE_FIELD) {
                int a = Integer.parseInt(c.field().substring(1));
                return 0.5 + stores[a] * 1.0 + loads[a] * 0.1;
            }
            return c.kind().edit() + c.kind().weight();
        }

        /** A set of changes strictly cheaper than {@code bound} that makes the run clean, or null. */
        List<Change> cheaperClean(Program p, int[] order, Analysis a, double bound) {
            return search(p, order, a, bound, 0, new ArrayList<>(), 0);
        }

        private List<Change> search(Program p, int[] order, Analysis a, double bound, int from, List<Change> chosen,
                double price) {
            for (int i = from; i < all.size(); i++) {
                double c = price + costs.get(i);
                if (c >= bound - 1e-9) {
                    continue;
                }
                chosen.add(all.get(i));
                Applied applied = Applied.of(p, order, chosen);
                searched();
                if (!reports(applied.program(), applied.order(), a)) {
                    return List.copyOf(chosen);
                }
                List<Change> found = search(p, order, a, bound, i + 1, chosen, c);
                chosen.remove(chosen.size() - 1);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }

        private long tried;

        private void searched() {
            tried++;
        }

        long tried() {
            return tried;
        }
    }
}
