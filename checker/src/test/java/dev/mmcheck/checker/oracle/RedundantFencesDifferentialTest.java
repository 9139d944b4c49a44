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

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The agent's runtime does not log a StoreStore fence (a constructor's final-field freeze, a release
 * fence) when its thread has logged no plain or release store since its last fence, volatile store,
 * interlocked operation or monitor (docs/agent.md, "Fences that are not logged"): PSO's only use of the
 * fence is to start a new generation of buffered stores, and with none buffered since the last flush or
 * generation the new one orders nothing differently; TSO, the clocks and the serializability checks do
 * nothing with it. This test applies that rule to random programs with many StoreStore fences and
 * requires the monitors' reports on every interleaving to be exactly the same with and without the
 * fences it leaves out.
 */
class RedundantFencesDifferentialTest {

    /** The StoreStore fences the runtime leaves out of {@code p} (true at their operation numbers). */
    static boolean[] redundant(Program p) {
        boolean[] out = new boolean[p.size()];
        int g = 0;
        for (List<Program.Op> ops : p.threads()) {
            boolean storesSinceFence = false;
            for (Program.Op op : ops) {
                switch (op.kind()) {
                    case STORE, RELEASE_STORE -> storesSinceFence = true;
                    case STORE_STORE_FENCE -> {
                        out[g] = !storesSinceFence;
                        storesSinceFence = false;
                    }
                    case VOLATILE_STORE, INTERLOCKED, FULL_FENCE -> storesSinceFence = false;
                    default -> { }
                }
                g++;
            }
        }
        return out;
    }

    /** A random program with a StoreStore fence inserted here and there. */
    private static Program fenced(Random rnd) {
        Program p = Program.random(rnd, Program.Ops.JAVA);
        List<List<Program.Op>> threads = new ArrayList<>();
        for (List<Program.Op> t : p.threads()) {
            List<Program.Op> copy = new ArrayList<>();
            for (Program.Op op : t) {
                if (rnd.nextInt(3) == 0) {
                    copy.add(new Program.Op(EventKind.STORE_STORE_FENCE, -1));
                }
                copy.add(op);
            }
            threads.add(copy);
        }
        return new Program(threads, p.addresses());
    }

    @Test
    void leavingOutRedundantStoreStoreFencesChangesNoReport() {
        Random rnd = new Random(DifferentialSupport.seed() + 13);
        int programs = Math.max(300, DifferentialSupport.programs() / 3);
        List<String> failures = new ArrayList<>();
        int left = 0;
        int reports = 0;
        long interleavings = 0;
        for (int i = 0; i < programs && failures.size() < 5; i++) {
            Program p = fenced(rnd);
            boolean[] drop = redundant(p);
            boolean[] none = new boolean[p.size()];
            for (boolean d : drop) {
                left += d ? 1 : 0;
            }
            Interleavings.Named named = Interleavings.name(p);
            for (int[] order : Interleavings.of(p, 100)) {
                interleavings++;
                CheckResult all = Interleavings.check(p, named, order, MonitorConfig.defaults(), none);
                CheckResult fewer = Interleavings.check(p, named, order, MonitorConfig.defaults(), drop);
                for (Analysis a : List.of(Analysis.TSO, Analysis.PSO)) {
                    var with = Interleavings.pairs(all.violationsOf(a), named.base());
                    var without = Interleavings.pairs(fewer.violationsOf(a), named.base());
                    reports += with.size();
                    if (!with.equals(without)) {
                        failures.add("program " + i + ", interleaving " + Arrays.toString(order) + ": " + a
                                + " reports " + with + " with every fence but " + without + " without "
                                + Arrays.toString(drop) + "\n" + p);
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("redundant StoreStore fences: %d programs, %d interleavings, %d fences left out, %d reports "
                + "unchanged%n", programs, interleavings, left, reports);
        assertTrue(left > 100 && reports > 1000, "too little exercised: " + left + " fences, " + reports + " reports");
    }
}
