package dev.mmcheck.checker.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Failure;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failure inside the checker is never silent: the failing analysis stops, the others go on, the
 * result is incomplete, and the summary's first lines, the JSON and the failure's stack say so.
 */
class CheckerFailureTest {

    private final Streams streams = new Streams();
    private final Symbols symbols = streams.symbols;

    private void ev(Checker c, String thread, EventKind k, String operand, int line) {
        streams.ev(c, thread, k, operand, line);
    }

    /** Dekker {@code rounds} times, each in fresh threads: 6 events a round, a TSO and a PSO violation each. */
    private Checker dekker(Checker.Config config, int rounds) {
        Checker c = new Checker(symbols, config);
        for (int i = 0; i < rounds; i++) {
            ev(c, "A" + i, EventKind.STORE, "x", 1);
            ev(c, "A" + i, EventKind.LOAD, "y", 2);
            ev(c, "B" + i, EventKind.STORE, "y", 3);
            ev(c, "B" + i, EventKind.LOAD, "x", 4);
            ev(c, "A" + i, EventKind.THREAD_END, null, 5);
            ev(c, "B" + i, EventKind.THREAD_END, null, 6);
        }
        return c;
    }

    @Test
    void aFailingAnalysisStopsAloneAndSaysSo() throws Exception {
        // fail TSO at the 4th round's first event: rounds 0-2 are seen by both, later ones by PSO only
        Checker c = dekker(Checker.Config.defaults().withFault(new Fault("tso", 18)), 10);
        CheckResult r = c.result();
        assertFalse(r.complete());
        assertEquals(1, r.failures().size());
        Failure f = r.failures().get(0);
        assertEquals("tso", f.stage());
        assertEquals(18, f.event());
        assertTrue(f.exception().contains("failure injected into tso"), f.exception());
        assertTrue(f.stack().stream().anyMatch(s -> s.contains("Checker")), f.stack().toString());
        assertEquals(3, r.violationsOf(Analysis.TSO).get(0).count(), "TSO saw the rounds before its failure");
        assertEquals(10, r.violationsOf(Analysis.PSO).get(0).count(), "PSO went on to the end");
        assertTrue(r.notes().stream().anyMatch(n -> n.kind().equals("analysis-stopped") && n.analysis().equals("tso")
                && n.count() == 60 - 18), r.notes().toString());

        List<String> summary = Summary.lines("dekker", r);
        assertTrue(summary.get(1).startsWith("mmcheck: INCOMPLETE: the tso analysis failed at event 18"), summary.get(1));
        assertTrue(summary.get(2).trim().startsWith("at "), "the stack follows: " + summary.get(2));
        assertTrue(summary.stream().anyMatch(l -> l.startsWith("mmcheck: INCOMPLETE: tso stopped at event 18")),
                summary.toString());

        JsonNode json = new ObjectMapper().readTree(JsonReport.toString("dekker", true, r));
        assertFalse(json.get("complete").asBoolean());
        assertEquals("tso", json.get("failures").get(0).get("stage").asText());
        assertEquals(18, json.get("failures").get(0).get("event").asLong());
        assertTrue(json.get("failures").get(0).get("stack").size() > 3);
        assertEquals("incomplete", json.get("notes").get(0).get("severity").asText());
    }

    @Test
    void aFailureOfTheCoreStopsEveryAnalysisAndCountsTheRest() {
        Checker c = dekker(Checker.Config.defaults().withFault(new Fault("core", 30)), 10);
        CheckResult r = c.result();
        assertFalse(r.complete());
        assertEquals("core", r.failures().get(0).stage());
        assertEquals(60, r.events(), "every event is counted, checked or not");
        assertEquals(5, r.violationsOf(Analysis.TSO).get(0).count());
        assertEquals(5, r.violationsOf(Analysis.PSO).get(0).count());
        assertTrue(r.notes().stream().anyMatch(n -> n.kind().equals("checker-stopped") && n.count() == 30),
                r.notes().toString());
        List<String> summary = Summary.lines("dekker", r);
        assertTrue(summary.stream().anyMatch(l -> l.contains("every analysis")), summary.toString());
    }

    @Test
    void aNamingFailureKeepsTheFindingUnderRawIds() {
        Checker c = dekker(Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSO))
                .withFault(new Fault("names", 0)), 2);
        CheckResult r = c.result();
        assertFalse(r.complete());
        assertEquals("names", r.failures().get(0).stage());
        assertEquals(2, r.violationsOf(Analysis.TSO).get(0).count(), "the finding itself is kept and counted");
        assertTrue(r.violations().get(0).store().field().startsWith("address#"), r.violations().get(0).toString());
    }

    @Test
    void noViolationsInAnIncompleteRunIsNotCalledClean() {
        Checker c = new Checker(symbols, Checker.Config.defaults().withFault(new Fault("pso", 0)));
        ev(c, "A", EventKind.STORE, "x", 1);
        ev(c, "A", EventKind.LOAD, "x", 2);
        List<String> summary = Summary.lines("clean", c.result());
        assertFalse(summary.stream().anyMatch(l -> l.startsWith("no violations:")), summary.toString());
        assertTrue(summary.get(summary.size() - 1).contains("not a clean result"), summary.toString());
    }

    @Test
    void faultsParse() {
        assertEquals(new Fault("tso", 12), Fault.parse("tso@12"));
        assertEquals(null, Fault.parse("tso"));
        assertEquals(null, Fault.parse("nothing@1"));
        assertEquals(null, Fault.parse("tso@-1"));
        assertEquals(null, Fault.parse("tso@x"));
    }
}
