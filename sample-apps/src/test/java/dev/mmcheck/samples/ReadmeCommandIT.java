package dev.mmcheck.samples;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A newcomer's first run: the java command of the README's first command, on Java 17 and on Java 25, prints
 * no warning. Every run used to start with the JVM's "Sharing is only supported for boot loader classes
 * because bootstrap classpath has been appended", since the agent appended the runtime to the bootstrap class
 * path after start-up; it now defines the runtime's classes in the boot loader (docs/agent.md). Java 25 is
 * skipped, saying so, when no such JDK is found (as in Jdk25IT).
 */
class ReadmeCommandIT {

    @TempDir
    Path dir;

    /**
     * The java invocation of the README's first command (its first code block's first line), its relative paths
     * made absolute (the report goes to the working directory).
     */
    static List<String> readmeCommand() throws Exception {
        for (String line : Files.readAllLines(AgentRun.ROOT.resolve("README.md"))) {
            if (line.startsWith("    ") && !line.isBlank()) {
                int java = line.indexOf("java -javaagent:");
                if (java < 0) {
                    throw new AssertionError("the README's first command runs no java -javaagent: " + line);
                }
                List<String> cmd = new ArrayList<>();
                for (String token : line.substring(java).trim().split(" +")) {
                    if (token.startsWith("-javaagent:")) {
                        cmd.add("-javaagent:" + AgentRun.ROOT.resolve(token.substring("-javaagent:".length())));
                    } else if (!token.startsWith("-") && Files.exists(AgentRun.ROOT.resolve(token))) {
                        cmd.add(AgentRun.ROOT.resolve(token).toString());
                    } else {
                        cmd.add(token);
                    }
                }
                return cmd;
            }
        }
        throw new AssertionError("no command in README.md");
    }

    /** A JDK of feature release {@code feature}: this JVM's, or one under /usr/lib/jvm; null if none. */
    static Path jdk(int feature) throws Exception {
        if (Runtime.version().feature() == feature) {
            return Path.of(System.getProperty("java.home"));
        }
        if (feature == 25) {
            return Jdk25IT.jdk25();
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> s = Files.list(jvms)) {
                for (Path p : s.sorted().toList()) {
                    if (p.getFileName().toString().contains("-" + feature) && Files.isExecutable(p.resolve("bin/java"))) {
                        return p;
                    }
                }
            }
        }
        return null;
    }

    @Test
    void theReadmeCommandPrintsNoWarningOnJava17() throws Exception {
        runWithoutWarnings(17);
    }

    @Test
    void theReadmeCommandPrintsNoWarningOnJava25() throws Exception {
        runWithoutWarnings(25);
    }

    private void runWithoutWarnings(int feature) throws Exception {
        Path jdk = jdk(feature);
        if (jdk == null) {
            System.out.println("ReadmeCommandIT: Java " + feature + " SKIPPED: no such JDK (set MMCHECK_JDK25 for 25)");
        }
        Assumptions.assumeTrue(jdk != null, "no Java " + feature + " JDK found");
        List<String> cmd = readmeCommand();
        assertEquals("java", cmd.get(0), cmd.toString());
        cmd.set(0, jdk.resolve("bin/java").toString());
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), output);
        assertTrue(output.contains("mmcheck ") && output.contains("checked with"), "the agent ran: " + output);
        assertTrue(Files.exists(dir.resolve("mmcheck-report.json")), "the report in the working directory: " + output);
        List<String> warnings = output.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).contains("warning")).toList();
        assertEquals(List.of(), warnings, "Java " + feature + " (" + jdk + "), " + cmd + ":\n" + output);
        String version = new String(new ProcessBuilder(jdk.resolve("bin/java").toString(), "-version")
                .redirectErrorStream(true).start().getInputStream().readAllBytes());
        assertNotNull(version);
        assertTrue(version.contains("\"" + feature + ".") || version.contains("\"" + feature + "\""),
                "the JDK is Java " + feature + ": " + version);
    }
}
