package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The soundness and completeness theorems of Burnim et al. (Theorems 3-6), checked on random programs
 * with the papers' own operations (load, store, interlocked) and semantics: monitor_TSO (resp.
 * monitor_PSO) reports on some SC interleaving exactly when some TSO (resp. PSO) run yields a trace
 * that is not SC. Also: whenever Sober reports on some interleaving, so does monitor_TSO.
 */
class PaperSemanticsDifferentialTest {

    @Test
    void monitorsAgreeWithTheOperationalModels() {
        Random rnd = new Random(DifferentialSupport.seed());
        int programs = DifferentialSupport.programs();
        List<String> failures = new ArrayList<>();
        int tsoBuggy = 0;
        int psoBuggy = 0;
        int soberBuggy = 0;
        for (int i = 0; i < programs; i++) {
            Program p = Program.random(rnd, Program.Ops.PAPER);
            boolean tso = OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO) != null;
            boolean pso = OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_PAPER) != null;
            MonitorRuns runs = MonitorRuns.run(p, EnumSet.of(Analysis.TSO, Analysis.PSO, Analysis.SOBER),
                    MonitorConfig.paper());
            tsoBuggy += tso ? 1 : 0;
            psoBuggy += pso ? 1 : 0;
            soberBuggy += runs.reported(Analysis.SOBER) ? 1 : 0;
            if (runs.reported(Analysis.TSO) != tso) {
                failures.add("program " + i + ": monitor_TSO " + verdict(runs, Analysis.TSO) + " but the TSO oracle "
                        + (tso ? "finds a non-SC trace" : "finds none") + "\n" + p);
            }
            if (runs.reported(Analysis.PSO) != pso) {
                failures.add("program " + i + ": monitor_PSO " + verdict(runs, Analysis.PSO) + " but the PSO oracle "
                        + (pso ? "finds a non-SC trace" : "finds none") + "\n" + p);
            }
            if (runs.reported(Analysis.SOBER) && !runs.reported(Analysis.TSO)) {
                failures.add("program " + i + ": Sober " + verdict(runs, Analysis.SOBER)
                        + " but monitor_TSO reports on no interleaving\n" + p);
            }
            if (failures.size() > 5) {
                break;
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("paper semantics: %d programs, non-SC under TSO %d, under PSO %d, Sober reports %d%n",
                programs, tsoBuggy, psoBuggy, soberBuggy);
        // the generator must exercise both verdicts, or the agreement above proves little
        assertTrue(tsoBuggy > programs / 20 && tsoBuggy < programs - programs / 20, "TSO verdicts too one-sided");
        assertTrue(psoBuggy > tsoBuggy, "PSO must find more than TSO on random programs");
        assertEquals(true, soberBuggy > 0, "Sober never reported");
    }

    private static String verdict(MonitorRuns runs, Analysis a) {
        return runs.reported(a) ? "reports on interleaving " + Arrays.toString(runs.reportedOn(a))
                : "reports on none of " + runs.interleavings() + " interleavings";
    }
}
