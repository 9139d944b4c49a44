package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.jmm.AccessMode;
import dev.mmcheck.checker.jmm.FenceKind;
import dev.mmcheck.checker.jmm.RobustnessMonitor;
import dev.mmcheck.checker.jmm.RobustnessViolation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A retired location ({@code RobustnessMonitor.retire}: its object was collected, or the address bound let it go) is a
 * new location whose initial value every thread knows. So a run that retires location x at some step and goes on using
 * x must report exactly what the same run reports with x's later accesses renamed to a location never used before:
 * the same kind at the same event of the same thread, naming the same writes (the retired location's last write is the
 * new one's initial value). On random programs longer than the oracle's (2-3 threads of 4-9 operations on 2-3
 * locations, every mode, read-modify-writes, compare-and-sets and fences: long enough for a thread to read a location
 * before and after its retirement), random SC interleavings, one or two retirements each at a random step, with and
 * without validated reads.
 *
 * <p>This is the differential test of what a retirement resets and of the work the monitor leaves out across one (the
 * location's m is above a reader's old sc only within a life; its views are reset lazily). It fails when a retirement
 * does not end the location's life for the readers' memos ({@code Loc.renew} not counting lives), when a read trusts
 * the memo across a life ({@code mHadSc} always true), and when the lazy reset leaves the old entries
 * ({@code View.settle} not clearing); each mutation made, the test run, then reverted (2026-11-29).
 *
 * <p>The second test is the differential test of the other way a location forgets old writes, the bounded write log.
 */
class RetireDifferentialTest {

    @Test
    void retiringIsRenaming() {
        Random rnd = new Random(Long.getLong("mmcheck.jmm.seed", 20261129L));
        int programs = Integer.getInteger("mmcheck.jmm.programs", 3000);
        List<String> failures = new ArrayList<>();
        long runs = 0;
        long reports = 0;
        long retiredReports = 0;
        for (int i = 0; i < programs && failures.size() < 3; i++) {
            JmmProgram p = program(rnd);
            for (int r = 0; r < 12 && failures.isEmpty(); r++) {
                int[] order = interleaving(rnd, p);
                int retirements = 1 + rnd.nextInt(2);
                int[] at = new int[retirements];
                int[] loc = new int[retirements];
                for (int k = 0; k < retirements; k++) {
                    at[k] = rnd.nextInt(order.length + 1);
                    loc[k] = rnd.nextInt(p.locations());
                }
                boolean validate = rnd.nextBoolean();
                List<String> retired = run(p, order, at, loc, validate, true);
                List<String> renamed = run(p, order, at, loc, validate, false);
                runs++;
                reports += renamed.size();
                retiredReports += renamed.stream().filter(s -> !s.contains(" life 0 ")).count();
                if (!retired.equals(renamed)) {
                    failures.add("program " + i + ":\n" + p + "order " + java.util.Arrays.toString(order)
                            + ", retire " + java.util.Arrays.toString(loc) + " before steps "
                            + java.util.Arrays.toString(at) + (validate ? ", validated reads" : "")
                            + "\nretired: " + retired + "\nrenamed: " + renamed);
                }
            }
        }
        System.out.printf("retire as renaming: %d runs, %d reports, %d of them on a location after its retirement%n",
                runs, reports, retiredReports);
        if (!failures.isEmpty()) {
            fail(String.join("\n\n", failures));
        }
        assertTrue(retiredReports > runs / 50, "too few reports after a retirement to tell anything");
    }

    /**
     * A bounded write log ({@code RobustnessMonitor.boundWriteLog}: each location keeps its latest N writes at least)
     * reports no event the unbounded one does not (the write it names may be newer, and a compare-and-set that can
     * both fail on one older write and follow another may be reported as the other), and misses at most as many as
     * its count says ({@code logLimited}). Programs as above, with bounds of 1
     * and 2 writes so that the log is trimmed often; no retirements.
     */
    @Test
    void aBoundedWriteLogLosesOnlyWhatItCounts() {
        Random rnd = new Random(Long.getLong("mmcheck.jmm.seed", 20261129L) + 1);
        int programs = Integer.getInteger("mmcheck.jmm.programs", 3000);
        List<String> failures = new ArrayList<>();
        long runs = 0;
        long lost = 0;
        long counted = 0;
        long kept = 0;
        for (int i = 0; i < programs && failures.size() < 3; i++) {
            JmmProgram p = program(rnd);
            for (int r = 0; r < 12 && failures.isEmpty(); r++) {
                int[] order = interleaving(rnd, p);
                int bound = 1 + rnd.nextInt(2);
                boolean validate = rnd.nextBoolean();
                List<RobustnessViolation> all = new ArrayList<>();
                List<RobustnessViolation> some = new ArrayList<>();
                RobustnessMonitor full = new RobustnessMonitor(all::add);
                RobustnessMonitor bounded = new RobustnessMonitor(some::add);
                bounded.boundWriteLog(bound);
                if (validate) {
                    full.validateReads(v -> { }, v -> { });
                    bounded.validateReads(v -> { }, v -> { });
                }
                feed(p, order, full);
                feed(p, order, bounded);
                runs++;
                List<String> allKeys = new ArrayList<>();
                for (RobustnessViolation v : all) {
                    allKeys.add("@" + v.event());
                }
                List<String> someKeys = new ArrayList<>();
                for (RobustnessViolation v : some) {
                    someKeys.add("@" + v.event());
                }
                List<String> extra = new ArrayList<>(someKeys);
                allKeys.forEach(extra::remove);
                List<String> missing = new ArrayList<>(allKeys);
                someKeys.forEach(missing::remove);
                lost += missing.size();
                counted += bounded.logLimited();
                kept += some.size();
                if (!extra.isEmpty() || missing.size() > bounded.logLimited()) {
                    failures.add("program " + i + ":\n" + p + "order " + java.util.Arrays.toString(order) + ", bound "
                            + bound + (validate ? ", validated reads" : "") + "\nunbounded: " + all + "\nbounded: "
                            + some + "\ncounted " + bounded.logLimited());
                }
            }
        }
        System.out.printf("bounded write log: %d runs, %d reports kept, %d lost, %d checks counted as possibly lost%n",
                runs, kept, lost, counted);
        if (!failures.isEmpty()) {
            fail(String.join("\n\n", failures));
        }
        assertTrue(lost > runs / 100 && kept > runs / 10, "the bound must both keep and lose reports here");
    }

    private static void feed(JmmProgram p, int[] order, RobustnessMonitor m) {
        int[] pc = new int[p.threads().size()];
        long[] mem = new long[p.locations()];
        for (int g = 0; g < order.length; g++) {
            int t = order[g];
            JmmRuns.feed(m, p.threads().get(t).get(pc[t]++), t, g, mem, true);
        }
        m.flush();
    }

    /**
     * The reports of one run of {@code p} in {@code order}, location {@code loc[k]} retired before step {@code at[k]}:
     * with {@code retire}, by {@link RobustnessMonitor#retire}; otherwise by renaming its later accesses to a location
     * of its own. Each report as kind, event, thread, the program's location and how many times it was retired before
     * the event, and the writes it names (and the monitor's location if it is not the one the event was fed with).
     */
    private static List<String> run(JmmProgram p, int[] order, int[] at, int[] loc, boolean validate, boolean retire) {
        List<RobustnessViolation> got = new ArrayList<>();
        RobustnessMonitor m = new RobustnessMonitor(got::add);
        if (validate) {
            m.validateReads(v -> { }, v -> { });
        }
        int n = p.locations();
        int[] name = new int[n];       // the monitor's location for each of the program's
        int[] lives = new int[n];      // retirements of each so far
        for (int x = 0; x < n; x++) {
            name[x] = x;
        }
        int fresh = n;
        String[] label = new String[order.length];  // per event: its location's name and life
        int[] fed = new int[order.length];          // per event: the monitor's location it was fed with
        long[] mem = new long[n + at.length];
        int[] pc = new int[p.threads().size()];
        for (int g = 0; g <= order.length; g++) {
            for (int k = 0; k < at.length; k++) {
                if (at[k] != g) {
                    continue;
                }
                int x = loc[k];
                lives[x]++;
                if (retire) {
                    m.retire(name[x]);
                } else {
                    int y = fresh++;
                    mem[y] = mem[name[x]];
                    name[x] = y;
                }
            }
            if (g == order.length) {
                break;
            }
            int t = order[g];
            JmmProgram.Op op = p.threads().get(t).get(pc[t]++);
            if (op.kind() != JmmProgram.Kind.FENCE) {
                label[g] = JmmProgram.locationName(op.loc()) + " life " + lives[op.loc()];
                fed[g] = name[op.loc()];
            }
            JmmRuns.feed(m, renamed(op, name), t, g, mem, false);
        }
        m.flush();
        List<String> out = new ArrayList<>();
        for (RobustnessViolation v : got) {
            int g = (int) v.event();
            out.add(v.kind() + "@" + g + " t" + v.thread() + " " + label[g]
                    + (v.location() == fed[g] ? "" : " (reported at location " + v.location() + ")")
                    + " sc " + v.scWrite() + " visible " + v.visibleWrite());
        }
        return out;
    }

    /** A random program: 2-3 threads of 4-9 operations on 2-3 locations. */
    private static JmmProgram program(Random rnd) {
        int locations = 2 + rnd.nextInt(2);
        List<List<JmmProgram.Op>> threads = new ArrayList<>();
        for (int t = 2 + rnd.nextInt(2); t > 0; t--) {
            List<JmmProgram.Op> ops = new ArrayList<>();
            for (int i = 4 + rnd.nextInt(6); i > 0; i--) {
                ops.add(op(rnd, locations));
            }
            threads.add(ops);
        }
        return new JmmProgram(threads, locations);
    }

    private static JmmProgram.Op op(Random rnd, int locations) {
        int loc = rnd.nextInt(locations);
        long value = 1 + rnd.nextInt(2);
        AccessMode[] modes = AccessMode.values();
        int r = rnd.nextInt(100);
        if (r < 40) {
            AccessMode m = modes[rnd.nextInt(modes.length)];
            return new JmmProgram.Op(JmmProgram.Kind.LOAD, loc, m == AccessMode.RELEASE ? AccessMode.PLAIN : m, null, 0,
                    0);
        }
        if (r < 70) {
            AccessMode m = modes[rnd.nextInt(modes.length)];
            return new JmmProgram.Op(JmmProgram.Kind.STORE, loc, m == AccessMode.ACQUIRE ? AccessMode.PLAIN : m, null,
                    value, 0);
        }
        if (r < 78) {
            return new JmmProgram.Op(JmmProgram.Kind.RMW, loc, modes[rnd.nextInt(modes.length)], null, value, 0);
        }
        if (r < 88) {
            return new JmmProgram.Op(JmmProgram.Kind.CAS, loc, modes[rnd.nextInt(modes.length)], null, value,
                    rnd.nextInt(3));
        }
        FenceKind[] fences = FenceKind.values();
        return new JmmProgram.Op(JmmProgram.Kind.FENCE, -1, null, fences[rnd.nextInt(fences.length)], 0, 0);
    }

    /** A random SC interleaving of {@code p}: a thread number per operation. */
    private static int[] interleaving(Random rnd, JmmProgram p) {
        int[] left = new int[p.threads().size()];
        int total = 0;
        for (int t = 0; t < left.length; t++) {
            left[t] = p.threads().get(t).size();
            total += left[t];
        }
        int[] order = new int[total];
        for (int g = 0; g < total; g++) {
            int t;
            do {
                t = rnd.nextInt(left.length);
            } while (left[t] == 0);
            left[t]--;
            order[g] = t;
        }
        return order;
    }

    private static JmmProgram.Op renamed(JmmProgram.Op op, int[] name) {
        if (op.kind() == JmmProgram.Kind.FENCE) {
            return op;
        }
        return new JmmProgram.Op(op.kind(), name[op.loc()], op.mode(), op.fence(), op.value(), op.expected());
    }
}
