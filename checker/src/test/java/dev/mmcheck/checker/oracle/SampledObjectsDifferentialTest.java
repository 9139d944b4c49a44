package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.monitor.PartlyLogged;
import dev.mmcheck.checker.report.CheckResult;
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
     * Runs {@code programs} random programs (every third of the generation case's shape, a writer with a
     * fence among its stores to three addresses and a reader of the same:
     * aStoreStoreFenceFlushesWhenAYoungerStoreIsLeftOut) whose addresses belong to object 0 or 1 or are
     * {@link #VOLATILE}, each load and store plain except one in {@code notPlainOneIn} (an opaque or
     * volatile access), through {@link #runProgram}; returns the failures (at most five).
     */
    private List<String> randomPrograms(Random rnd, int programs, int notPlainOneIn, boolean syncAsFences) {
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
            runProgram(i, p, objectOf, plain, orders(rnd, p), failures, syncAsFences);
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
    private static Program withFences(Random rnd, Program p) {
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
    private static List<int[]> orders(Random rnd, Program p) {
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

    /** The store each operation reads from in the SC interleaving {@code order} (-1: the initial value). */
    private static int[] sources(Program p, int[] base, int[] order) {
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
        Checker checker = new Checker(symbols, new Checker.Config(
                EnumSet.of(Analysis.TSO, Analysis.PSO), MonitorConfig.defaults(), 64, 16));
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
                checker.event(EventKind.FULL_FENCE.code(), t, -1, siteOf[ref]);
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
            if (PartlyLogged.flushFirst(op.kind().code(), everyAccessLogged)) {
                checker.event(EventKind.FULL_FENCE.code(), t, -1, siteOf[ref]);
            }
            checker.event(PartlyLogged.kind(op.kind().code(), everyAccessLogged), t, op.address(), siteOf[ref]);
        }
        return checker.result();
    }
}
