package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The papers' own examples, over all SC interleavings of each program and against the operational
 * oracle. The single runs of Fig. 7 and Fig. 8 are in src/test/resources/traces (07-, 08-).
 */
class PaperExamplesTest {

    private static MonitorRuns runs(Program p, MonitorConfig config) {
        return MonitorRuns.run(p, EnumSet.allOf(Analysis.class), config);
    }

    /** Burnim Fig. 6/7: monitor_TSO finds the violation, Sober cannot on any SC run. */
    @Test
    void burnimFigure6IsFoundByMonitorTsoButNotBySober() {
        Program p = Program.parse("store a; load a; load b | store b; store a");
        assertNotNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO), "a TSO run is non-SC");
        MonitorRuns r = runs(p, MonitorConfig.paper());
        assertTrue(r.reported(Analysis.TSO));
        assertFalse(r.reported(Analysis.SOBER), "Sober uses the more restrictive TSO of its axioms");
    }

    /** Burnim Fig. 8's program: Sober reports on the run of the figure; monitor_TSO on another run. */
    @Test
    void burnimFigure8ProgramIsFoundByBoth() {
        Program p = Program.parse("store a; load b | store a | store b; load a");
        assertNotNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO));
        MonitorRuns r = runs(p, MonitorConfig.paper());
        assertTrue(r.reported(Analysis.TSO), "completeness: on a run where T1's store to a comes after T3's load");
        assertTrue(r.reported(Analysis.SOBER));
    }

    /** Sober Fig. 1(b), Dekker's store buffering: non-SC under TSO and PSO, all monitors report. */
    @Test
    void dekkerStoreBufferingIsFoundByAll() {
        Program p = Program.parse("store a; load b | store b; load a");
        assertNotNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO));
        MonitorRuns r = runs(p, MonitorConfig.paper());
        assertTrue(r.reported(Analysis.TSO));
        assertTrue(r.reported(Analysis.PSO));
        assertTrue(r.reported(Analysis.SOBER));
    }

    /**
     * Dekker with fences or CAS: SC under both models, no store-buffer monitor reports on any run. The access-mode
     * analysis reports the two whose loads are plain: a CAS or a volatile store does not keep a later plain load of
     * another variable after it under the Java memory model (nor on ARM: docs/jmm-model.md), only a full fence does.
     */
    @Test
    void fencedDekkerIsCleanEverywhere() {
        for (String text : new String[] {"store a; fence; load b | store b; fence; load a",
            "cas a; load b | cas b; load a", "volatile-store a; load b | volatile-store b; load a"}) {
            Program p = Program.parse(text);
            assertNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO), text);
            assertNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_JAVA), text);
            MonitorRuns r = runs(p, MonitorConfig.defaults());
            for (Analysis a : Analysis.values()) {
                assertEquals(a == Analysis.JMM && !text.contains("fence"), r.reported(a), text + ": " + a);
            }
        }
    }

    /** Message passing: the stores stay in order on TSO, not on PSO. */
    @Test
    void messagePassingIsPsoOnly() {
        Program p = Program.parse("store a; store b | load b; load a");
        assertNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO));
        assertNotNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_PAPER));
        MonitorRuns r = runs(p, MonitorConfig.paper());
        assertFalse(r.reported(Analysis.TSO));
        assertFalse(r.reported(Analysis.SOBER));
        assertTrue(r.reported(Analysis.PSO));
    }

    /** Message passing with a release store or a StoreStore fence: clean under Java's PSO. */
    @Test
    void releaseAndStoreStoreFenceFixMessagePassing() {
        for (String text : new String[] {"store a; release-store b | load b; load a",
            "store a; storestore-fence; store b | load b; load a"}) {
            Program p = Program.parse(text);
            assertNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_JAVA), text);
            assertFalse(runs(p, MonitorConfig.defaults()).reported(Analysis.PSO), text);
        }
    }

    /** In the paper's PSO a CAS orders only its own address; in Java it is a full fence. */
    @Test
    void casIsAFullFenceOnlyInJavasPso() {
        Program p = Program.parse("store a; cas c; store b | load b; load a");
        assertNotNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_PAPER));
        assertTrue(runs(p, MonitorConfig.paper()).reported(Analysis.PSO));
        assertNull(OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_JAVA));
        assertFalse(runs(p, MonitorConfig.defaults()).reported(Analysis.PSO));
    }
}
