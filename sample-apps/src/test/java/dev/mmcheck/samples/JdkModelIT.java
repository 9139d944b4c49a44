package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDK's memory-relevant methods under the built agent, end to end (frameworks.JdkCallsHarness): view VarHandles
 * logged as the bytes they touch (before, the run was INCOMPLETE with an unlogged-handles note), an interrupt, a
 * thread found ended and a cleared reference modelled as what they do, on correct code: no report, a complete run;
 * and the calls mmcheck does not model (reference-queue polls) named with their count in an unmodelled-calls note.
 * On Java 17 and, when it is installed, on Java 25 (whose Reference.clear is the native clear0, as 17's).
 */
class JdkModelIT {

    @TempDir
    Path dir;

    private void check(String java, String name) throws Exception {
        Path report = dir.resolve(name + ".json");
        List<String> cmd = new ArrayList<>(List.of(java, "-javaagent:" + AgentRun.AGENT + "=report=" + report,
                "-cp", AgentRun.ROOT.resolve("sample-apps/target/test-classes").toString(),
                "dev.mmcheck.samples.frameworks.JdkCallsHarness", "40", "1000"));
        AgentRun run = AgentRun.exec(cmd, report);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("harness: jdk calls ok"), run.output);
        JsonNode r = run.report;
        assertTrue(r.get("complete").asBoolean(), "nothing unlogged: " + run.output);
        assertEquals(0, r.get("run").get("unloggedHandleAccesses").asLong(), run.output);
        assertEquals(0, r.get("violations").size(), "correct code: " + run.output);
        assertTrue(r.get("run").get("unmodelledCalls").get("ReferenceQueue.poll").asLong() >= 1000, run.output);
        boolean noted = false;
        for (JsonNode n : r.get("notes")) {
            noted |= n.get("kind").asText().equals("unmodelled-calls")
                    && n.get("text").asText().contains("treated as full fences: ReferenceQueue.poll x 1,000");
        }
        assertTrue(noted, "the note names the method and its count: " + r.get("notes"));
    }

    @Test
    void theJdksMethodsAreModelledAndTheOthersNamed() throws Exception {
        check(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "jdk17");
    }

    @Test
    void onJava25Too() throws Exception {
        Path jdk = Jdk25IT.jdk25();
        org.junit.jupiter.api.Assumptions.assumeTrue(jdk != null, "no Java 25 JDK found (set MMCHECK_JDK25)");
        check(jdk.resolve("bin/java").toString(), "jdk25");
    }
}
