package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's Maven project (src/it/surefire-project) runs its JUnit tests under the agent through
 * Surefire's argLine, as docs/agent.md says: a racy test fails the build with the summary in Maven's
 * output and beside the report; a clean one passes. Child Maven builds on the build's own
 * local repository and pinned versions.
 */
class SurefireIT {

    @TempDir
    Path dir;

    @Test
    void aRacyTestFailsTheBuildWithTheSummaryAndACleanOnePasses() throws Exception {
        ChildMaven child = ChildMaven.of("surefire-project", dir);
        Path project = child.dir();
        ChildMaven.Build racy = child.test("DekkerTest");
        assertEquals(1, racy.exit(), racy.output());
        assertTrue(racy.output().contains("Tests run: 1, Failures: 0, Errors: 0"), "the test itself passes: " + racy.output());
        assertTrue(racy.output().contains("race under TSO, PSO (tso, pso)"), "the summary is in Maven's output: "
                + racy.output());
        assertTrue(racy.output().contains("DekkerTest.java:"), racy.output());
        assertTrue(racy.output().contains("mmcheck: failOnViolation=true: ") && racy.output().contains(" new findings in the "
                + "categories of failOn=atomicity:race:relaxed: exit status 1"), racy.output());
        Path target = project.resolve("target");
        JsonNode report = new ObjectMapper().readTree(target.resolve("mmcheck-report.json").toFile());
        assertFalse(report.get("violations").isEmpty());
        assertTrue(Files.readString(target.resolve("mmcheck-report.txt")).contains("race under TSO, PSO (tso, pso)"));

        ChildMaven.Build clean = child.test("VolatileDekkerTest");
        assertEquals(0, clean.exit(), clean.output());
        report = new ObjectMapper().readTree(target.resolve("mmcheck-report.json").toFile());
        assertTrue(report.get("violations").isEmpty(), report.toString());
        long produced = report.get("run").get("eventsProduced").asLong();
        assertTrue(produced > 1000, report.toString());
        assertEquals(produced, report.get("run").get("eventsConsumed").asLong());
        assertTrue(clean.output().contains("BUILD SUCCESS"), clean.output());
    }
}
