package dev.mmcheck.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Threads that end without an event of their own while their start still waits in the starting thread's log
 * (frameworks.SilentThreadsHarness). The LMAX Disruptor's suite, run with JUnit's parallel execution, made the
 * checker fail ("event of thread ... after its end", an INCOMPLETE run): the checker ended such a thread's log as
 * soon as the thread had terminated with nothing logged, and then met its start. A log is now ended only once
 * its thread's start, if one was logged, has been fed.
 */
class ThreadLifecycleIT {

    @TempDir
    Path dir;

    @Test
    void aThreadThatEndsBeforeItsStartIsCheckedEndsAfterIt() throws Exception {
        // solo=off: every access of the starting thread is logged, so the checker is behind its log
        AgentRun run = AgentRun.mainWith(dir.resolve("silent.json"), "solo=off", "",
                "dev.mmcheck.samples.frameworks.SilentThreadsHarness", "200");
        assertTrue(run.output.contains("harness: silent threads ok"), "the application ran to its end: " + run.output);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.report.get("complete").asBoolean(), "complete: " + run.report.get("notes") + run.report.get("failures"));
        assertEquals(0, run.report.get("violations").size(), "the harness is correct: " + run.report.get("violations"));
    }
}
