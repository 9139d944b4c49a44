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

        virtualThreads(jdk, classes);

        // every sample's declared verdict on Java 25 too (a buggy one gets up to three runs: detection is per run; on
        // Java 25, 2026-11-29, S39 was found in 16 of 20 runs and S25 in 37 of 40 on a quiet machine, fewer under CI's
        // load; S33 missed three in a row in one CI run before schedule=active's rule 4 was mended, 20 of 20 since)
        List<String> wrong = new ArrayList<>();
        for (String sample : Samples.names()) {
            Expected e = Samples.sampleClass(sample).getAnnotation(Expected.class);
            if (e == null) {
                continue; // a workload
            }
            boolean buggy = e.tso() || e.pso() || e.scser() || e.tsoser();
            String problem = null;
            for (int attempt = 0; attempt < (buggy ? 3 : 1); attempt++) {
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

    /**
     * Virtual threads (sample-apps/src/it/jdk25/VirtualFlags.java): a race between two virtual threads is found at
     * its lines, on the virtual threads (vA, and an unnamed one named by its id), never their carrier; the volatile
     * twin is clean; and 2,000 virtual threads alive at once on one carrier, in a 512 MB heap, all updating one
     * counter, finish with a complete check (a platform thread's ring each would need 1.4 GB; a thread parked with
     * its log full or a stripe held used to hang the carrier).
     */
    private void virtualThreads(Path jdk, Path classes) throws Exception {
        Process javac = new ProcessBuilder(jdk.resolve("bin/javac").toString(), "--release", "25", "-d",
                classes.toString(), AgentRun.ROOT.resolve("sample-apps/src/it/jdk25/VirtualFlags.java").toString())
                .inheritIO().start();
        assertEquals(0, javac.waitFor(), "javac 25");
        Path plain = dir.resolve("virtual-plain.json");
        AgentRun run = null;
        boolean found = false;
        for (int attempt = 0; attempt < 3 && !found; attempt++) { // detection is per run
            run = AgentRun.exec(List.of(jdk.resolve("bin/java").toString(), "-javaagent:" + AgentRun.AGENT + "=report="
                    + plain, "-cp", classes.toString(), "VirtualFlags", "plain", "0"), plain);
            assertEquals(0, run.exit, run.output);
            for (JsonNode v : run.report.get("violations")) {
                JsonNode store = AgentRun.event(v, "store");
                JsonNode access = AgentRun.event(v, "access");
                if (store.get("file").asText().equals("VirtualFlags.java") && store.get("field").asText().contains("flag")
                        && access.get("field").asText().contains("flag")) {
                    found = true;
                    for (JsonNode e : v.get("events")) {
                        String t = e.get("thread").asText();
                        assertTrue(t.equals("vA") || t.matches("virtual-\\d+"), "an event of a virtual thread, by "
                                + "its name or id, never its carrier: " + t);
                    }
                }
            }
        }
        assertTrue(found, "the virtual threads' race on the flags is found: " + run.output);

        Path twin = dir.resolve("virtual-volatile.json");
        run = AgentRun.exec(List.of(jdk.resolve("bin/java").toString(), "-Xmx512m",
                "-Djdk.virtualThreadScheduler.parallelism=1", "-javaagent:" + AgentRun.AGENT + "=report=" + twin, "-cp",
                classes.toString(), "VirtualFlags", "volatile", "2000"), twin);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("VirtualFlags: done, 400000 updates by 2000 virtual threads"), run.output);
        assertTrue(run.report.get("complete").asBoolean(), run.output);
        assertEquals(0, run.report.get("violations").size(), run.output);
        assertTrue(run.output.contains("solo periods stopped at the first virtual thread"), run.output);
    }
}
