package dev.mmcheck.checker.oracle;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The robustness monitor ({@code jmm.RobustnessMonitor}) against the brute-force oracle of the model
 * ({@link RaOracle}) on random programs with every access mode, fence, read-modify-write,
 * compare-and-set and lock.
 */
class RobustnessDifferentialTest {

    @Test
    void monitorAgreesWithTheModel() {
        Random rnd = new Random(Long.getLong("mmcheck.jmm.seed", 20261128L));
        int programs = Integer.getInteger("mmcheck.jmm.programs", 2000);
        List<String> failures = new ArrayList<>();
        int nonRobust = 0;
        int blindMissed = 0;
        long nodes = 0;
        long distinct = 0;
        long reports = 0;
        Map<String, Long> reportedBy = new TreeMap<>();
        long start = System.nanoTime();
        for (int i = 0; i < programs && failures.size() < 3; i++) {
            JmmProgram p = JmmProgram.random(rnd, JmmProgram.Gen.all());
            RobustnessCheck.Result r = RobustnessCheck.run(p, 3);
            nonRobust += r.nonRobust() ? 1 : 0;
            blindMissed += r.reported() && !r.blindReported() ? 1 : 0;
            nodes += r.nodes();
            distinct += r.distinct();
            reports += r.reports();
            r.reportedBy().forEach((k, v) -> reportedBy.merge(k, v, Long::sum));
            for (String f : r.failures()) {
                failures.add("program " + i + ":\n" + p + f);
            }
        }
        System.out.printf("jmm robustness: %d programs, %d not robust, value-blind CAS missed %d; %d prefixes "
                + "(%d distinct), %d reports checked, in %.1f s%n", programs, nonRobust, blindMissed, nodes, distinct,
                reports, (System.nanoTime() - start) / 1e9);
        System.out.println("reports by operation: " + reportedBy);
        if (!failures.isEmpty()) {
            fail(String.join("\n\n", failures));
        }
        assertTrue(nonRobust > programs / 10 && nonRobust < programs - programs / 10, "verdicts too one-sided");
    }
}
