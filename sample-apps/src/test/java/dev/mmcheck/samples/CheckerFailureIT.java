package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failure inside mmcheck, injected with {@code injectFailure=STAGE@EVENT}, is never silent end to end:
 * the summary's first lines say what stopped, where, with the stack; the JSON has {@code complete:false}
 * and the failure; the JVM exits with status 70 unless {@code failOnError=false}; the application never
 * waits on a dead checker (every event is still drained).
 */
class CheckerFailureIT {

    @TempDir
    Path dir;

    /** The summary's lines as the JVM printed them, from its header on. */
    private static List<String> summary(AgentRun run) {
        List<String> lines = run.output.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("mmcheck 0") || lines.get(i).startsWith("mmcheck 1")) {
                return lines.subList(i, lines.size());
            }
        }
        throw new AssertionError("no summary in\n" + run.output);
    }

    @Test
    void anAnalysisThatFailsStopsAloneAndTheRunSaysSoLoudly() throws Exception {
        AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", "injectFailure=tso@2000");
        assertEquals(70, run.exit, run.output);
        List<String> summary = summary(run);
        assertTrue(summary.get(1).startsWith("mmcheck: INCOMPLETE: the tso analysis failed at event 2000: "
                + "java.lang.IllegalStateException: failure injected into tso"), summary.get(1));
        assertTrue(summary.get(2).trim().startsWith("at dev.mmcheck."), summary.get(2));
        assertTrue(run.output.contains("exit status 70"), run.output);
        JsonNode r = run.report;
        assertFalse(r.get("complete").asBoolean());
        assertEquals("tso", r.get("failures").get(0).get("stage").asText());
        assertEquals(2000, r.get("failures").get(0).get("event").asLong());
        assertFalse(run.violations("pso").isEmpty(), "PSO went on after TSO failed");
        assertEquals(r.get("run").get("eventsProduced").asLong(), r.get("run").get("eventsConsumed").asLong());
    }

    @Test
    void failOnErrorFalseKeepsTheApplicationsExitStatusButNotItsSilence() throws Exception {
        AgentRun run = AgentRun.run(dir, "S02_DekkerVolatile", "injectFailure=pso@100,failOnError=false");
        assertEquals(0, run.exit, run.output);
        assertFalse(run.report.get("complete").asBoolean());
        assertTrue(summary(run).get(1).startsWith("mmcheck: INCOMPLETE: the pso analysis failed"), run.output);
        assertFalse(run.output.contains("\nno violations:"), "an incomplete run is not called clean: " + run.output);
    }

    @Test
    void aFailureOfTheCheckerThreadDrainsTheRestUnchecked() throws Exception {
        AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", "injectFailure=checker-loop@5000");
        assertEquals(70, run.exit, run.output);
        JsonNode r = run.report;
        assertFalse(r.get("complete").asBoolean());
        assertEquals("checker-loop", r.get("failures").get(0).get("stage").asText());
        JsonNode stats = r.get("run");
        assertEquals(stats.get("eventsProduced").asLong(), stats.get("eventsConsumed").asLong(),
                "the application's events were all drained, none left waiting");
        assertTrue(stats.get("eventsUnchecked").asLong() > 0, stats.toString());
        assertEquals(r.get("events").asLong(), stats.get("eventsConsumed").asLong() - stats.get("threadBegins").asLong()
                + stats.get("eventsAdded").asLong() - stats.get("eventsUnchecked").asLong(), stats.toString());
        assertTrue(summary(run).get(1).startsWith("mmcheck: INCOMPLETE: the checker thread failed at event 5000"),
                run.output);
    }
}
