package dev.mmcheck.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log is drained completely however the JVM ends (System.exit, an uncaught exception, racing
 * daemon threads still running); the agent runs on the newest installed JDK too; the agent jar keeps
 * its dependencies to itself.
 */
class AgentExitIT {

    @TempDir
    Path dir;

    private AgentRun exits(String java, String how) throws Exception {
        Path report = dir.resolve(how + ".json");
        return AgentRun.exec(List.of(java, "-javaagent:" + AgentRun.AGENT + "=report=" + report + ",selfCheck=true",
                "-cp", AgentRun.ROOT.resolve("sample-apps/target/test-classes").toString(),
                "dev.mmcheck.samples.exits.ExitsEarly", how), report);
    }

    private static String java17() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Test
    void systemExitAndUncaughtExceptionsStillDrainTheLog() throws Exception {
        AgentRun exit = exits(java17(), "exit");
        assertEquals(3, exit.exit, exit.output);
        AgentRun thrown = exits(java17(), "throw");
        assertEquals(1, thrown.exit, thrown.output);
        assertTrue(thrown.output.contains("uncaught, on purpose"), thrown.output);
        for (AgentRun run : List.of(exit, thrown)) {
            assertTrue(run.report != null, run.output);
            long produced = run.report.get("run").get("eventsProduced").asLong();
            assertTrue(produced > 100_000, run.output);
            assertEquals(produced, run.report.get("run").get("eventsConsumed").asLong(), run.output);
            assertTrue(run.output.contains("events produced " + produced + ", consumed " + produced), run.output);
            assertEquals(0, run.report.get("run").get("selfCheckMismatches").asLong(), run.report.get("notes").toString());
        }
    }

    /**
     * When the agent sets the exit status (here 70: an incomplete check, as failOnViolation=true sets 1) it halts the
     * JVM from its shutdown hook, which used to end the application's other hooks where they stood: JaCoCo's coverage
     * file came out cut short. It waits for them first.
     */
    @Test
    void theApplicationsOwnShutdownHookFinishesBeforeTheAgentSetsTheStatus() throws Exception {
        Path written = dir.resolve("written-by-the-other-hook.out");
        Path report = dir.resolve("hook.json");
        AgentRun run = AgentRun.exec(List.of(java17(), "-javaagent:" + AgentRun.AGENT + "=report=" + report
                + ",injectFailure=tso@100", "-cp", AgentRun.ROOT.resolve("sample-apps/target/test-classes").toString(),
                "dev.mmcheck.samples.exits.ExitsEarly", "hook", written.toString()), report);
        assertEquals(70, run.exit, run.output);
        assertTrue(Files.exists(written), "the other hook finished before the halt: " + run.output);
    }

    @Test
    void theSummaryReachesTheProcessStandardErrorAndAFileEvenWhenSystemErrWasReplaced() throws Exception {
        AgentRun run = exits(java17(), "swallow");
        assertEquals(3, run.exit, run.output);
        long produced = run.report.get("run").get("eventsProduced").asLong();
        assertTrue(run.output.contains("events produced " + produced + ", consumed " + produced), run.output);
        List<String> summary = Files.readAllLines(dir.resolve("swallow.txt"));
        assertTrue(summary.get(0).startsWith("mmcheck "), summary.toString());
        assertEquals("mmcheck: events produced " + produced + ", consumed " + produced
                + ", repeated loads left out 0, self-check " + run.report.get("run").get("selfCheckReads").asLong() + " reads, 0 mismatches",
                summary.get(summary.size() - 1));
        for (String line : summary) {
            assertTrue(run.output.contains(line), "printed too: " + line);
        }
    }

    /** The newest JDK installed beside the build's (the build machines have 17 and 25). */
    static Path newestJdk() throws Exception {
        Path best = null;
        int bestVersion = 0;
        try (var dirs = Files.list(Path.of("/usr/lib/jvm"))) {
            for (Path d : dirs.toList()) {
                Path release = d.resolve("release");
                if (!Files.exists(d.resolve("bin/java")) || !Files.exists(release)) {
                    continue;
                }
                for (String line : Files.readAllLines(release)) {
                    if (line.startsWith("JAVA_VERSION=")) {
                        String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                        int major = Integer.parseInt(v.split("[.+-]")[0]);
                        if (major > bestVersion) {
                            bestVersion = major;
                            best = d;
                        }
                    }
                }
            }
        }
        return bestVersion >= 21 ? best : null;
    }

    @Test
    void theAgentWorksOnTheNewestInstalledJdk() throws Exception {
        Path jdk = newestJdk();
        assertTrue(jdk != null, "no JDK 21+ under /usr/lib/jvm: the build machines have Java 17 and 25 installed");
        String java = jdk.resolve("bin/java").toString();
        for (String sample : List.of("S01_DekkerPlain", "S18_ExecutorHandover")) {
            Path report = dir.resolve(sample + "-new.json");
            AgentRun run = AgentRun.exec(List.of(java, "-javaagent:" + AgentRun.AGENT + "=report=" + report
                    + ",selfCheck=true", "-jar", AgentRun.SAMPLES.toString(), sample), report);
            assertEquals(0, run.exit, run.output);
            assertEquals(0, run.report.get("run").get("classesFailed").asLong(), run.report.get("notes").toString());
            assertEquals(0, run.report.get("run").get("selfCheckMismatches").asLong());
            boolean buggy = sample.equals("S01_DekkerPlain");
            assertEquals(buggy, !run.report.get("violations").isEmpty(), run.output);
            assertTrue(!run.output.contains("sun.misc.Unsafe"), "no Unsafe warnings: " + run.output);
        }
        AgentRun exit = exits(java, "exit");
        assertEquals(3, exit.exit, exit.output);
        assertEquals(exit.report.get("run").get("eventsProduced").asLong(),
                exit.report.get("run").get("eventsConsumed").asLong());
    }

    @Test
    void theAgentJarHidesItsDependencies() throws Exception {
        List<String> foreign = new ArrayList<>();
        try (JarFile jar = new JarFile(AgentRun.AGENT.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                String n = e.nextElement().getName();
                if (n.endsWith(".class") && !n.startsWith("dev/mmcheck/")) {
                    foreign.add(n);
                }
            }
            assertTrue(jar.getEntry("META-INF/mmcheck/mmcheck-runtime.jar") != null, "the runtime travels inside");
            assertEquals("dev.mmcheck.agent.Agent", jar.getManifest().getMainAttributes().getValue("Premain-Class"));
        }
        assertEquals(List.of(), foreign, "every class is under dev.mmcheck (Byte Buddy, ASM, SLF4J, Logback, Jackson "
                + "relocated)");
        try (JarFile runtime = new JarFile(AgentRun.ROOT.resolve("runtime/target/mmcheck-runtime-0.1.0-SNAPSHOT.jar")
                .toFile())) {
            assertTrue(runtime.stream().filter(e -> e.getName().endsWith(".class"))
                    .allMatch(e -> e.getName().startsWith("dev/mmcheck/runtime/")), "JCTools is relocated in the runtime");
        }
    }
}
