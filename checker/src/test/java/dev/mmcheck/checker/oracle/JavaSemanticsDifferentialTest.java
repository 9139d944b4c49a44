package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The monitors with Java's operations (release and volatile stores, full and StoreStore fences, CAS as
 * a full fence in PSO) against the operational models extended the same way (docs/mapping.md).
 * Soundness must hold: a report on some interleaving implies a non-SC run exists. Completeness is
 * checked too; docs/monitors.md says what is known about it.
 */
class JavaSemanticsDifferentialTest {

    @Test
    void monitorsAgreeWithTheExtendedOperationalModels() {
        Random rnd = new Random(DifferentialSupport.seed() + 1);
        int programs = DifferentialSupport.programs();
        List<String> failures = new ArrayList<>();
        int tsoBuggy = 0;
        int psoBuggy = 0;
        for (int i = 0; i < programs; i++) {
            Program p = Program.random(rnd, Program.Ops.JAVA);
            boolean tso = OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO) != null;
            boolean pso = OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_JAVA) != null;
            MonitorRuns runs = MonitorRuns.run(p, EnumSet.of(Analysis.TSO, Analysis.PSO, Analysis.SOBER),
                    MonitorConfig.defaults());
            tsoBuggy += tso ? 1 : 0;
            psoBuggy += pso ? 1 : 0;
            check(failures, i, p, runs, Analysis.TSO, tso);
            check(failures, i, p, runs, Analysis.PSO, pso);
            if (runs.reported(Analysis.SOBER) && !runs.reported(Analysis.TSO)) {
                failures.add("program " + i + ": Sober reports on " + Arrays.toString(runs.reportedOn(Analysis.SOBER))
                        + " but monitor_TSO on no interleaving\n" + p);
            }
            if (failures.size() > 8) {
                break;
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("java semantics: %d programs, non-SC under TSO %d, under PSO %d%n", programs, tsoBuggy,
                psoBuggy);
        assertTrue(tsoBuggy > programs / 50, "TSO verdicts too one-sided");
        assertTrue(psoBuggy > tsoBuggy, "PSO must find more than TSO");
    }

    private static void check(List<String> failures, int i, Program p, MonitorRuns runs, Analysis a, boolean oracle) {
        if (runs.reported(a) && !oracle) {
            failures.add("program " + i + ": UNSOUND " + a + " monitor reports on "
                    + Arrays.toString(runs.reportedOn(a)) + " but no " + a.model() + " run is non-SC\n" + p);
        } else if (!runs.reported(a) && oracle) {
            failures.add("program " + i + ": INCOMPLETE " + a + " monitor reports on none of " + runs.interleavings()
                    + " interleavings but a " + a.model() + " run is non-SC\n" + p);
        }
    }
}
