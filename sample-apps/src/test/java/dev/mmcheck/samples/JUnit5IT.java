package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JUnit 5 extension end to end, in a user's Maven project (src/it/junit5-project): the racy test
 * fails with its finding as the message in Surefire's report, the correct one passes, the stress test
 * finds broken double-checked locking and names the seed, and the report attributes each finding to
 * its test.
 */
class JUnit5IT {

    @TempDir
    Path dir;

    /** The XML of Surefire's testcase element {@code name} (to the next testcase), or empty. */
    private static String testcase(String xml, String name) {
        int at = xml.indexOf("<testcase name=\"" + name);
        if (at < 0) {
            return "";
        }
        int next = xml.indexOf("<testcase ", at + 1);
        return xml.substring(at, next < 0 ? xml.length() : next);
    }

    /** JUnit 6 (6.0 came out in 2025): the extension works unchanged, attribution included. */
    static final String JUNIT6 = "6.1.3";

    @Test
    void aRacyTestFailsWithItsFindingACorrectOnePassesAndStressNamesItsSeed() throws Exception {
        ChildMaven child = ChildMaven.of("junit5-project", dir);
        // one trace per test (%t): the failing test names its own
        Path trace = child.dir().resolve("target/mmcheck/traces/%t.mmct");
        check(child, java.util.Map.of("mmcheck.more", ",trace=" + trace));

        // the failing test names the command that reproduces its finding offline: run it, the same finding
        String flags = Files.readString(child.dir().resolve("target/surefire-reports/TEST-demo.FlagsTest.xml"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("reproduce offline: "
                + "mmcheck replay (\\S+) --models ([a-z,]+)").matcher(flags);
        assertTrue(m.find(), "the failure names the replay command: " + flags);
        assertEquals(child.dir().resolve("target/mmcheck/traces/FlagsTest.plainFlags.mmct").toAbsolutePath().toString(),
                m.group(1), "the test's own trace");
        assertTrue(Files.exists(child.dir().resolve("target/mmcheck/traces/FlagsTest.volatileFlags.mmct")),
                "every test has its trace");
        // as a user types it, with the repository's mmcheck script
        Process replay = new ProcessBuilder(AgentRun.ROOT.resolve("mmcheck").toString(), "replay", m.group(1),
                "--models", m.group(2)).redirectErrorStream(true).start();
        String replayed = new String(replay.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, replay.waitFor(), replayed);
        String text = flags.replace("&#10;", "\n").replace("&apos;", "'").replace("&quot;", "\"").replace("&gt;", ">")
                .replace("&lt;", "<").replace("&amp;", "&");
        String finding = text.substring(text.indexOf("race under TSO, PSO"));
        // the fix line names sites and fields only (a replay may tell threads that share a name apart: Thread-1#3)
        String fix = finding.substring(finding.indexOf("fix   : "), finding.indexOf('\n', finding.indexOf("fix   : ")));
        assertTrue(replayed.contains(fix), "the replay reports the same finding (" + fix + "): " + replayed);
    }

    @Test
    void theSameOnJunit6() throws Exception {
        check(ChildMaven.of("junit5-project", dir.resolve("junit6")), java.util.Map.of("junit.version", JUNIT6));
    }

    private static void check(ChildMaven child, java.util.Map<String, String> set) throws Exception {
        ChildMaven.Build build = child.test(null, set);
        if (set.containsKey("junit.version")) {
            // the child resolved that JUnit: its engine is in the repository the child used
            Path engine = Path.of(System.getProperty("mmcheck.maven.repo"), "org/junit/jupiter/junit-jupiter-engine",
                    set.get("junit.version"));
            assertTrue(Files.isDirectory(engine), "JUnit " + set.get("junit.version") + " was used: " + build.output());
        }
        assertEquals(1, build.exit(), build.output());
        Path reports = child.dir().resolve("target/surefire-reports");
        String flags = Files.readString(reports.resolve("TEST-demo.FlagsTest.xml"));
        String volatileCase = testcase(flags, "volatileFlags");
        assertTrue(!volatileCase.isEmpty() && !volatileCase.contains("<failure"), "the volatile test passes: " + flags);
        assertTrue(testcase(flags, "plainFlags").matches("(?s).*<failure message=\"mmcheck: [0-9]+ findings? during "
                + "FlagsTest.plainFlags\\(\\).*"), "the plain one fails with its finding: " + flags);
        assertTrue(flags.contains("race under TSO, PSO"), flags);
        assertTrue(flags.contains("FlagsTest.java:"), flags);

        String stress = Files.readString(reports.resolve("TEST-demo.SingletonStressTest.xml"));
        assertTrue(stress.contains("schedule seed "), "the failing repetition names its seed: " + stress);
        assertTrue(stress.contains("SingletonStressTest.java:"), stress);

        JsonNode report;
        try (Stream<Path> files = Files.list(child.dir().resolve("target/mmcheck"))) {
            List<Path> json = files.filter(f -> f.toString().endsWith(".json")).toList();
            assertEquals(1, json.size(), "one report per JVM, named by its process id: " + json);
            report = new ObjectMapper().readTree(json.get(0).toFile());
        }
        boolean attributed = false;
        for (JsonNode v : report.get("violations")) {
            for (JsonNode t : v.path("tests")) {
                attributed |= t.asText().equals("FlagsTest.plainFlags()");
                assertTrue(!t.asText().startsWith("FlagsTest.volatileFlags"), "nothing in the volatile test: " + v);
            }
        }
        assertTrue(attributed, "the report lists findings per test: " + report.get("violations"));
    }
}
