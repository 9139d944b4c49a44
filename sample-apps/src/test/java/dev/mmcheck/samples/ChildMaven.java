package dev.mmcheck.samples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's Maven project under src/it, copied to a directory and built by a child Maven on the build's
 * own local repository, with the versions the parent pom pins and the paths of the jars just built
 * ({@code mmcheck.agent}, {@code mmcheck.junit5}) passed in as properties.
 */
final class ChildMaven {

    /** What a build printed and how it exited. */
    record Build(int exit, String output) {
    }

    private final Path project;

    private ChildMaven(Path project) {
        this.project = project;
    }

    /** The project {@code src/it/NAME} copied into {@code dir}. */
    static ChildMaven of(String name, Path dir) throws IOException {
        Path from = AgentRun.ROOT.resolve("sample-apps/src/it/" + name);
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
        return new ChildMaven(dir);
    }

    /** The copied project's directory. */
    Path dir() {
        return project;
    }

    /** Runs {@code mvn test} with {@code -Dtest=test} (all tests when null) and {@code -D} properties {@code more}. */
    Build test(String test, String... more) throws Exception {
        return test(test, java.util.Map.of(), more);
    }

    /**
     * Runs {@code mvn test} with {@code -Dtest=test} (all tests when null), the properties {@code set} (a version:
     * {@code junit.version}) and {@code -D} properties {@code more}.
     */
    Build test(String test, java.util.Map<String, String> set, String... more) throws Exception {
        String home = System.getProperty("mmcheck.maven.home");
        List<String> cmd = new ArrayList<>(List.of(Path.of(home, "bin", "mvn").toString(), "-B", "-ntp", "test",
                "-Dmaven.repo.local=" + System.getProperty("mmcheck.maven.repo"),
                "-Dmmcheck.agent=" + AgentRun.AGENT,
                "-Dmmcheck.junit5=" + AgentRun.ROOT.resolve("junit5/target/mmcheck-junit5-"
                        + System.getProperty("mmcheck.version") + ".jar")));
        if (test != null) {
            cmd.add("-Dtest=" + test);
        }
        for (String m : more) {
            cmd.add("-D" + m);
        }
        for (String p : List.of("junit", "surefire", "resources", "compiler")) {
            String key = p.equals("junit") ? "junit.version" : p + ".plugin.version";
            cmd.add("-D" + key + "=" + set.getOrDefault(key, System.getProperty("mmcheck." + p + ".version")));
        }
        set.forEach((k, v) -> {
            if (!k.endsWith(".version")) {
                cmd.add("-D" + k + "=" + v);
            }
        });
        Path log = project.resolve((test == null ? "all" : test) + more.length + set.size() + ".log");
        Process process = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "child Maven timed out");
        return new Build(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
