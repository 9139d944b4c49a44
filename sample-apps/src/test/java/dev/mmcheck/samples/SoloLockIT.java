package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A solo period leaves out the events of calls into java.util.concurrent (each at its probe; the call itself may
 * block outside any window), and a call that blocks until another thread acts logs its event after the call once
 * that thread has ended the period (frameworks.LockWakeHarness). Left out too, the event after {@code lock()}
 * would let the checker's merge feed "main"'s reads before "holder"'s unlock, whose fence commits the writes
 * they read: a false store-buffering report under PSO.
 */
class SoloLockIT {

    @TempDir
    Path dir;

    @Test
    void aLockCallLeftOutInASoloPeriodIsOrderedAfterTheUnlockThatWakesIt() throws Exception {
        AgentRun run = AgentRun.main(dir.resolve("lock.json"), "", "dev.mmcheck.samples.frameworks.LockWakeHarness", "8");
        assertTrue(run.output.contains("harness: lock wake ok, rounds=8"), "the application ran to its end: " + run.output);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.report.get("complete").asBoolean(), "complete: " + run.report.get("notes") + run.report.get("failures"));
        assertEquals(0, run.report.get("violations").size(), "the harness is correct: " + run.report.get("violations"));
        JsonNode endedBy = run.report.get("run").get("soloEndedBy");
        assertTrue(endedBy.has("holder"), "\"holder\" ended main's periods, with main blocked in lock(): " + endedBy);
    }
}
