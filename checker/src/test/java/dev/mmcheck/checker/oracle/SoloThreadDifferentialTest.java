package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Solo periods (the runtime's {@code Solo}; docs/agent.md, "Accesses of a thread running alone" and "What a period
 * keeps") against the brute force and against the full stream. While one thread is the only thread that logs, the
 * agent leaves its accesses and fences out. The checker grants a period only while every other thread is quiet, fed,
 * and has no store buffered in the monitors' view; any other thread's next event ends it. What the period left out
 * since the solo thread last had no store unflushed (every access) and the fence before them is its hand-over ring:
 * the thread materializes it into its log when it is full and before any event it logs in the period, and the checker
 * feeds it where the period ends. Here, on many random programs and SC interleavings, any stretch in
 * which one thread runs while the others are idle, ended or not begun is a period (the grant and the end at random
 * points in the stretch; any operation of the solo thread inside it left out, four in five, the others logged as a
 * static field's access or a thread start is), and the stream is made as the agent makes it. Two checks:
 * <ul>
 *   <li>every TSO and PSO report on it is a non-SC run of the <em>full</em> program keeping the reads of the SC run,
 *       the left-out ones included ({@link OperationalOracle#findNonScKeepingReads});</li>
 *   <li>it reports exactly the races (analysis, store, access) the full stream of the same interleaving does, unless
 *       the ring dropped an entry (then a subset): the period loses nothing, the hand-overs included.</li>
 * </ul>
 * The mutations show both checks can fail: a period granted though an idle thread has a store buffered, with no fence
 * of it (false reports); the rules before the ring, fences of the idle threads at the grant and of the solo thread at
 * the end (races lost: the hand-over of a pool's entry, S35, among them); and the ring with the old fence at the end.
 */
class SoloThreadDifferentialTest {

    private static final int INTERLEAVINGS_PER_PROGRAM = 150;

    private long streams;
    private long periods;
    private long leftOut;
    private long kept;
    private long overflowed;
    private long materialized;
    private long loneDropped;
    private long refused;
    private int reports;
    private int lostRaces;
    private final List<String> lost = new ArrayList<>();

    /**
     * What the model of the runtime does. {@code bufferedCheck}: no period while another thread has a store
     * buffered; {@code idleFenced}: a fence of each idle thread at the grant (the rule before the ring); {@code ring}:
     * the hand-over ring of {@code ringSize} entries (otherwise what the period left out is dropped);
     * {@code handOverFence}: a fence of the solo thread where the period ends (the rule before the ring).
     */
    private record Rules(boolean bufferedCheck, boolean idleFenced, boolean ring, int ringSize, boolean handOverFence,
            int dropOneIn, boolean lone) {
        static final Rules AGENT = new Rules(true, false, true, 256, false, 0, false);
        /** The agent's rules with a ring of two entries, materialized whenever it is full. */
        static final Rules SMALL_RING = new Rules(true, false, true, 2, false, 0, false);
        /** A ring of two that, one time in three it is full, cannot be materialized and drops its oldest entry. */
        static final Rules DROPPING_RING = new Rules(true, false, true, 2, false, 3, false);
        /**
         * A ring of two that, in a period of the only thread with a log, drops when full; a thread that begins after
         * the grant is started by the solo thread (a full fence of it, in both streams: the program's start).
         */
        static final Rules LONE = new Rules(true, false, true, 2, false, 0, true);
        /** The rules before the ring: fences at both ends, everything left out dropped. */
        static final Rules FENCES = new Rules(false, true, false, 0, true, 0, false);
    }

    @Test
    void everyReportIsGenuineAndNoRaceIsLost() {
        int programs = Math.max(800, DifferentialSupport.programs() / 5);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 29), programs, Rules.AGENT);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("solo periods: %d programs, %d streams with a period (%d periods, %d refused for a buffered "
                + "store, %d operations left out, %d kept for the hand-over, %d overflowed): %d TSO and PSO reports "
                + "genuine for the full program; races lost: %d%n", programs, streams, periods, refused, leftOut, kept,
                overflowed, reports, lostRaces);
        assertTrue(lost.isEmpty(), "races the full stream has and the period's stream has not: "
                + String.join("\n", lost.subList(0, Math.min(5, lost.size()))));
        assertTrue(periods > 10_000, "too few solo periods to say anything: " + periods);
        assertTrue(kept > 10_000, "too few operations kept for a hand-over to say anything: " + kept);
        assertTrue(reports > 300, "too few reports on streams with a period to say anything: " + reports);
    }

    /** A ring of two entries is full often: materialized then into the log, it loses nothing. */
    @Test
    void aFullRingMaterializedLosesNothing() {
        int programs = Math.max(800, DifferentialSupport.programs() / 5);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 47), programs, Rules.SMALL_RING);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("solo periods, a ring of two: %d materialized when full, %d reports genuine, %d races lost%n",
                materialized, reports, lostRaces);
        assertTrue(materialized > 1000, "the ring was full too rarely: " + materialized);
        assertTrue(lost.isEmpty(), "races lost: " + lost.subList(0, Math.min(3, lost.size())));
    }

    /**
     * The only thread with a log drops what its full ring does not hold: a thread that begins later is one it starts,
     * and its start fences it first (every store committed, the child knows all it did), so nothing is lost.
     */
    @Test
    void aLoneThreadsRingDropsAndLosesNothingBeforeItsStart() {
        int programs = Math.max(800, DifferentialSupport.programs() / 5);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 53), programs, Rules.LONE);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("solo periods of a lone thread, a ring of two that drops: %d streams dropped, %d reports "
                + "genuine, %d races lost%n", loneDropped, reports, lostRaces);
        assertTrue(loneDropped > 300, "the lone ring dropped in too few streams: " + loneDropped);
        assertTrue(lost.isEmpty(), "races lost: " + lost.subList(0, Math.min(3, lost.size())));
    }

    /**
     * A full ring that cannot be materialized (a thread ending the period holds a stripe) drops its oldest entry, a
     * store as committed early with every store before it (a full fence before the entries kept; dropping the store
     * alone made false reports, the stores before it still buffered although another thread read it): every report
     * stays genuine.
     */
    @Test
    void aRingThatDropsStaysGenuine() {
        int programs = Math.max(800, DifferentialSupport.programs() / 5);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 41), programs, Rules.DROPPING_RING);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("solo periods, a ring of two that drops: %d streams dropped, %d reports genuine, %d races "
                + "lost%n", overflowed, reports, lostRaces);
        assertTrue(overflowed > 500, "the ring dropped in too few streams: " + overflowed);
        assertTrue(lost.isEmpty(), "a race lost where the ring did not drop: " + lost);
    }

    /** A period granted while another thread has a store buffered, and no fence of it: false reports. */
    @Test
    void aPeriodWhileAnIdleThreadHasAStoreBufferedCanReportWhatTheRunDidNot() {
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 31),
                Math.max(1500, DifferentialSupport.programs() / 2), new Rules(false, false, true, 256, false, 0, false), 1);
        assertTrue(!failures.isEmpty(), "no false report in " + streams + " streams without the buffered-store check");
        System.out.println("solo periods without the buffered-store check, as expected: " + failures.get(0));
    }

    /** The rules before the ring (a fence at each end, all left out dropped) keep reports genuine but lose races. */
    @Test
    void fencesAtTheEndsOfAPeriodLoseRaces() {
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 37),
                Math.max(1500, DifferentialSupport.programs() / 2), Rules.FENCES, 1);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        assertTrue(lostRaces > 50 && !lost.isEmpty(), "the fences lost only " + lostRaces + " races");
        System.out.println("solo periods with fences at both ends, as expected: " + lostRaces + " races lost; first: "
                + lost.get(0));
    }

    /** The ring, with the fence at the period's end that the ring replaces: races lost. */
    @Test
    void aFenceWhereThePeriodEndsLosesRaces() {
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 43),
                Math.max(1500, DifferentialSupport.programs() / 2), new Rules(true, false, true, 256, true, 0, false), 1);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        assertTrue(lostRaces > 20 && !lost.isEmpty(), "the end fence lost only " + lostRaces + " races");
        System.out.println("solo periods ended with a fence, as expected: " + lostRaces + " races lost; first: "
                + lost.get(0));
    }

    private List<String> randomPrograms(Random rnd, int programs, Rules rules) {
        return randomPrograms(rnd, programs, rules, Integer.MAX_VALUE);
    }

    /** The programs' failures (false reports), stopping early at 5 of them or once {@code enough} races are lost. */
    private List<String> randomPrograms(Random rnd, int programs, Rules rules, int enough) {
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < programs && failures.size() < 5 && (lostRaces < 100 || lost.size() < enough); i++) {
            Program p = SampledObjectsDifferentialTest.withFences(rnd, longer(rnd));
            Interleavings.Named named = Interleavings.name(p);
            boolean[] leave = new boolean[p.size()];
            for (int g = 0; g < leave.length; g++) {
                leave[g] = rnd.nextInt(5) != 0; // the rest stand for what a period logs: a static field, a start
            }
            for (int[] order : SampledObjectsDifferentialTest.orders(rnd, p)) {
                int[] sources = SampledObjectsDifferentialTest.sources(p, named.base(), order);
                for (int k = 0; k < 3 && failures.size() < 5; k++) {
                    Streams s = streams(p, named, order, leave, rules, rnd);
                    if (s == null) {
                        break; // no thread runs alone in this interleaving
                    }
                    CheckResult r = run(named, s.reduced);
                    CheckResult full = run(named, s.full);
                    for (Analysis analysis : List.of(Analysis.TSO, Analysis.PSO)) {
                        OperationalOracle.Model model = analysis == Analysis.TSO ? OperationalOracle.Model.TSO
                                : OperationalOracle.Model.PSO_JAVA;
                        Set<Interleavings.Pair> got = Interleavings.pairs(r.violationsOf(analysis), named.base());
                        for (Interleavings.Pair v : got) {
                            reports++;
                            if (OperationalOracle.findNonScKeepingReads(p, model, order, v.access(), v.store(),
                                    sources) == null) {
                                failures.add("program " + i + ", interleaving " + Arrays.toString(order)
                                        + ", left out " + Arrays.toString(leave) + ", stream " + show(s.reduced)
                                        + ": UNSOUND " + analysis + " report of store " + v.store() + " before access "
                                        + v.access() + "\n" + p);
                                break;
                            }
                        }
                        Set<Interleavings.Pair> missing = new HashSet<>(Interleavings.pairs(full.violationsOf(analysis),
                                named.base()));
                        missing.removeAll(got);
                        if (!missing.isEmpty()) {
                            lostRaces += missing.size();
                            if (!s.overflowed) {
                                lost.add("program " + i + ", interleaving " + Arrays.toString(order) + ": " + analysis
                                        + " lost " + missing + "; full stream " + show(s.full) + "; period's stream "
                                        + show(s.reduced) + "\n" + p);
                            }
                        }
                    }
                }
            }
        }
        return failures;
    }

    private static CheckResult run(Interleavings.Named named, List<int[]> stream) {
        Checker checker = SampledObjectsDifferentialTest.checker(named.symbols());
        for (int[] e : stream) {
            checker.event(e[0], e[1], e[2], e[3] >= 0 ? named.siteOf()[e[3]] : -1);
        }
        return checker.result();
    }

    /** A random program with threads a little longer than {@link Program#random}'s, so a thread alone does more. */
    private static Program longer(Random rnd) {
        Program p = Program.random(rnd, Program.Ops.JAVA);
        List<List<Program.Op>> threads = new ArrayList<>();
        for (List<Program.Op> ops : p.threads()) {
            List<Program.Op> copy = new ArrayList<>(ops);
            for (int extra = rnd.nextInt(3); extra > 0; extra--) {
                Program.Op op = Program.random(rnd, Program.Ops.JAVA).threads().get(0).get(0);
                if (op.address() < p.addresses()) {
                    copy.add(rnd.nextInt(copy.size() + 1), op);
                }
            }
            threads.add(copy);
        }
        return new Program(threads, p.addresses());
    }

    /** The full stream of an interleaving and the stream the agent's checker is fed with one period in it. */
    private record Streams(List<int[]> full, List<int[]> reduced, boolean overflowed) {
    }

    /** The solo thread's hand-over ring, as runtime.Solo keeps it. */
    private static final class Ring {
        final int size;
        final Deque<int[]> entries = new ArrayDeque<>();
        int fence; // 0, or the code of the fence before the entries
        boolean unflushed;
        boolean sinceFence;
        boolean overflowed;

        final int dropOneIn;
        boolean lone;
        boolean loneDropped;
        final Random rnd;
        final List<int[]> out;
        final int solo;
        int materialized;

        Ring(int size, int dropOneIn, Random rnd, List<int[]> out, int solo) {
            this.size = size;
            this.dropOneIn = dropOneIn;
            this.rnd = rnd;
            this.out = out;
            this.solo = solo;
        }

        /** An operation of the solo thread the period leaves out; returns whether it is kept. */
        boolean leaveOut(int[] e) {
            int code = e[0];
            if (code == EventKind.LOAD.code()) {
                return unflushed && add(e);
            }
            if (code == EventKind.STORE.code() || code == EventKind.RELEASE_STORE.code()) {
                unflushed = true;
                sinceFence = true;
                return add(e);
            }
            if (code == EventKind.STORE_STORE_FENCE.code()) {
                if (!sinceFence) {
                    return false;
                }
                sinceFence = false;
                if (entries.isEmpty()) {
                    fence = fence == 0 ? code : fence;
                    return false;
                }
                return add(e);
            }
            if (code == EventKind.LOAD_FENCE.code()) {
                return false;
            }
            // volatile store, interlocked, full fence
            entries.clear();
            fence = EventKind.FULL_FENCE.code();
            unflushed = false;
            sinceFence = false;
            return false;
        }

        private boolean add(int[] e) {
            if (entries.size() == size && lone) {
                loneDropped = true; // dropped below; the start of the next thread fences the solo thread
            } else if (entries.size() == size && (dropOneIn == 0 || rnd.nextInt(dropOneIn) != 0)) {
                materialized++;
                flush(out, solo); // materialized into the log: exactly where it belongs
            }
            if (entries.size() == size) {
                int[] old = entries.removeFirst();
                overflowed |= !lone;
                if (old[0] != EventKind.LOAD.code()) {
                    // a store dropped is one committed early, and with it every store before it: a full fence before
                    // the entries kept (a StoreStore fence dropped is subsumed)
                    fence = EventKind.FULL_FENCE.code();
                }
            }
            entries.addLast(e);
            return true;
        }

        /** An operation of the solo thread that is logged: what it does to the thread's flags (ThreadLog.offer). */
        void logged(int code) {
            if (code == EventKind.STORE.code() || code == EventKind.RELEASE_STORE.code()) {
                unflushed = true;
                sinceFence = true;
            } else if (code == EventKind.STORE_STORE_FENCE.code()) {
                sinceFence = false;
            } else if (code != EventKind.LOAD.code() && code != EventKind.LOAD_FENCE.code()) {
                unflushed = false;
                sinceFence = false;
            }
        }

        /** Materialized or fed: the fence, then the entries, into {@code out}; the ring is then empty. */
        void flush(List<int[]> out, int solo) {
            if (fence != 0) {
                out.add(new int[] {fence, solo, -1, -1});
                fence = 0;
            }
            out.addAll(entries);
            entries.clear();
        }
    }

    /**
     * The full stream of interleaving {@code order} and the one the agent's checker would be fed with one solo period
     * drawn at random (events as {kind, thread, operand, operation or -1}), or null when there is no stretch for one.
     */
    private Streams streams(Program p, Interleavings.Named named, int[] order, boolean[] leave, Rules rules, Random rnd) {
        int[] base = named.base();
        int threads = p.threads().size();
        int n = order.length;
        int[] first = new int[threads];
        int[] last = new int[threads];
        Arrays.fill(first, -1);
        for (int i = 0; i < n; i++) {
            if (first[order[i]] < 0) {
                first[order[i]] = i;
            }
            last[order[i]] = i;
        }
        // stretches in which one thread runs and every other is idle, has ended or has not begun
        List<int[]> stretches = new ArrayList<>(); // {thread, from, to (exclusive)}
        for (int i = 0; i < n;) {
            int j = i;
            while (j < n && order[j] == order[i]) {
                j++;
            }
            stretches.add(new int[] {order[i], i, j});
            i = j;
        }
        int[] s = stretches.get(rnd.nextInt(stretches.size()));
        int solo = s[0];
        int grant = s[1] + rnd.nextInt(s[2] - s[1]); // the period covers operations grant..revoke-1
        int revoke = grant + 1 + rnd.nextInt(s[2] - grant);
        // a thread that ended before the grant: its end fed at a random point after its last operation (before the
        // grant half the time); the others' ends at random points after their last operation (and after the grant
        // fence, with the fences)
        boolean[] fencedAtGrant = new boolean[threads];
        int[] endAt = new int[threads];
        for (int t = 0; t < threads; t++) {
            boolean begun = first[t] >= 0 && first[t] < grant;
            boolean endedBefore = last[t] < grant;
            if (t != solo && begun && endedBefore && rnd.nextBoolean()) {
                endAt[t] = last[t] + 1 + rnd.nextInt(grant - last[t]);
            } else {
                fencedAtGrant[t] = t != solo && begun && rules.idleFenced();
                int after = fencedAtGrant[t] ? Math.max(last[t], grant) : last[t];
                endAt[t] = after + 1 + rnd.nextInt(n - after);
            }
        }
        List<int[]> full = new ArrayList<>();
        List<int[]> out = new ArrayList<>();
        Ring ring = new Ring(rules.ringSize(), rules.dropOneIn(), rnd, out, solo);
        // lone: no other thread begun and not ended (its end fed) at the grant; a thread that begins after is started
        // by the solo thread, whose start is a full fence of it, in the program (both streams)
        boolean lone = rules.lone();
        for (int t = 0; t < threads && lone; t++) {
            boolean begun = first[t] >= 0 && first[t] < grant;
            lone = t == solo || !begun || last[t] < grant && endAt[t] <= grant;
        }
        if (rules.lone() && !lone) {
            return null; // this rule is about lone periods only
        }
        ring.lone = lone;
        int[] pc = new int[threads];
        boolean any = false;
        for (int i = 0; i <= n; i++) {
            for (int t = 0; t < threads; t++) {
                if (endAt[t] == i && t != solo) {
                    int[] end = {Kinds.THREAD_END, t, -1, -1};
                    full.add(end);
                    out.add(end);
                }
            }
            if (i == grant) {
                if (rules.bufferedCheck()) {
                    Checker prefix = SampledObjectsDifferentialTest.checker(named.symbols());
                    for (int[] e : out) {
                        prefix.event(e[0], e[1], e[2], e[3] >= 0 ? named.siteOf()[e[3]] : -1);
                    }
                    for (int t = 0; t < threads; t++) {
                        if (t != solo && first[t] >= 0 && first[t] < grant && prefix.storesBuffered(t)) {
                            refused++;
                            return null; // no period while another thread has a store buffered
                        }
                    }
                }
                for (int t = 0; t < threads; t++) {
                    if (fencedAtGrant[t]) {
                        out.add(new int[] {EventKind.FULL_FENCE.code(), t, -1, -1});
                    }
                }
            }
            if (i == revoke) {
                ring.flush(out, solo); // fed where the period ends: before anything else of the solo thread
                if (rules.handOverFence()) {
                    out.add(new int[] {EventKind.FULL_FENCE.code(), solo, -1, -1});
                }
            }
            if (i == n) {
                break;
            }
            int t = order[i];
            if (lone && t != solo && first[t] == i && i >= grant) {
                int[] start = {EventKind.FULL_FENCE.code(), solo, -1, -1}; // the solo thread starts t
                full.add(start);
                out.add(start);
            }
            int ref = base[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            int[] e = {op.kind().code(), t, op.address(), ref};
            full.add(e);
            if (t == solo && i < grant) {
                ring.logged(e[0]);
            }
            if (t == solo && i >= grant && i < revoke) {
                if (leave[ref]) {
                    leftOut++;
                    any = true;
                    if (rules.ring() && ring.leaveOut(e)) {
                        kept++;
                    }
                    continue;
                }
                ring.flush(out, solo); // materialized before an event the period logs
                ring.logged(e[0]);
            }
            out.add(e);
        }
        periods++;
        if (any) {
            streams++;
        }
        if (ring.overflowed) {
            overflowed++;
        }
        materialized += ring.materialized;
        loneDropped += ring.loneDropped ? 1 : 0;
        return new Streams(full, out, ring.overflowed);
    }

    private static String show(List<int[]> stream) {
        StringBuilder b = new StringBuilder();
        for (int[] e : stream) {
            b.append(EventKind.of(e[0]).label()).append(" T").append(e[1]).append(e[2] >= 0 ? " a" + e[2] : "")
                    .append("; ");
        }
        return b.toString();
    }
}
