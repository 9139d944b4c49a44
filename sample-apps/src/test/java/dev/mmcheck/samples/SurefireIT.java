package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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

    private Path project() throws IOException {
        Path from = AgentRun.ROOT.resolve("sample-apps/src/it/surefire-project");
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path to = dir.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        return dir;
    }

    private record Build(int exit, String output) {
    }

    private Build mvn(Path project, String test) throws Exception {
        String home = System.getProperty("mmcheck.maven.home");
        List<String> cmd = new ArrayList<>(List.of(Path.of(home, "bin", "mvn").toString(), "-B", "-ntp", "test",
                "-Dtest=" + test, "-Dmaven.repo.local=" + System.getProperty("mmcheck.maven.repo"),
                "-Dmmcheck.agent=" + AgentRun.AGENT));
        for (String p : List.of("junit", "surefire", "resources", "compiler")) {
            String key = p.equals("junit") ? "junit.version" : p + ".plugin.version";
            cmd.add("-D" + key + "=" + System.getProperty("mmcheck." + p + ".version"));
        }
        Path log = dir.resolve(test + ".log");
        Process process = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "child Maven timed out");
        return new Build(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    @Test
    void aRacyTestFailsTheBuildWithTheSummaryAndACleanOnePasses() throws Exception {
        Path project = project();
        Build racy = mvn(project, "DekkerTest");
        assertEquals(1, racy.exit, racy.output);
        assertTrue(racy.output.contains("Tests run: 1, Failures: 0, Errors: 0"), "the test itself passes: " + racy.output);
        assertTrue(racy.output.contains("race under TSO, PSO (tso, pso)"), "the summary is in Maven's output: "
                + racy.output);
        assertTrue(racy.output.contains("DekkerTest.java:"), racy.output);
        assertTrue(racy.output.contains("mmcheck: failOnViolation=true: ") && racy.output.contains(" new findings in the "
                + "categories of failOn=atomicity:race:relaxed: exit status 1"), racy.output);
        Path target = project.resolve("target");
        JsonNode report = new ObjectMapper().readTree(target.resolve("mmcheck-report.json").toFile());
        assertFalse(report.get("violations").isEmpty());
        assertTrue(Files.readString(target.resolve("mmcheck-report.txt")).contains("race under TSO, PSO (tso, pso)"));

        Build clean = mvn(project, "VolatileDekkerTest");
        assertEquals(0, clean.exit, clean.output);
        report = new ObjectMapper().readTree(target.resolve("mmcheck-report.json").toFile());
        assertTrue(report.get("violations").isEmpty(), report.toString());
        long produced = report.get("run").get("eventsProduced").asLong();
        assertTrue(produced > 1000, report.toString());
        assertEquals(produced, report.get("run").get("eventsConsumed").asLong());
        assertTrue(clean.output.contains("BUILD SUCCESS"), clean.output);
    }
}
