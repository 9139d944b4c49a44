package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Codes;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.report.CheckResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Solo periods (the runtime's {@code Solo}; docs/agent.md, "Accesses of a thread running alone") against
 * the brute force. While one thread is the only thread that logs, the agent leaves its plain loads and
 * stores out. The checker grants a period only once every other thread is quiet and fed, and feeds a full
 * fence of each (or, for one that has ended, its end) first; any other thread's next event ends the
 * period, and makes the checker feed a full fence of the solo thread before anything that thread logs
 * after. Here, on many random programs and SC interleavings, any stretch in which one thread runs while
 * the others are idle, ended or not begun is a period: the checker's stream is made as the agent makes it
 * (the grant and the end at random points in the stretch, the other threads' fences or ends before the
 * grant, the hand-over fence at a random point before another thread's next event, the solo thread's
 * plain accesses inside the period left out), and every TSO and PSO report on it must be a non-SC run of
 * the <em>full</em> program keeping the reads of the SC run, the left-out ones included
 * ({@link OperationalOracle#findNonScKeepingReads}). Two mutations show the test can fail: a period granted
 * without fences of the idle threads, and a period ended without the hand-over fence.
 */
class SoloThreadDifferentialTest {

    private static final int INTERLEAVINGS_PER_PROGRAM = 150;

    private long streams;
    private long periods;
    private long leftOut;
    private int reports;
    private int fullReports;

    /**
     * What the model of the runtime does; the mutations leave a part out: the fences of the threads that are
     * idle when a period is granted, or the solo thread's fence when it ends.
     */
    private record Rules(boolean idleFenced, boolean handOverFence, boolean everyKind) {
        static final Rules AGENT = new Rules(true, true, false);
        /** The agent's rules with the solo thread's synchronization left out too (volatile, release, CAS, fences). */
        static final Rules EVERY_KIND = new Rules(true, true, true);
    }

    @Test
    void everyReportWithSoloPeriodsIsGenuineForTheFullProgram() {
        int programs = Math.max(1500, DifferentialSupport.programs() / 2);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 29), programs, Rules.AGENT);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("solo periods: %d programs, %d streams with a period (%d periods, %d accesses left out): %d "
                + "TSO and PSO reports genuine for the full program (on the full streams: %d)%n", programs, streams,
                periods, leftOut, reports, fullReports);
        assertTrue(periods > 10_000, "too few solo periods to say anything: " + periods);
        assertTrue(reports > 300, "too few reports on streams with a period to say anything: " + reports);
    }

    /**
     * The agent also leaves out the synchronization accesses of the solo thread that cannot block (volatile
     * fields, VarHandle and Unsafe accesses of every mode): the fences at the
     * start and end of a period are what keeps every report genuine, whatever kind the left-out accesses are.
     * Here any operation of the solo thread inside its period may be left out, fences and interlocked ones too.
     */
    @Test
    void everyReportIsGenuineWithTheSoloThreadsSynchronizationLeftOutToo() {
        int programs = Math.max(1500, DifferentialSupport.programs() / 2);
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 41), programs, Rules.EVERY_KIND);
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("solo periods, every kind left out: %d programs, %d streams with a period (%d accesses left "
                + "out): %d TSO and PSO reports genuine for the full program%n", programs, streams, leftOut, reports);
        assertTrue(reports > 300, "too few reports on streams with a period to say anything: " + reports);
    }

    /** A period granted while another thread is idle, without a fence of it (its stores may still be buffered): false reports. */
    @Test
    void aPeriodWithoutFencesOfTheIdleThreadsCanReportWhatTheRunDidNot() {
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 31),
                Math.max(1500, DifferentialSupport.programs() / 2), new Rules(false, true, false));
        assertTrue(!failures.isEmpty(), "no false report in " + streams + " streams without fences of the idle threads");
        System.out.println("solo periods without fences of the idle threads, as expected: " + failures.get(0));
    }

    /**
     * A period ended without the hand-over fence: false reports (the solo thread's stores buffered before the
     * period, which stores and loads left out inside it would have made other threads' accesses commit).
     */
    @Test
    void withoutTheHandOverFenceSomeReportIsNotGenuine() {
        List<String> failures = randomPrograms(new Random(DifferentialSupport.seed() + 37),
                Math.max(1500, DifferentialSupport.programs() / 2), new Rules(true, false, false));
        assertTrue(!failures.isEmpty(), "no false report in " + streams + " streams without the hand-over fence");
        System.out.println("solo periods without the hand-over fence, as expected: " + failures.get(0));
    }

    private List<String> randomPrograms(Random rnd, int programs, Rules rules) {
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < programs && failures.size() < 5; i++) {
            Program p = SampledObjectsDifferentialTest.withFences(rnd, longer(rnd));
            Interleavings.Named named = Interleavings.name(p);
            boolean[] plain = new boolean[p.size()];
            int g = 0;
            for (List<Program.Op> ops : p.threads()) {
                for (Program.Op op : ops) {
                    // a load or store through a volatile field or a non-plain accessor is logged in a period too
                    plain[g++] = (rules.everyKind() || op.kind() == EventKind.LOAD || op.kind() == EventKind.STORE)
                            && rnd.nextInt(5) != 0;
                }
            }
            for (int[] order : SampledObjectsDifferentialTest.orders(rnd, p)) {
                int[] sources = SampledObjectsDifferentialTest.sources(p, named.base(), order);
                for (int k = 0; k < 3 && failures.size() < 5; k++) {
                    List<int[]> stream = stream(p, named.base(), order, plain, rules, rnd);
                    if (stream == null) {
                        break; // no thread runs alone in this interleaving
                    }
                    Checker checker = SampledObjectsDifferentialTest.checker(named.symbols());
                    for (int[] e : stream) {
                        checker.event(e[0], e[1], e[2], e[3] >= 0 ? named.siteOf()[e[3]] : -1);
                    }
                    CheckResult r = checker.result();
                    for (Analysis analysis : List.of(Analysis.TSO, Analysis.PSO)) {
                        OperationalOracle.Model model = analysis == Analysis.TSO ? OperationalOracle.Model.TSO
                                : OperationalOracle.Model.PSO_JAVA;
                        for (Interleavings.Pair v : Interleavings.pairs(r.violationsOf(analysis), named.base())) {
                            reports++;
                            if (OperationalOracle.findNonScKeepingReads(p, model, order, v.access(), v.store(),
                                    sources) == null) {
                                failures.add("program " + i + ", interleaving " + Arrays.toString(order)
                                        + ", plain ops " + Arrays.toString(plain) + ", stream " + show(stream)
                                        + ": UNSOUND " + analysis + " report of store " + v.store() + " before access "
                                        + v.access() + "\n" + p);
                                break;
                            }
                        }
                    }
                }
            }
            fullReports += fullReports(p, named, rnd);
        }
        return failures;
    }

    /** Reports on a few full streams of {@code p} (every event, ends of threads at their end): the control. */
    private static int fullReports(Program p, Interleavings.Named named, Random rnd) {
        int n = 0;
        for (int[] order : SampledObjectsDifferentialTest.orders(rnd, p).subList(0, 3)) {
            CheckResult r = Interleavings.check(p, named, order, dev.mmcheck.checker.monitor.MonitorConfig.defaults(),
                    new boolean[p.size()]);
            n += r.violationsOf(Analysis.TSO).size() + r.violationsOf(Analysis.PSO).size();
        }
        return n;
    }

    /** A random program with threads a little longer than {@link Program#random}'s, so a thread alone does more. */
    private static Program longer(Random rnd) {
        Program p = Program.random(rnd, Program.Ops.JAVA);
        List<List<Program.Op>> threads = new ArrayList<>();
        for (List<Program.Op> ops : p.threads()) {
            List<Program.Op> copy = new ArrayList<>(ops);
            if (rnd.nextBoolean()) {
                Program.Op extra = Program.random(rnd, Program.Ops.JAVA).threads().get(0).get(0);
                if (extra.address() < p.addresses()) {
                    copy.add(rnd.nextInt(copy.size() + 1), extra);
                }
            }
            threads.add(copy);
        }
        return new Program(threads, p.addresses());
    }

    /**
     * The stream the agent's checker would be fed for interleaving {@code order} with one solo period drawn
     * at random (events as {kind, thread, operand, operation or -1}).
     */
    private List<int[]> stream(Program p, int[] base, int[] order, boolean[] plain, Rules rules, Random rnd) {
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
        // the hand-over fence: after the revocation, before the next operation of another thread
        int nextOther = revoke;
        while (nextOther < n && order[nextOther] == solo) {
            nextOther++;
        }
        int fenceAt = revoke + rnd.nextInt(nextOther - revoke + 1);
        // a thread that began before the grant: fenced at the grant (the checker's fence of a quiet log), or, if
        // it ended before, its end fed before the grant instead; its end at a random point after its last operation
        boolean[] fencedAtGrant = new boolean[threads];
        int[] endAt = new int[threads];
        for (int t = 0; t < threads; t++) {
            boolean begun = first[t] < grant;
            boolean endedBefore = last[t] < grant;
            if (t != solo && begun && endedBefore && rnd.nextBoolean()) {
                endAt[t] = last[t] + 1 + rnd.nextInt(grant - last[t]);
            } else {
                fencedAtGrant[t] = t != solo && begun && rules.idleFenced();
                int after = fencedAtGrant[t] ? Math.max(last[t], grant) : last[t]; // a fenced thread ends after the fence
                endAt[t] = after + 1 + rnd.nextInt(n - after);
            }
        }
        List<int[]> out = new ArrayList<>();
        int[] pc = new int[threads];
        boolean any = false;
        for (int i = 0; i <= n; i++) {
            for (int t = 0; t < threads; t++) {
                if (endAt[t] == i && t != solo) {
                    out.add(new int[] {Codes.THREAD_END, t, -1, -1});
                }
                if (i == grant && fencedAtGrant[t]) {
                    out.add(new int[] {EventKind.FULL_FENCE.code(), t, -1, -1});
                }
            }
            if (i == fenceAt && rules.handOverFence()) {
                out.add(new int[] {EventKind.FULL_FENCE.code(), solo, -1, -1});
            }
            if (i == n) {
                break;
            }
            int t = order[i];
            int ref = base[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            if (t == solo && i >= grant && i < revoke && plain[ref]) {
                leftOut++;
                any = true;
                continue;
            }
            out.add(new int[] {op.kind().code(), t, op.address(), ref});
        }
        periods++;
        if (any) {
            streams++;
        }
        return out;
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
