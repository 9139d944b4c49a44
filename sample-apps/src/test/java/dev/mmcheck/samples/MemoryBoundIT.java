package dev.mmcheck.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's memory stays bounded however many addresses a run keeps live: a small heap, a live
 * list with more addresses than the bound allows, and the run goes on to the end with every event
 * checked, the bound counted in the report, and the heap flat (bench/soak.sh runs the long version).
 */
class MemoryBoundIT {

    @TempDir
    Path dir;

    /** solo=off: the soak's walks often run alone, and every access is to reach the checker's tables here. */
    @Test
    void aRunWithMoreLiveAddressesThanTheBoundStaysFlatAndChecksEverything() throws Exception {
        Path report = dir.resolve("soak.json");
        AgentRun run = AgentRun.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-javaagent:" + AgentRun.AGENT + "=report=" + report + ",checkerMemory=8m,solo=off",
                "-cp", AgentRun.ROOT.resolve("sample-apps/target/test-classes").toString(),
                "dev.mmcheck.samples.soak.Soak", "8000000", "200000"), report);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("soak: done"), run.output);
        assertTrue(run.report.get("complete").asBoolean(), run.output);
        assertEquals(0, run.report.get("violations").size(), run.output);
        assertEquals(run.report.get("run").get("eventsProduced").asLong(),
                run.report.get("run").get("eventsConsumed").asLong());
        assertTrue(run.report.get("run").get("eventsConsumed").asLong() > 8_000_000L, run.output);
        boolean bound = false;
        for (var n : run.report.get("notes")) {
            bound |= n.get("kind").asText().equals("memory-bound") && n.get("count").asLong() > 1;
        }
        assertTrue(bound, "the bound was reached and counted: " + run.report.get("notes"));
        Matcher m = Pattern.compile("heapMB=(\\d+)").matcher(run.output);
        int samples = 0;
        int max = 0;
        while (m.find()) {
            samples++;
            max = Math.max(max, Integer.parseInt(m.group(1)));
        }
        assertTrue(max < 80, "the heap after a full collection stayed below 80 MB of 96: " + max + " MB, "
                + samples + " samples\n" + run.output);
    }
}
