package dev.mmcheck.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Excluding a class removes its data accesses from checking, never its synchronization: a test thread
 * started and joined by an excluded runner is ordered after what main did before the start.
 */
class ExcludedSynchronizationIT {

    @TempDir
    Path dir;

    private AgentRun run(String excludes) throws Exception {
        Path report = dir.resolve("excluded-" + System.nanoTime() + ".json");
        return AgentRun.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + AgentRun.AGENT + "=report=" + report + ",selfCheck=true,excludes=" + excludes,
                "-cp", AgentRun.ROOT.resolve("sample-apps/target/test-classes").toString(),
                "dev.mmcheck.samples.frameworks.TimeLimitedRunner"), report);
    }

    @Test
    void aThreadStartedByAnExcludedRunnerIsOrderedAfterMain() throws Exception {
        AgentRun run = run("dev.mmcheck.samples.frameworks.*Runner*");
        assertEquals(0, run.exit, run.output);
        assertTrue(run.report.get("complete").asBoolean(), run.output);
        assertEquals(0, run.report.get("violations").size(), "no report on correct code: " + run.output);
        assertTrue(run.output.contains("TimeLimitedRunner: done"), run.output);
        // the fields are checked: the body's accesses are logged, the runner's start and join too
        assertTrue(run.report.get("run").get("eventsConsumed").asLong() > 200 * 4, run.output);
    }
}
