package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A solo period whose thread is blocked inside an access it leaves out, on a class loader's lock held by the
 * thread that ends the period (frameworks.LoaderLockHarness). The agent used to wait for that access forever
 * and the application hung; the thread ending the period now gives the wait up after a second and the run
 * ends INCOMPLETE, saying why and that solo=off avoids it.
 */
class SoloHandOverIT {

    @TempDir
    Path dir;

    @Test
    void aHandOverThatWouldHangStopsCheckingLoudlyAndTheApplicationEnds() throws Exception {
        Path report = dir.resolve("loader-lock.json");
        AgentRun run = AgentRun.main(report, "", "dev.mmcheck.samples.frameworks.LoaderLockHarness");
        assertTrue(run.output.contains("harness: loader lock ok, x=42"), "the application ran to its end: " + run.output);
        assertEquals(70, run.exit, "incomplete: " + run.output);
        assertFalse(run.report.get("complete").asBoolean());
        JsonNode note = null;
        for (JsonNode n : run.report.get("notes")) {
            if (n.get("kind").asText().equals("solo-hand-over")) {
                note = n;
            }
        }
        assertNotNull(note, "a note says why checking stopped: " + run.report.get("notes"));
        assertEquals("incomplete", note.get("severity").asText());
        String text = note.get("text").asText();
        assertTrue(text.contains("\"loader\"") && text.contains("\"main\"") && text.contains("solo=off"), text);
        assertTrue(run.output.contains("mmcheck: INCOMPLETE: thread \"loader\" ended the solo period of thread \"main\""),
                "in the summary's first lines: " + run.output);
        assertEquals(0, run.report.get("failures").size(), "the run's doing, not a failure of mmcheck: " + run.report.get("failures"));
    }
}
