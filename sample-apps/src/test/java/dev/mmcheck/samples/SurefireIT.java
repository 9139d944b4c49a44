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
        assertTrue(racy.output().contains("mmcheck: failOnViolation=true: this run found ") && racy.output().contains(
                " new findings in the categories of failOn=atomicity:race:relaxed: exit status 1, on purpose, not a crash "
                + "(in Surefire's forks leave the decision to mmcheck merge"), racy.output());
        Path target = project.resolve("target");
        JsonNode report = new ObjectMapper().readTree(target.resolve("mmcheck-report.json").toFile());
        assertFalse(report.get("violations").isEmpty());
        // the run is named by its fork, module and tests, not by Surefire's booter command line; the finding by its
        // test, through the listener alone (no extension here: as for JUnit 4 tests through Vintage)
        assertEquals("surefire fork 1 of " + project.getFileName() + ": tests DekkerTest", report.get("source").asText());
        assertEquals("[\"DekkerTest.handshake()\"]", report.get("violations").get(0).get("tests").toString());
        assertTrue(racy.output().contains(" during DekkerTest.handshake() (not failing it: only MmcheckExtension"),
                racy.output()); // 1 finding, or 2 (one per direction of the handshake)
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

    /**
     * A JUnit 4 test, run by the platform's Vintage engine (most libraries' older suites): its finding is in the report,
     * attributed to that test by the listener, and the run is named by it, as for a Jupiter test.
     */
    @Test
    void aJunit4TestThroughVintageGetsItsFindingAttributed() throws Exception {
        ChildMaven child = ChildMaven.of("surefire-project", dir);
        ChildMaven.Build racy = child.test("Junit4DekkerTest");
        assertEquals(1, racy.exit(), racy.output());
        assertTrue(racy.output().contains("Tests run: 1, Failures: 0, Errors: 0"), "the test itself passes: "
                + racy.output());
        assertTrue(racy.output().contains(" during Junit4DekkerTest.handshake() (not failing it"), racy.output());
        JsonNode report = new ObjectMapper().readTree(child.dir().resolve("target/mmcheck-report.json").toFile());
        assertEquals("surefire fork 1 of " + child.dir().getFileName() + ": tests Junit4DekkerTest",
                report.get("source").asText());
        assertFalse(report.get("violations").isEmpty(), report.toString());
        for (JsonNode v : report.get("violations")) {
            assertEquals("[\"Junit4DekkerTest.handshake()\"]", v.get("tests").toString(), v.toString());
            assertTrue(v.toString().contains("Junit4DekkerTest.java:"), v.toString());
        }
    }

    /**
     * An option misspelt in argLine: Surefire calls the fork's exit a crash, and the agent's one line above it says
     * what it was.
     */
    @Test
    void aTypoInArgLineIsNamedAboveSurefiresCrashMessage() throws Exception {
        ChildMaven child = ChildMaven.of("surefire-project", dir);
        ChildMaven.Build typo = child.test("VolatileDekkerTest", "mmcheck.more=,failOnVilation=true");
        assertTrue(typo.exit() != 0, typo.output());
        assertTrue(typo.output().contains("mmcheck: unknown option 'failOnVilation' (agent argument)")
                && typo.output().contains("a test runner reports this as a fork that did not say goodbye"), typo.output());
    }

    /**
     * Forks with reuseForks=false and a baseline that does not exist yet: no fork writes it from its own findings
     * (which would make the next fork's findings new) and none fails; mmcheck merge then writes it from every fork's
     * findings, and a later merge accepts them.
     */
    @Test
    void forksLeaveTheBaselineAndTheDecisionToTheMerge() throws Exception {
        ChildMaven child = ChildMaven.of("surefire-project", dir);
        Path baseline = dir.resolve("mmcheck-baseline.txt");
        Path reports = dir.resolve("target/mmcheck");
        ChildMaven.Build forks = child.test(null, "forkCount=2", "reuseForks=false",
                "mmcheck.report=" + reports + "/%p.json", "mmcheck.more=,baseline=" + baseline);
        assertEquals(0, forks.exit(), forks.output());
        assertFalse(Files.exists(baseline), "no fork writes the baseline: " + forks.output());
        java.util.List<Path> jsons;
        try (java.util.stream.Stream<Path> files = Files.list(reports)) {
            jsons = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertEquals(3, jsons.size(), "one report per test class's fork: " + jsons);
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", AgentRun.AGENT.toString(),
                "merge"));
        jsons.forEach(p -> cmd.add(p.toString()));
        cmd.addAll(java.util.List.of("--baseline", baseline.toString(), "--report", dir.resolve("merged.json").toString()));
        AgentRun merged = AgentRun.exec(cmd, dir.resolve("merged.json"));
        assertEquals(0, merged.exit, merged.output);
        assertTrue(Files.readString(baseline).contains("race:demo.DekkerTest#lambda$handshake"), Files.readString(baseline));
        AgentRun again = AgentRun.exec(cmd, dir.resolve("merged.json"));
        assertEquals(0, again.exit, again.output);
        JsonNode counts = again.report.get("findings");
        assertTrue(counts.get("total").asInt() > 0, again.output);
        assertEquals(counts.get("total").asInt(), counts.get("baselined").asInt(), again.output);
        assertEquals(0, counts.get("failing").asInt(), again.output);
        java.util.List<String> twice = new java.util.ArrayList<>(cmd.subList(0, 4));
        twice.add(jsons.get(0).toString());
        twice.add(jsons.get(0).toString());
        AgentRun refused = AgentRun.exec(twice, null);
        assertEquals(2, refused.exit, refused.output);
    }
}
