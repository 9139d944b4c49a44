package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An access whose first execution makes the JVM load a class through an instrumented class loader
 * (frameworks.LoaderLockHarness): the loader's lock is held meanwhile by the thread that ends the reading
 * thread's solo period. The agent's probes used to surround that loading: with solo periods on, the run hung
 * (the ender waited for the access, the access for the loader's lock); with {@code solo=off}, the loader's own
 * accesses ran nested inside the access's probes and the run was INCOMPLETE. The class an access names is now
 * resolved before its probes, and both runs are complete and clean.
 */
class ClassLoadingIT {

    @TempDir
    Path dir;

    private static final String HARNESS = "dev.mmcheck.samples.frameworks.LoaderLockHarness";

    @Test
    void aClassLoadedInsideAnAccessNeitherHangsASoloPeriodNorRunsInsideTheProbes() throws Exception {
        AgentRun run = AgentRun.main(dir.resolve("solo.json"), "", HARNESS);
        assertClean(run);
        JsonNode endedBy = run.report.get("run").get("soloEndedBy");
        assertTrue(endedBy.has("loader"), "the loader's access ended the reading thread's period, as when it hung: " + endedBy);

        AgentRun off = AgentRun.mainWith(dir.resolve("off.json"), "solo=off", "", HARNESS);
        assertClean(off);
    }

    /**
     * Classes of a class loader that delegates only names starting with {@code java} or {@code org}
     * (frameworks.SelfFirstLoaderHarness) cannot resolve the runtime's classes: rewritten code that named them
     * threw {@code NoClassDefFoundError: dev/mmcheck/runtime/Probes} in the application, and the report said
     * complete. Such code now calls the probes through a class in {@code java.lang}, which every loader
     * resolves: it runs, checked, and its race is found.
     */
    @Test
    void codeOfALoaderThatDoesNotDelegateRunsChecked() throws Exception {
        AgentRun run = AgentRun.main(dir.resolve("self-first.json"), "", "dev.mmcheck.samples.frameworks.SelfFirstLoaderHarness");
        assertTrue(!run.output.contains("NoClassDefFoundError"), run.output);
        assertTrue(run.output.contains("harness: self-first loader ok"), "the application ran to its end: " + run.output);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.report.get("complete").asBoolean(), "complete: " + run.report.get("notes") + run.report.get("failures"));
        assertEquals(0, run.report.get("run").get("classesFailed").asLong(), run.output);
        boolean found = false;
        for (JsonNode v : run.report.get("violations")) {
            JsonNode store = AgentRun.event(v, "store");
            found |= v.get("category").asText().equals("race") && store.get("file").asText().equals("SelfFirstLoaderHarness.java");
        }
        assertTrue(found, "the race in the loader's class is found: " + run.output);
    }

    private static void assertClean(AgentRun run) {
        assertTrue(run.output.contains("harness: loader lock ok, x=42"), "the application ran to its end: " + run.output);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.report.get("complete").asBoolean(), "complete: " + run.report.get("notes") + run.report.get("failures"));
        assertEquals(0, run.report.get("violations").size(), "the harness is correct: " + run.report.get("violations"));
    }
}
