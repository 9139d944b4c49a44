package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A test suite's mocks under the agent (MockitoHarness): every class is instrumented, Mockito's
 * generated ones included, and the run is complete. Agrona's suite, the first one met that uses Mockito,
 * left 21 classes uninstrumented (an incomplete run): the auxiliary classes of the mocks, whose mock class
 * has no class file to describe, and Mockito's MockMethodAdvice, whose superclass Mockito injects into
 * the boot loader. The agent now decorates a class with its rewriter without describing its hierarchy.
 */
class MockitoIT {

    @TempDir
    Path dir;

    /** The test class path entries of Mockito and what it needs (Byte Buddy, its agent, Objenesis). */
    private static String mockitoClassPath() {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.contains("mockito-core") || entry.contains("byte-buddy") || entry.contains("objenesis")) {
                entries.add(entry);
            }
        }
        assertTrue(entries.size() >= 3, "Mockito and its dependencies are on the test class path: " + entries);
        return String.join(File.pathSeparator, entries);
    }

    @Test
    void mocksAreInstrumentedAndTheRunIsComplete() throws Exception {
        Path report = dir.resolve("mockito.json");
        AgentRun run = AgentRun.main(report, mockitoClassPath(), "dev.mmcheck.samples.frameworks.MockitoHarness");
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("harness: mocks ok"), run.output);
        JsonNode r = run.report;
        assertEquals(0, r.get("run").get("classesFailed").asInt(), "no class left uninstrumented: " + r.get("notes"));
        assertTrue(r.get("complete").asBoolean(), "complete: " + r.get("notes") + r.get("failures"));
        assertTrue(r.get("run").get("classesInstrumented").asInt() > 100,
                "Mockito's own classes were rewritten too (for their synchronization only, as excluded by default)");
        assertEquals(0, r.get("violations").size(), "the harness is correct: " + r.get("violations"));
    }

    /**
     * Mockito is test infrastructure, excluded by default like JUnit: its data accesses (the invocations it
     * records, the weak map its inline mocks look every receiver up in) cost the probes and the checker and
     * are not the code under test. Agrona's {@code UnsafeBufferTest} after a test class that mocks
     * {@code UnsafeBuffer} took 55 s with Mockito instrumented and 36 s without (docs/performance.md).
     */
    @Test
    void mockitosOwnDataAccessesAreNotLoggedByDefault() throws Exception {
        AgentRun byDefault = AgentRun.main(dir.resolve("default.json"), mockitoClassPath(),
                "dev.mmcheck.samples.frameworks.MockitoHarness");
        // the harness runs without a test runner: excluding only JUnit's classes leaves Mockito instrumented
        AgentRun instrumented = AgentRun.mainWith(dir.resolve("mockito.json"), "excludes=org.junit.*",
                mockitoClassPath(), "dev.mmcheck.samples.frameworks.MockitoHarness");
        for (AgentRun run : List.of(byDefault, instrumented)) {
            assertEquals(0, run.exit, run.output);
            assertTrue(run.report.get("complete").asBoolean(), "complete: " + run.report.get("notes"));
            assertEquals(0, run.report.get("violations").size(), "the harness is correct: " + run.report.get("violations"));
        }
        long fewer = byDefault.report.get("run").get("eventsProduced").asLong();
        long more = instrumented.report.get("run").get("eventsProduced").asLong();
        assertTrue(fewer < more, "Mockito's data accesses are left out by default: " + fewer + " events against " + more);
    }
}
