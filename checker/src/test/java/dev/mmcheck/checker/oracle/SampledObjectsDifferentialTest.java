package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.engine.MergeOrder;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.monitor.PartlyLogged;
import dev.mmcheck.checker.result.CheckResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code sample=R} (docs/sampling.md) against the brute force. The agent leaves out the plain accesses
 * of the objects it does not sample, logs every synchronization access, and hands a store to an
 * address whose accesses are not all logged to the monitors as a volatile store ({@link PartlyLogged}).
 * Here, on many random programs whose addresses belong to two objects, each operation plain (droppable)
 * or synchronization, on each SC interleaving and for each choice of sampled objects, the reduced
 * event stream is made exactly that way and checked:
 * <ul>
 *   <li>every PSO report on it is genuine for the <em>full</em> program, even if the program's
 *       operations depend on the values read: a PSO run issuing the operations in the interleaving's
 *       order in which every load before the reported access, the left-out ones included, reads what it
 *       read in the SC run, orders the access before the store and is not SC among the operations up
 *       to the access ({@link OperationalOracle#findNonScKeepingReads});</li>
 *   <li>the same holds for the full stream (the paper's construction), which is the check's control;</li>
 *   <li>TSO's reports on reduced streams are counted against the same oracle, to show why sampling
 *       runs PSO only: a left-out load of another address can commit a TSO store buffer's younger store
 *       and with it, in FIFO order, the reported one.</li>
 * </ul>
 */
class SampledObjectsDifferentialTest {

    private static final int INTERLEAVINGS_PER_PROGRAM = 150;
    /** An address that is a volatile field: never a plain access, fully logged whatever its object (Heap.fullyLogged). */
    private static final int VOLATILE = 2;

    private int psoReports;
    private int fullReports;
    private int tsoReports;
    private int tsoNotTso;
    private long reducedStreams;
    private long droppedEvents;
    private long mergedStreams;
    private long reorderedStreams;
    private int mergeReports;

    /** Random merges per reduced stream. */
    private static final int MERGES = 4;

    @Test
    void everyPsoReportOnASampledStreamIsGenuineForTheFullProgram() {
        int programs = Math.max(1500, DifferentialSupport.programs() / 2);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 11), programs, 5, false);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("sampled objects: %d programs, %d reduced streams (%d events left out): %d PSO reports "
                + "genuine for the full program (with every object drawn: %d); TSO on reduced streams: %d reports, %d of "
                + "them with no TSO run keeping the left-out reads%n", programs, reducedStreams, droppedEvents,
                psoReports, fullReports, tsoReports, tsoNotTso);
        assertTrue(psoReports > 300, "too few reports on reduced streams to say anything: " + psoReports);
    }

    /**
     * {@code sample=R,sync=fences}: as above, but the synchronization accesses of unsampled objects are
     * not logged with their address either. A load of such an address is left out, and anything that
     * writes one is logged as the full fence it is under sampling (a release store flushes there too,
     * {@link PartlyLogged}), or not at all when the thread has logged no store since its last flush. Every
     * PSO report on the reduced stream must still be a PSO run of the full program keeping its reads.
     * (The stream is taken in the interleaving's order; that the agent's checker feeds an address-less
     * fence in that order relative to the other threads is what the flush tickets ensure: Flushes,
     * docs/sampling.md, "Fences and the merge"; AgentOptionsIT runs S18 and S28 that way.)
     */
    @Test
    void everyPsoReportIsGenuineWithTheSynchronizationOfUnsampledObjectsLoggedAsFences() {
        int programs = Math.max(1500, DifferentialSupport.programs() / 2);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 13), programs, 3, true);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("sampled objects, synchronization as fences: %d programs, %d events left out: %d PSO "
                + "reports genuine for the full program%n", programs, droppedEvents, psoReports);
        assertTrue(psoReports > 300, "too few reports on reduced streams to say anything: " + psoReports);
    }

    /**
     * The checker loop's merge ({@link MergeOrder}) against the brute force. The agent's checker does not
     * see the interleaving: it merges the threads' logs in any order their stripes and, under sampling,
     * their flush tickets allow. Here each reduced stream of {@link #everyPsoReportOnASampledStreamIsGenuineForTheFullProgram}
     * and of {@link #everyPsoReportIsGenuineWithTheSynchronizationOfUnsampledObjectsLoggedAsFences} is
     * stamped as the runtime stamps its events (addresses on fewer stripes than there are addresses, now
     * and then) and fed in random orders the rule allows, none stalling; every PSO report must be genuine
     * for the full program and the interleaving that ran. Without the tickets (S28's hole), this fails.
     */
    @Test
    void everyPsoReportIsGenuineInEveryOrderTheMergeAllows() {
        int programs = Math.max(600, DifferentialSupport.programs() / 8);
        List<String> failures = new ArrayList<>();
        failures.addAll(randomPrograms(new Random(DifferentialSupport.seed() + 17), programs, 5, false, MERGES, true));
        failures.addAll(randomPrograms(new Random(DifferentialSupport.seed() + 19), programs, 3, true, MERGES, true));
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("merge orders under sampling: %d programs twice, %d merged streams (%d not in the "
                + "interleaving's order): %d PSO reports genuine for the full program%n", programs, mergedStreams,
                reorderedStreams, mergeReports);
        assertTrue(reorderedStreams > mergedStreams / 10, "too few merges differ from the interleaving: "
                + reorderedStreams + " of " + mergedStreams);
        assertTrue(mergeReports > 300, "too few reports on merged streams to say anything: " + mergeReports);
    }

    /**
     * The same without the tickets, to show they are what makes it hold: with the merge ordering events by
     * their stripes alone, some report on a sampled stream is not genuine (S28's shape: a chain of
     * left-out accesses orders a fence before another thread's loads).
     */
    @Test
    void withoutTicketsTheMergeCanReportWhatTheRunDidNot() {
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 19),
                Math.max(600, DifferentialSupport.programs() / 8), 3, true, MERGES, false);
        assertTrue(!failures.isEmpty(), "no false report without tickets in " + mergedStreams + " merged streams");
        System.out.println("merge orders without tickets, as expected: " + failures.get(0));
    }

    /**
     * Full checking (no sampling, no tickets): every access is logged, so every chain between threads runs
     * through accesses the stripes order, and any merge they allow must keep every TSO and PSO report
     * genuine.
     */
    @Test
    void everyReportOfAFullRunIsGenuineInEveryOrderTheStripesAllow() {
        Random rnd = new Random(DifferentialSupport.seed() + 23);
        int programs = Math.max(600, DifferentialSupport.programs() / 8);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < programs && failures.size() < 5; i++) {
            Program p = i % 3 == 2 ? writerAndReader(rnd) : withFences(rnd, Program.random(rnd, Program.Ops.JAVA));
            Interleavings.Named named = Interleavings.name(p);
            for (int[] order : orders(rnd, p)) {
                int[] sources = sources(p, named.base(), order);
                List<Logged> log = logFull(p, named.base(), named.siteOf(), order, 1 + rnd.nextInt(p.addresses()));
                for (int m = 0; m < MERGES; m++) {
                    Checker checker = checker(named.symbols());
                    List<Logged> merged = feedMerged(checker, log, p.threads().size(), false, rnd);
                    CheckResult r = checker.result();
                    for (Analysis analysis : List.of(Analysis.TSO, Analysis.PSO)) {
                        OperationalOracle.Model model = analysis == Analysis.TSO ? OperationalOracle.Model.TSO
                                : OperationalOracle.Model.PSO_JAVA;
                        for (Interleavings.Pair v : Interleavings.pairs(r.violationsOf(analysis), named.base())) {
                            mergeReports++;
                            if (!genuine(p, model, named.base(), order, sources, merged, v.access(), v.store())
                                    && failures.size() < 5) {
                                failures.add("program " + i + ", interleaving " + Arrays.toString(order)
                                        + ", full run, merged: UNSOUND " + analysis + " report of store " + v.store()
                                        + " before access " + v.access() + "\n" + p);
                            }
                        }
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("merge orders of full runs: %d programs, %d merged streams (%d not in the interleaving's "
                + "order): %d TSO and PSO reports genuine%n", programs, mergedStreams, reorderedStreams, mergeReports);
        assertTrue(reorderedStreams > mergedStreams / 10, "too few merges differ from the interleaving");
        assertTrue(mergeReports > 300, "too few reports on merged streams to say anything: " + mergeReports);
    }

    /**
     * Runs {@code programs} random programs (every third of the generation case's shape, a writer with a
     * fence among its stores to three addresses and a reader of the same:
     * aStoreStoreFenceFlushesWhenAYoungerStoreIsLeftOut) whose addresses belong to object 0 or 1 or are
     * {@link #VOLATILE}, each load and store plain except one in {@code notPlainOneIn} (an opaque or
     * volatile access), through {@link #runProgram}; returns the failures (at most five).
     */
    private List<String> randomPrograms(Random rnd, int programs, int notPlainOneIn, boolean syncAsFences) {
        return randomPrograms(rnd, programs, notPlainOneIn, syncAsFences, 0, true);
    }

    /**
     * {@link #randomPrograms(Random, int, int, boolean)}, each reduced stream also fed in {@code merges}
     * random orders the checker loop's merge allows (with the flush tickets, or {@code tickets} false:
     * stripes only).
     */
    private List<String> randomPrograms(Random rnd, int programs, int notPlainOneIn, boolean syncAsFences, int merges,
            boolean tickets) {
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < programs && failures.size() < 5; i++) {
            Program p = i % 3 == 2 ? writerAndReader(rnd) : withFences(rnd, Program.random(rnd, Program.Ops.JAVA));
            int[] objectOf = new int[p.addresses()];
            for (int a = 0; a < objectOf.length; a++) {
                // object 0 or 1, or VOLATILE: a volatile field, whose accesses are all logged on every object
                objectOf[a] = rnd.nextInt(6) == 0 ? VOLATILE : rnd.nextInt(2);
            }
            boolean[] plain = new boolean[p.size()];
            int g = 0;
            for (List<Program.Op> ops : p.threads()) {
                for (Program.Op op : ops) {
                    boolean access = op.kind() == EventKind.LOAD || op.kind() == EventKind.STORE;
                    plain[g++] = access && objectOf[op.address()] != VOLATILE && rnd.nextInt(notPlainOneIn) != 0;
                }
            }
            if (merges == 0) {
                runProgram(i, p, objectOf, plain, orders(rnd, p), failures, syncAsFences);
            } else {
                runMerges(i, p, objectOf, plain, orders(rnd, p), failures, syncAsFences, merges, tickets, rnd);
            }
        }
        return failures;
    }

    /**
     * Why sampling runs PSO only. T0: {@code x = 1; r = y; z = 1}; T1: {@code y = 1; s = z; t = x}, with x
     * and y in a sampled object and z in one left out, so neither access of z is logged. In the
     * interleaving below T1 reads z = 1, which on TSO needs T0's store of z, and before it (FIFO) its store
     * of x, committed: T1's read of x then sees 1. The TSO monitor, which never saw z, keeps x buffered
     * and reports; no TSO run keeping T1's read of z has it. On PSO the stores of x and z commit
     * independently, and the report (store buffering on x and y) is a real PSO run.
     */
    @Test
    void tsoOnASampledStreamCanReportWhatNoTsoRunDoes() {
        Program p = new Program(List.of(
                List.of(new Program.Op(EventKind.STORE, 0), new Program.Op(EventKind.LOAD, 1),
                        new Program.Op(EventKind.STORE, 2)),
                List.of(new Program.Op(EventKind.STORE, 1), new Program.Op(EventKind.LOAD, 2),
                        new Program.Op(EventKind.LOAD, 0))), 3);
        int[] order = {0, 0, 1, 0, 1, 1};
        int[] base = {0, 3, 6};
        Interleavings.Named named = Interleavings.name(p);
        Symbols symbols = named.symbols();
        int[] siteOf = named.siteOf();
        boolean[] plain = {true, true, true, true, true, true};
        CheckResult r = run(p, base, symbols, siteOf, order, new int[] {0, 0, 1}, plain, new boolean[] {true, false});
        Interleavings.Pair expected = new Interleavings.Pair(0, 5); // T0's store of x, T1's load of x
        int[] sources = sources(p, base, order);
        assertTrue(Interleavings.pairs(r.violationsOf(Analysis.TSO), base).contains(expected), "the TSO monitor reports");
        assertTrue(OperationalOracle.findNonScKeepingReads(p, OperationalOracle.Model.TSO, order, 5, 0, sources) == null,
                "no TSO run keeps T1's read of z and reads x = 0");
        assertTrue(Interleavings.pairs(r.violationsOf(Analysis.PSO), base).contains(expected), "the PSO monitor reports");
        assertTrue(OperationalOracle.findNonScKeepingReads(p, OperationalOracle.Model.PSO_JAVA, order, 5, 0, sources) != null,
                "a PSO run has it");
    }

    /**
     * Why a StoreStore fence (and a release store) must flush when accesses are left out. T0: {@code x = 1;
     * w = 1; storeStoreFence; z = 1}; T1: {@code r = w; s = z; t = x}, with x and w in a sampled object
     * and z in one left out. For T1 to read z = 1, PSO must have committed {@code z = 1}, of the younger
     * generation, and so {@code x = 1} before it: T1 reads x = 1. Had the fence only started a generation,
     * the monitor, which never saw z, would keep {@code x = 1} buffered past T1's read of w (which commits
     * only w) and report (x = 1, t = x); no PSO run keeping T1's reads has that. Found in review.
     */
    @Test
    void aStoreStoreFenceFlushesWhenAYoungerStoreIsLeftOut() {
        Program p = new Program(List.of(
                List.of(new Program.Op(EventKind.STORE, 0), new Program.Op(EventKind.STORE, 1),
                        new Program.Op(EventKind.STORE_STORE_FENCE, -1), new Program.Op(EventKind.STORE, 2)),
                List.of(new Program.Op(EventKind.LOAD, 1), new Program.Op(EventKind.LOAD, 2),
                        new Program.Op(EventKind.LOAD, 0))), 3);
        int[] order = {0, 0, 0, 0, 1, 1, 1};
        Interleavings.Named named = Interleavings.name(p);
        boolean[] plain = {true, true, false, true, true, true, true};
        int[] sources = sources(p, named.base(), order);
        assertTrue(OperationalOracle.findNonScKeepingReads(p, OperationalOracle.Model.PSO_JAVA, order, 6, 0, sources) == null,
                "no PSO run keeping T1's reads reads x = 0");
        CheckResult r = run(p, named.base(), named.symbols(), named.siteOf(), order, new int[] {0, 0, 1}, plain,
                new boolean[] {true, false});
        assertTrue(r.violationsOf(Analysis.PSO).isEmpty(), "no PSO report: " + r.violationsOf(Analysis.PSO));
        boolean[] none = new boolean[p.size()];
        none[3] = true; // the same stream, z's store left out, with the fence as a mere StoreStore fence
        none[5] = true;
        assertTrue(Interleavings.pairs(Interleavings.check(p, named, order, MonitorConfig.defaults(), none)
                .violationsOf(Analysis.PSO), named.base()).contains(new Interleavings.Pair(0, 6)),
                "without the rule the monitor would report it");
    }

    /**
     * {@code p} with a StoreStore fence or a release store put in here and there: the generations they
     * start tie a thread's stores to different addresses together, as TSO's order does.
     */
    static Program withFences(Random rnd, Program p) {
        List<List<Program.Op>> threads = new ArrayList<>();
        for (List<Program.Op> t : p.threads()) {
            List<Program.Op> copy = new ArrayList<>();
            for (Program.Op op : t) {
                copy.add(op);
                int r = rnd.nextInt(8);
                if (r == 0) {
                    copy.add(new Program.Op(EventKind.STORE_STORE_FENCE, -1));
                } else if (r == 1 && op.address() >= 0) {
                    copy.add(new Program.Op(EventKind.RELEASE_STORE, rnd.nextInt(p.addresses())));
                }
            }
            threads.add(copy);
        }
        return new Program(threads, p.addresses());
    }

    /**
     * Two threads over three addresses in a random order a, b, c: a writer {@code a; b; fence; c} (mostly
     * stores, the fence mostly a StoreStore fence or a release store) and a reader of the three
     * addresses in a random order (mostly loads): the shape of the generation case.
     */
    private static Program writerAndReader(Random rnd) {
        List<Integer> addresses = new ArrayList<>(List.of(0, 1, 2));
        java.util.Collections.shuffle(addresses, rnd);
        List<Program.Op> writer = new ArrayList<>();
        writer.add(new Program.Op(rnd.nextInt(5) == 0 ? EventKind.LOAD : EventKind.STORE, addresses.get(0)));
        writer.add(new Program.Op(rnd.nextInt(5) == 0 ? EventKind.LOAD : EventKind.STORE, addresses.get(1)));
        int r = rnd.nextInt(5);
        writer.add(r < 3 ? new Program.Op(EventKind.STORE_STORE_FENCE, -1)
                : new Program.Op(r == 3 ? EventKind.RELEASE_STORE : EventKind.STORE, addresses.get(rnd.nextInt(3))));
        writer.add(new Program.Op(rnd.nextInt(5) == 0 ? EventKind.LOAD : EventKind.STORE, addresses.get(2)));
        java.util.Collections.shuffle(addresses, rnd);
        List<Program.Op> reader = new ArrayList<>();
        for (int a : addresses) {
            reader.add(new Program.Op(rnd.nextInt(6) == 0 ? EventKind.STORE : EventKind.LOAD, a));
        }
        return new Program(List.of(writer, reader), 3);
    }

    /** The first interleavings in order, and as many drawn at random (a random thread issues next). */
    static List<int[]> orders(Random rnd, Program p) {
        List<int[]> out = new ArrayList<>(Interleavings.of(p, INTERLEAVINGS_PER_PROGRAM / 2));
        for (int k = 0; k < INTERLEAVINGS_PER_PROGRAM / 2; k++) {
            int[] left = new int[p.threads().size()];
            for (int t = 0; t < left.length; t++) {
                left[t] = p.threads().get(t).size();
            }
            int[] order = new int[p.size()];
            for (int i = 0; i < order.length; i++) {
                int t;
                do {
                    t = rnd.nextInt(left.length);
                } while (left[t] == 0);
                left[t]--;
                order[i] = t;
            }
            out.add(order);
        }
        return out;
    }

    private void runProgram(int index, Program p, int[] objectOf, boolean[] plain, List<int[]> orders,
            List<String> failures, boolean syncAsFences) {
        Interleavings.Named named = Interleavings.name(p);
        Symbols symbols = named.symbols();
        int[] siteOf = named.siteOf();
        int[] base = named.base();
        for (int[] order : orders) {
            int[] sources = sources(p, base, order);
            for (int sampledSet = 0; sampledSet < 4; sampledSet++) {
                boolean[] sampled = {(sampledSet & 1) != 0, (sampledSet & 2) != 0};
                boolean full = sampledSet == 3;
                CheckResult r = run(p, base, symbols, siteOf, order, objectOf, plain, sampled, syncAsFences);
                if (!full) {
                    reducedStreams++;
                }
                for (Interleavings.Pair v : Interleavings.pairs(r.violationsOf(Analysis.PSO), base)) {
                    if (full) {
                        fullReports++;
                    } else {
                        psoReports++;
                    }
                    if (OperationalOracle.findNonScKeepingReads(p, OperationalOracle.Model.PSO_JAVA, order,
                            v.access(), v.store(), sources) == null) {
                        failures.add("program " + index + ", interleaving " + Arrays.toString(order)
                                + ", objects of the addresses " + Arrays.toString(objectOf) + ", sampled "
                                + Arrays.toString(sampled) + ", plain ops " + Arrays.toString(plain)
                                + (syncAsFences ? ", synchronization of unsampled objects as fences" : "") + ": UNSOUND PSO "
                                + "report of store " + v.store() + " before access " + v.access() + "\n" + p);
                    }
                }
                if (!full) {
                    for (Interleavings.Pair v : Interleavings.pairs(r.violationsOf(Analysis.TSO), base)) {
                        tsoReports++;
                        if (OperationalOracle.findNonScKeepingReads(p, OperationalOracle.Model.TSO, order,
                                v.access(), v.store(), sources) == null) {
                            tsoNotTso++;
                        }
                    }
                }
            }
        }
    }

    /** {@link #runProgram}'s reduced streams (every object drawn or not), each fed in {@code merges} random merges. */
    private void runMerges(int index, Program p, int[] objectOf, boolean[] plain, List<int[]> orders,
            List<String> failures, boolean syncAsFences, int merges, boolean tickets, Random rnd) {
        Interleavings.Named named = Interleavings.name(p);
        int[] base = named.base();
        for (int[] order : orders) {
            int[] sources = sources(p, base, order);
            for (int sampledSet = 0; sampledSet < 4; sampledSet++) {
                boolean[] sampled = {(sampledSet & 1) != 0, (sampledSet & 2) != 0};
                List<Logged> log = log(p, base, named.siteOf(), order, objectOf, plain, sampled, syncAsFences,
                        1 + rnd.nextInt(p.addresses()));
                for (int m = 0; m < merges && failures.size() < 5; m++) {
                    Checker checker = checker(named.symbols());
                    List<Logged> merged = feedMerged(checker, log, p.threads().size(), tickets, rnd);
                    for (Interleavings.Pair v : Interleavings.pairs(checker.result().violationsOf(Analysis.PSO), base)) {
                        mergeReports++;
                        if (!genuine(p, OperationalOracle.Model.PSO_JAVA, base, order, sources, merged, v.access(),
                                v.store())) {
                            failures.add("program " + index + ", interleaving " + Arrays.toString(order)
                                    + ", objects of the addresses " + Arrays.toString(objectOf) + ", sampled "
                                    + Arrays.toString(sampled) + ", plain ops " + Arrays.toString(plain)
                                    + (syncAsFences ? ", synchronization of unsampled objects as fences" : "")
                                    + ", merged" + (tickets ? "" : " without tickets") + ": UNSOUND PSO report of store "
                                    + v.store() + " before access " + v.access() + "\n" + p);
                            break;
                        }
                    }
                }
            }
        }
    }

    /**
     * Feeds {@code log} (in the interleaving's order) in a random order {@link MergeOrder} allows: each
     * thread's events in program order, at each step the head of a thread chosen at random among those
     * the rule lets through (the checker loop drains one log as far as it can, then the next: one of
     * these orders). Fails if no head may be fed while events remain: the merge would stall.
     */
    private List<Logged> feedMerged(Checker checker, List<Logged> log, int threads, boolean tickets, Random rnd) {
        List<Logged> merged = new ArrayList<>();
        List<java.util.ArrayDeque<Logged>> queues = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            queues.add(new java.util.ArrayDeque<>());
        }
        int stripes = 1;
        for (Logged e : log) {
            queues.get(e.thread()).add(e);
            stripes = Math.max(stripes, e.stripe() + 1);
        }
        int[] expected = new int[stripes];
        long flushesFed = 0;
        int[] ready = new int[threads];
        boolean reordered = false;
        for (int n = 0; n < log.size(); n++) {
            int k = 0;
            for (int t = 0; t < threads; t++) {
                Logged e = queues.get(t).peek();
                if (e != null && MergeOrder.mayFeed(expected, e.stripe(), e.seq(), tickets, e.ticket(), e.epoch(),
                        flushesFed)) {
                    ready[k++] = t;
                }
            }
            if (k == 0) {
                throw new AssertionError("the merge stalls after " + n + " of " + log.size() + " events: " + log);
            }
            Logged e = queues.get(ready[rnd.nextInt(k)]).poll();
            reordered |= e != log.get(n);
            merged.add(e);
            e.feed(checker);
            if (e.stripe() >= 0) {
                expected[e.stripe()]++;
            }
            if (e.ticket()) {
                flushesFed++;
            }
        }
        mergedStreams++;
        if (reordered) {
            reorderedStreams++;
        }
        return merged;
    }

    /**
     * Whether a report of {@code store} before {@code access} is genuine for the run: a run of the full
     * program keeping its reads ({@link OperationalOracle#findNonScKeepingReads}) issuing its operations in
     * the interleaving's order, or in the order the checker saw ({@code merged}, with the left-out events
     * put where the run's order lets them: {@link #runOrderOf}), which is as much a run of the program as
     * the interleaving when it exists (the same operations, each load reading from the same store).
     */
    private static boolean genuine(Program p, OperationalOracle.Model model, int[] base, int[] order, int[] sources,
            List<Logged> merged, int access, int store) {
        if (OperationalOracle.findNonScKeepingReads(p, model, order, access, store, sources) != null) {
            return true;
        }
        int[] seen = runOrderOf(p, base, order, merged);
        return seen != null && OperationalOracle.findNonScKeepingReads(p, model, seen, access, store,
                sources(p, base, seen)) != null;
    }

    /**
     * An order of all of the program's operations that keeps each thread's program order and, per address,
     * the interleaving's order of every two accesses of which one writes (so each load reads from the same
     * store), in which the logged events come in the order {@code merged}; null when there is none (the
     * merge fed them in an order no equivalent run has). Greedy: a left-out operation as soon as it may
     * come, else the next merged one.
     */
    private static int[] runOrderOf(Program p, int[] base, int[] order, List<Logged> merged) {
        int n = p.size();
        int[] threadOf = new int[n];
        Program.Op[] opOf = new Program.Op[n];
        int[] position = new int[n];
        int[] pc = new int[p.threads().size()];
        for (int i = 0; i < order.length; i++) {
            int t = order[i];
            int ref = base[t] + pc[t];
            opOf[ref] = p.threads().get(t).get(pc[t]++);
            threadOf[ref] = t;
            position[ref] = i;
        }
        boolean[] logged = new boolean[n];
        for (Logged e : merged) {
            logged[e.ref()] = true;
        }
        boolean[] done = new boolean[n];
        int[] out = new int[n];
        int k = 0;
        int next = 0;
        while (k < n) {
            int pick = -1;
            for (int r = 0; r < n && pick < 0; r++) {
                if (!done[r] && !logged[r] && ready(r, base, threadOf, opOf, position, done)) {
                    pick = r;
                }
            }
            if (pick < 0) {
                if (next == merged.size() || !ready(merged.get(next).ref(), base, threadOf, opOf, position, done)) {
                    return null;
                }
                pick = merged.get(next++).ref();
            }
            done[pick] = true;
            out[k++] = threadOf[pick];
        }
        return out;
    }

    /** Whether operation {@code r} may come next: its program-order predecessor and its conflicting predecessors are done. */
    private static boolean ready(int r, int[] base, int[] threadOf, Program.Op[] opOf, int[] position, boolean[] done) {
        if (r > base[threadOf[r]] && !done[r - 1]) {
            return false;
        }
        Program.Op op = opOf[r];
        if (op.address() < 0) {
            return true;
        }
        for (int q = 0; q < opOf.length; q++) {
            Program.Op other = opOf[q];
            if (!done[q] && position[q] < position[r] && other.address() == op.address()
                    && (other.kind().writes() || op.kind().writes())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The events a full run logs for interleaving {@code order} (nothing sampled out, no tickets): every
     * operation as it is, but StoreStore fences that order no logged store (the runtime's rule).
     */
    private static List<Logged> logFull(Program p, int[] base, int[] siteOf, int[] order, int stripes) {
        List<Logged> out = new ArrayList<>();
        int[] seqs = new int[stripes];
        int[] pc = new int[p.threads().size()];
        boolean[] storesSinceFence = new boolean[p.threads().size()];
        for (int t : order) {
            int ref = base[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            switch (op.kind()) {
                case STORE, RELEASE_STORE -> storesSinceFence[t] = true;
                case STORE_STORE_FENCE -> {
                    if (!storesSinceFence[t]) {
                        continue;
                    }
                    storesSinceFence[t] = false;
                }
                case VOLATILE_STORE, INTERLOCKED, FULL_FENCE -> storesSinceFence[t] = false;
                default -> { }
            }
            int stripe = op.address() < 0 ? -1 : op.address() % stripes;
            out.add(new Logged(t, ref, op.kind().code(), op.address(), siteOf[ref], false, stripe,
                    stripe < 0 ? 0 : seqs[stripe]++, false, 0));
        }
        return out;
    }

    /** The store each operation reads from in the SC interleaving {@code order} (-1: the initial value). */
    static int[] sources(Program p, int[] base, int[] order) {
        int[] src = new int[p.size()];
        Arrays.fill(src, -1);
        int[] last = new int[p.addresses()];
        Arrays.fill(last, -1);
        int[] pc = new int[p.threads().size()];
        for (int t : order) {
            int ref = base[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            if (op.address() < 0) {
                continue;
            }
            if (op.kind().reads()) {
                src[ref] = last[op.address()];
            }
            if (op.kind().writes()) {
                last[op.address()] = ref;
            }
        }
        return src;
    }

    /**
     * The checker on the stream the agent would log: plain ops of unsampled objects left out (not those of
     * volatile fields), StoreStore fences that order no logged store left out (the runtime's rule), the
     * rest as {@link PartlyLogged} hands them over (as CheckerLoop does).
     */
    private CheckResult run(Program p, int[] base, Symbols symbols, int[] siteOf, int[] order, int[] objectOf,
            boolean[] plain, boolean[] sampled) {
        return run(p, base, symbols, siteOf, order, objectOf, plain, sampled, false);
    }

    /**
     * {@link #run} with, when {@code syncAsFences} ({@code sample=R,sync=fences}), the synchronization
     * accesses of unsampled objects (not those of {@link #VOLATILE} addresses, which stand for static
     * fields) logged as the runtime logs them then: a load not at all, anything that writes as an
     * address-less full fence, itself left out when the thread logged no store since its last flush.
     */
    private CheckResult run(Program p, int[] base, Symbols symbols, int[] siteOf, int[] order, int[] objectOf,
            boolean[] plain, boolean[] sampled, boolean syncAsFences) {
        Checker checker = checker(symbols);
        for (Logged e : log(p, base, siteOf, order, objectOf, plain, sampled, syncAsFences, 1)) {
            e.feed(checker);
        }
        return checker.result();
    }

    static Checker checker(Symbols symbols) {
        return new Checker(symbols, new Checker.Config(
                EnumSet.of(Analysis.TSO, Analysis.PSO), MonitorConfig.defaults(), 64, 16));
    }

    /**
     * An event as the runtime logs it under sampling, with what the checker loop's merge orders it by:
     * its stripe (-1: none) and the stripe's sequence number, and its flush ticket ({@code ticket}, the
     * ticket in {@code epoch}) or the number of flushes it saw ({@code epoch}). {@code fenceFirst}: the
     * checker feeds a full fence before it ({@link PartlyLogged#flushFirst}).
     */
    private record Logged(int thread, int ref, int code, int address, int site, boolean fenceFirst, int stripe, int seq,
            boolean ticket, long epoch) {

        void feed(Checker checker) {
            if (fenceFirst) {
                checker.event(EventKind.FULL_FENCE.code(), thread, -1, site);
            }
            checker.event(code, thread, address, site);
        }
    }

    /**
     * The events the agent would log for interleaving {@code order}, in its order: plain ops of unsampled
     * objects left out (not those of volatile fields), StoreStore fences that order no logged store left
     * out (the runtime's rule), the rest as {@link PartlyLogged} hands them over (as CheckerLoop does);
     * with {@code syncAsFences} as {@link #run(Program, int[], Symbols, int[], int[], int[], boolean[], boolean[], boolean)}
     * says. Stamped as ThreadLog.offer stamps them: address {@code a} under stripe {@code a % stripes},
     * events with no address (fences, and synchronization logged as a fence) under none, and a ticket for
     * each event that flushes under sampling (the runtime's Flushes.flushes: all but loads and load
     * fences, and but plain stores to addresses whose accesses are all logged).
     */
    private List<Logged> log(Program p, int[] base, int[] siteOf, int[] order, int[] objectOf, boolean[] plain,
            boolean[] sampled, boolean syncAsFences, int stripes) {
        List<Logged> out = new ArrayList<>();
        int[] seqs = new int[stripes];
        long flushes = 0;
        int[] pc = new int[p.threads().size()];
        boolean[] storesSinceFence = new boolean[p.threads().size()];
        boolean[] storesSinceFlush = new boolean[p.threads().size()];
        for (int t : order) {
            int ref = base[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            boolean everyAccessLogged = op.address() < 0 || objectOf[op.address()] == VOLATILE
                    || sampled[objectOf[op.address()]];
            if (plain[ref] && !everyAccessLogged) {
                droppedEvents++;
                continue;
            }
            if (syncAsFences && !everyAccessLogged) {
                // the runtime's FENCE_ONLY path (StripeProtocol.write)
                if (!op.kind().writes() || !storesSinceFlush[t]) {
                    droppedEvents++;
                    continue;
                }
                storesSinceFence[t] = false;
                storesSinceFlush[t] = false;
                out.add(new Logged(t, ref, EventKind.FULL_FENCE.code(), -1, siteOf[ref], false, -1, 0, true, flushes++));
                continue;
            }
            switch (op.kind()) {
                case STORE, RELEASE_STORE -> storesSinceFlush[t] = true;
                case VOLATILE_STORE, INTERLOCKED, FULL_FENCE -> storesSinceFlush[t] = false;
                default -> { }
            }
            // the runtime's rule on what it logs (RedundantFencesDifferentialTest): a StoreStore fence with no
            // logged store since the thread's last fence is not logged
            switch (op.kind()) {
                case STORE, RELEASE_STORE -> storesSinceFence[t] = true;
                case STORE_STORE_FENCE -> {
                    if (!storesSinceFence[t]) {
                        droppedEvents++;
                        continue;
                    }
                    storesSinceFence[t] = false;
                }
                case VOLATILE_STORE, INTERLOCKED, FULL_FENCE -> storesSinceFence[t] = false;
                default -> { }
            }
            int stripe = op.address() < 0 ? -1 : op.address() % stripes;
            int seq = stripe < 0 ? 0 : seqs[stripe]++;
            boolean flush = switch (op.kind()) {
                case LOAD, LOAD_FENCE -> false;
                case STORE -> !everyAccessLogged;
                default -> true;
            };
            out.add(new Logged(t, ref, PartlyLogged.kind(op.kind().code(), everyAccessLogged), op.address(), siteOf[ref],
                    PartlyLogged.flushFirst(op.kind().code(), everyAccessLogged), stripe, seq, flush,
                    flush ? flushes++ : flushes));
        }
        return out;
    }
}
