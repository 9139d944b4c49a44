package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fix=true end to end (docs/fix.md): the summary's last section, the report's fix, the trace it replayed. */
class FixIT {

    @TempDir
    Path dir;

    @Test
    void aLazySetMistakeIsFixedWhereItsCommentSays() throws Exception {
        AgentRun run = AgentRun.run(dir, "S13_LazySetMistake", "fix=true");
        assertEquals(0, run.exit, run.output);
        JsonNode fix = run.report.get("fix");
        assertTrue(fix != null && fix.get("proven").asBoolean(), run.output);
        Set<Integer> lines = new TreeSet<>();
        for (JsonNode c : fix.get("changes")) {
            assertEquals("S13_LazySetMistake.java", c.get("file").asText(), run.output);
            // a set() for the lazySet, or the full fence the comment names right before the next load: whichever the
            // run executed fewer times (they differ by one execution or so)
            assertTrue(Set.of("volatile-store", "full-fence-before", "full-fence-after").contains(c.get("kind").asText()),
                    run.output);
            assertTrue(c.get("back").asInt() >= 1, run.output);
            lines.add(c.get("line").asInt());
        }
        // each side's announcement and the load after it (S13's comment: a full fence is needed between them)
        assertTrue(!lines.isEmpty() && Set.of(26, 27, 32, 33).containsAll(lines), lines + "\n" + run.output);
        assertTrue(run.output.contains("mmcheck fix:   S13_LazySetMistake.java:"), run.output);
        assertTrue(run.output.contains("mmcheck fix: proof by replay under "), run.output);
        // the report keeps the section line by line, which the Maven plugin's check goal prints per fork
        assertTrue(fix.get("lines").size() >= 3, run.output);
        for (JsonNode l : fix.get("lines")) {
            assertTrue(run.output.contains(l.asText()), l.asText() + "\n" + run.output);
        }
        // the section comes after the findings and the run's facts: the summary's last one, before where files went
        int section = run.output.indexOf("mmcheck fix: the fewest changes");
        assertTrue(section > run.output.indexOf("mmcheck: events produced"), run.output);
        assertTrue(Files.isRegularFile(Path.of(run.report.get("fix").isObject() ? traceOf(run) : "")), run.output);
    }

    @Test
    void aCleanRunHasNothingToFix() throws Exception {
        AgentRun run = AgentRun.run(dir, "S02_DekkerVolatile", "fix=true");
        assertEquals(0, run.exit, run.output);
        JsonNode fix = run.report.get("fix");
        assertEquals(0, fix.get("findings").asInt(), run.output);
        assertTrue(fix.get("changes").isEmpty(), run.output);
        assertTrue(run.output.contains("mmcheck fix: no finding to remove"), run.output);
    }

    @Test
    void fixNeedsEveryEventSoNotWithSampling() throws Exception {
        AgentRun run = AgentRun.run(dir, "S02_DekkerVolatile", "fix=true,sample=0.5");
        assertTrue(run.exit != 0, run.output);
        assertTrue(run.output.contains("option sample=0.5 cannot be combined with fix=true"), run.output);
        assertTrue(!run.output.contains("\tat "), "one line, no stack trace: " + run.output);
    }

    /** The trace the fix replayed, as its summary line names it. */
    private static String traceOf(AgentRun run) {
        int at = run.output.indexOf("(replayed from ");
        return run.output.substring(at + "(replayed from ".length(), run.output.indexOf(", ", at));
    }
}
