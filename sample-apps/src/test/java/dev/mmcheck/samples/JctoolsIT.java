package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real library in the project's own tests: jctools-core's queues and NonBlockingHashMap move items
 * between real threads under the agent (JctoolsHarness). Every item arrives exactly once, nothing in
 * mmcheck fails, every event is checked, and no report's race (its store or access) is in the harness,
 * which is correct; JCTools' own relaxed-by-design patterns may be reported. Both with the default models and with
 * the access-mode analysis beside them ({@code models=tso:pso:jmm}, docs/jmm-model.md).
 */
class JctoolsIT {

    @TempDir
    Path dir;

    /** The jctools-core jar on this JVM's class path (a test dependency). */
    private static String jctoolsJar() {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.contains("jctools-core")) {
                return entry;
            }
        }
        throw new AssertionError("jctools-core is not on the test class path");
    }

    @Test
    void itemsMoveThroughJctoolsExactlyOnceWithNoFalseReportAndNothingUnchecked() throws Exception {
        check("");
    }

    @Test
    void theAccessModeAnalysisReportsNothingInTheHarnessEither() throws Exception {
        check("models=tso:pso:jmm");
    }

    private void check(String options) throws Exception {
        Path report = dir.resolve("jctools.json");
        AgentRun run = AgentRun.mainWith(report, options, jctoolsJar(), "dev.mmcheck.samples.jctools.JctoolsHarness",
                "20000");
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("harness: all items arrived exactly once"), run.output);
        assertEquals(13, run.output.lines().filter(l -> l.startsWith("harness: ") && l.contains(" ok (")).count(),
                run.output);
        JsonNode r = run.report;
        if (!options.isEmpty()) {
            assertTrue(r.get("analyses").toString().contains("jmm"), r.get("analyses").toString());
        }
        assertTrue(r.get("complete").asBoolean(), "complete: " + r.get("notes") + r.get("failures"));
        assertEquals(0, r.get("failures").size(), r.get("failures").toString());
        assertEquals(r.get("run").get("eventsProduced").asLong(), r.get("run").get("eventsConsumed").asLong());
        JsonNode run0 = r.get("run");
        assertEquals(r.get("events").asLong(), run0.get("eventsConsumed").asLong() - run0.get("threadBegins").asLong()
                + run0.get("eventsAdded").asLong() - run0.get("eventsUnchecked").asLong(),
                "the report's events are the consumed ones, less begins, plus those the checker adds (docs)");
        assertTrue(r.get("run").get("eventsConsumed").asLong() > 1_000_000, r.get("run").toString());
        assertTrue(r.get("run").get("classesInstrumented").asLong() > 20, "JCTools' classes were instrumented");
        // the race of a report is its store and its access (for a cycle, the accesses on its edges); its
        // prev, the other thread's event the store happens before, may be anywhere on the path (the
        // harness's counter CAS between a consumer's two queue operations is a common one)
        List<String> harnessLines = new ArrayList<>();
        for (JsonNode v : r.get("violations")) {
            List<JsonNode> events = new ArrayList<>();
            v.path("events").forEach(e -> {
                if (!e.get("role").asText().equals("prev")) {
                    events.add(e);
                }
            });
            v.path("edges").forEach(e -> e.path("events").forEach(events::add));
            for (JsonNode e : events) {
                if (e.get("file").asText().equals("JctoolsHarness.java")) {
                    harnessLines.add(e.get("role").asText() + " at line " + e.get("line").asInt() + " in " + v);
                }
            }
        }
        assertEquals(List.of(), harnessLines, "no race in the (correct) harness is reported");
    }
}
