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
     * Runs {@code mvn test} with {@code -Dtest=test} (all tests when null), the properties {@code set} (a pinned
     * version replaced: {@code junit.version}) and {@code -D} properties {@code more}.
     */
    Build test(String test, java.util.Map<String, String> set, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("test"));
        if (test != null) {
            args.add("-Dtest=" + test);
        }
        for (String m : more) {
            args.add("-D" + m);
        }
        return run((test == null ? "all" : test) + more.length + set.size(),
                Path.of(System.getProperty("mmcheck.maven.repo")), args, set);
    }

    /** {@link #run(String, Path, List, java.util.Map)} with the pinned versions as they are. */
    Build run(String name, Path repo, List<String> args) throws Exception {
        return run(name, repo, args, java.util.Map.of());
    }

    /**
     * Runs {@code mvn ARGS} on local repository {@code repo}, with the pinned versions of the parent pom as properties
     * ({@code junit.version}, {@code surefire.plugin.version}...; those in {@code set} replaced, and its other
     * entries added) and the paths of the built jars; the output goes to {@code name.log} in the project.
     */
    Build run(String name, Path repo, List<String> args, java.util.Map<String, String> set) throws Exception {
        String home = System.getProperty("mmcheck.maven.home");
        List<String> cmd = new ArrayList<>(List.of(Path.of(home, "bin", "mvn").toString(), "-B", "-ntp",
                "-Dmaven.repo.local=" + repo,
                "-Dmmcheck.version=" + System.getProperty("mmcheck.version"),
                "-Dmmcheck.agent=" + AgentRun.AGENT,
                "-Dmmcheck.junit5=" + AgentRun.ROOT.resolve("junit5/target/mmcheck-junit5-"
                        + System.getProperty("mmcheck.version") + ".jar")));
        cmd.addAll(args);
        for (String p : List.of("junit", "surefire", "resources", "compiler", "jar", "dependency", "jacoco", "mockito")) {
            String key = p.equals("junit") || p.equals("jacoco") || p.equals("mockito") ? p + ".version"
                    : p + ".plugin.version";
            String value = set.getOrDefault(key, System.getProperty("mmcheck." + p + ".version"));
            if (value != null) {
                cmd.add("-D" + key + "=" + value);
            }
        }
        set.forEach((k, v) -> {
            if (!k.endsWith(".version")) {
                cmd.add("-D" + k + "=" + v);
            }
        });
        Path log = project.resolve(name + ".log");
        Process process = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "child Maven timed out");
        return new Build(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /**
     * A local repository in {@code dir} that is the build's own ({@code mmcheck.maven.repo}, each of its top folders
     * linked) but for {@code dev/mmcheck}, which holds the mmcheck artifacts just built as if installed there: the
     * plugin, the agent jar it depends on, their poms and the parent's. The build never installs into the shared
     * local repository; what a child downloads (JaCoCo) goes there through the links, as with {@link #test}.
     */
    static Path stagedRepository(Path dir) throws IOException {
        Path shared = Path.of(System.getProperty("mmcheck.maven.repo"));
        Path repo = Files.createDirectories(dir.resolve("repository"));
        try (Stream<Path> top = Files.list(shared)) {
            for (Path p : top.toList()) {
                if (!p.getFileName().toString().equals("dev")) {
                    Files.createSymbolicLink(repo.resolve(p.getFileName().toString()), p);
                }
            }
        }
        Path dev = Files.createDirectories(repo.resolve("dev"));
        if (Files.isDirectory(shared.resolve("dev"))) {
            try (Stream<Path> groups = Files.list(shared.resolve("dev"))) {
                for (Path p : groups.toList()) {
                    if (!p.getFileName().toString().equals("mmcheck")) {
                        Files.createSymbolicLink(dev.resolve(p.getFileName().toString()), p);
                    }
                }
            }
        }
        String v = System.getProperty("mmcheck.version");
        stage(dev, "mmcheck-parent", v, AgentRun.ROOT.resolve("pom.xml"), null, null);
        stage(dev, "mmcheck-agent", v, AgentRun.ROOT.resolve("agent/pom.xml"), AgentRun.AGENT, "agent");
        stage(dev, "mmcheck-maven-plugin", v, AgentRun.ROOT.resolve("mmcheck-maven-plugin/pom.xml"),
                AgentRun.ROOT.resolve("mmcheck-maven-plugin/target/mmcheck-maven-plugin-" + v + ".jar"), null);
        return repo;
    }

    private static void stage(Path dev, String artifact, String version, Path pom, Path jar, String classifier)
            throws IOException {
        Path at = Files.createDirectories(dev.resolve("mmcheck").resolve(artifact).resolve(version));
        Files.copy(pom, at.resolve(artifact + "-" + version + ".pom"));
        if (jar != null) {
            assertTrue(Files.isRegularFile(jar), "built before the integration tests: " + jar);
            Files.copy(jar, at.resolve(artifact + "-" + version + (classifier == null ? "" : "-" + classifier) + ".jar"));
        }
    }
}
