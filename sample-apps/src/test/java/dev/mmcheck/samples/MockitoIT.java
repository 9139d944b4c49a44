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
        assertTrue(r.get("run").get("classesInstrumented").asInt() > 100, "Mockito's own classes were instrumented");
        assertEquals(0, r.get("violations").size(), "the harness is correct: " + r.get("violations"));
    }
}
