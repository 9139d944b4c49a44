package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent on the second JDK of the build machines (Java 25): a program compiled for Java 25 (class
 * file version 69: records, pattern switches, unnamed variables) is instrumented and its race found;
 * and every sample (Java 17 class files) keeps its declared verdict on Java 25. Skipped, saying so, when no
 * Java 25 JDK is found ({@code MMCHECK_JDK25}, or /usr/lib/jvm/*25*).
 */
class Jdk25IT {

    @TempDir
    Path dir;

    static Path jdk25() throws Exception {
        String env = System.getenv("MMCHECK_JDK25");
        if (env != null && Files.isExecutable(Path.of(env, "bin", "java"))) {
            return Path.of(env);
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> s = Files.list(jvms)) {
                for (Path p : s.sorted().toList()) {
                    if (p.getFileName().toString().contains("25") && Files.isExecutable(p.resolve("bin/javac"))) {
                        return p;
                    }
                }
            }
        }
        return null;
    }

    @Test
    void theAgentInstrumentsJava25ClassFilesAndKeepsTheSamplesVerdictsOnJava25() throws Exception {
        Path jdk = jdk25();
        if (jdk == null) {
            System.out.println("Jdk25IT: SKIPPED: no Java 25 JDK (set MMCHECK_JDK25 to one)");
        }
        Assumptions.assumeTrue(jdk != null, "no Java 25 JDK found (set MMCHECK_JDK25)");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Process javac = new ProcessBuilder(jdk.resolve("bin/javac").toString(), "--release", "25", "-d",
                classes.toString(), AgentRun.ROOT.resolve("sample-apps/src/it/jdk25/Flags25.java").toString())
                .inheritIO().start();
        assertEquals(0, javac.waitFor(), "javac 25");
        Path report = dir.resolve("flags25.json");
        AgentRun run = AgentRun.exec(List.of(jdk.resolve("bin/java").toString(),
                "-javaagent:" + AgentRun.AGENT + "=report=" + report, "-cp", classes.toString(), "Flags25"), report);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("Flags25: done on Java 25"), run.output);
        assertTrue(run.report.get("complete").asBoolean(), run.output);
        assertEquals(0, run.report.get("run").get("classesFailed").asLong(), run.output);
        boolean found = false;
        for (JsonNode v : run.report.get("violations")) {
            found |= v.get("category").asText().equals("race")
                    && AgentRun.event(v, "store").get("file").asText().equals("Flags25.java");
        }
        assertTrue(found, "the race in Java 25 class files is found: " + run.output);

        // every sample's declared verdict on Java 25 too (a buggy one gets a second run: detection is per run)
        List<String> wrong = new ArrayList<>();
        for (String sample : Samples.names()) {
            Expected e = Samples.sampleClass(sample).getAnnotation(Expected.class);
            if (e == null) {
                continue; // a workload
            }
            boolean buggy = e.tso() || e.pso() || e.scser() || e.tsoser();
            String problem = null;
            for (int attempt = 0; attempt < (buggy ? 2 : 1); attempt++) {
                Path r = dir.resolve(sample + "-" + attempt + ".json");
                AgentRun s = AgentRun.exec(List.of(jdk.resolve("bin/java").toString(),
                        "-javaagent:" + AgentRun.AGENT + "=report=" + r, "-jar", AgentRun.SAMPLES.toString(), sample), r);
                problem = s.exit != 0 || s.report == null ? "exit " + s.exit
                        : e.tso() != !s.violations("tso").isEmpty() ? "TSO verdict"
                        : e.pso() != !s.violations("pso").isEmpty() ? "PSO verdict"
                        : e.scser() != !s.violations("scser").isEmpty() ? "SC-serializability verdict"
                        : e.tsoser() != !s.violations("tsoser").isEmpty() ? "TSO-serializability verdict" : null;
                if (problem == null) {
                    break;
                }
                problem += ":\n" + s.output;
            }
            if (problem != null) {
                wrong.add(sample + ": " + problem);
            }
        }
        assertEquals(List.of(), wrong, "verdicts on Java 25");
    }
}
