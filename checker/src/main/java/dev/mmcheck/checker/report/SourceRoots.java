package dev.mmcheck.checker.report;

import dev.mmcheck.checker.event.Site;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a site's source file is, as a path relative to the repository's root: what GitHub code scanning needs in
 * a SARIF result's {@code artifactLocation.uri} to annotate the file (docs/build.md, "SARIF on GitHub").
 *
 * <p>A site names its class and its file's simple name ({@code SpscArrayQueue.java}); its package gives the path
 * under a source root ({@code org/jctools/queues/SpscArrayQueue.java}). The first root holding that path wins,
 * and the result is relative to the base: the nearest directory at or above the working directory that holds
 * {@code .git}, else the working directory itself (where the upload step resolves relative paths from). Lookups are
 * cached per file; only the writers call it, once per location, at the end of a run.
 */
public final class SourceRoots {

    private final Path base;
    private final List<Path> roots;
    private final boolean given;
    private final Map<String, Optional<String>> cache = new HashMap<>();

    private SourceRoots(Path base, List<Path> roots, boolean given) {
        this.base = base;
        this.roots = List.copyOf(roots);
        this.given = given;
    }

    /** The roots a user named ({@code sourceRoots=}, {@code --source-root}), relative to the working directory. */
    public static SourceRoots of(List<Path> roots) {
        return of(Path.of("").toAbsolutePath().normalize(), roots);
    }

    /** The roots {@code roots}, relative ones taken from {@code cwd}, the base found at or above {@code cwd}. */
    public static SourceRoots of(Path cwd, List<Path> roots) {
        cwd = cwd.toAbsolutePath().normalize();
        List<Path> absolute = new ArrayList<>();
        for (Path r : roots) {
            absolute.add(cwd.resolve(r).normalize());
        }
        return new SourceRoots(repositoryRoot(cwd), absolute, true);
    }

    /**
     * No roots named: Maven's and Gradle's conventional ones under the working directory ({@code src/main/java},
     * {@code src/test/java}) where they exist, then the working directory itself.
     */
    public static SourceRoots conventional() {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        List<Path> found = new ArrayList<>();
        for (String r : List.of("src/main/java", "src/test/java")) {
            Path p = cwd.resolve(r);
            if (Files.isDirectory(p)) {
                found.add(p);
            }
        }
        found.add(cwd);
        return new SourceRoots(repositoryRoot(cwd), found, false);
    }

    /**
     * Parses a list of roots separated by the platform's path separator ({@code :} on Unix), as the agent's option
     * takes it; each must be a directory.
     *
     * @throws IllegalArgumentException naming the first root that is not a directory
     */
    public static SourceRoots parse(String list) {
        List<Path> roots = new ArrayList<>();
        for (String s : list.split(File.pathSeparator)) {
            if (s.isBlank()) {
                continue;
            }
            Path p = Path.of(s.trim());
            if (!Files.isDirectory(p)) {
                throw new IllegalArgumentException("'" + s.trim() + "' is not a directory");
            }
            roots.add(p);
        }
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("needs at least one directory");
        }
        return of(roots);
    }

    /** The nearest directory at or above {@code dir} that holds {@code .git} (a directory, or a worktree's file), else {@code dir}. */
    static Path repositoryRoot(Path dir) {
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.exists(d.resolve(".git"))) {
                return d;
            }
        }
        return dir;
    }

    /** The directory the paths are relative to. */
    public Path base() {
        return base;
    }

    /** The roots searched, in order. */
    public List<Path> roots() {
        return roots;
    }

    /** Whether a user named the roots (else they are the conventional ones). */
    public boolean given() {
        return given;
    }

    /** The path of {@code s}'s source file under the package of its class, {@code org/x/Queue.java} (or its file's name). */
    public static String packagePath(Site s) {
        int dot = s.className().lastIndexOf('.');
        return dot < 0 ? s.file() : s.className().substring(0, dot).replace('.', '/') + "/" + s.file();
    }

    /** The path of {@code s}'s source file relative to {@link #base()} with {@code /} separators, when a root holds it. */
    public Optional<String> find(Site s) {
        if (s.file().isEmpty()) {
            return Optional.empty();
        }
        return cache.computeIfAbsent(packagePath(s), this::lookUp);
    }

    private Optional<String> lookUp(String packagePath) {
        for (Path r : roots) {
            Path f = r.resolve(packagePath).normalize();
            if (Files.isRegularFile(f) && f.startsWith(base)) {
                return Optional.of(base.relativize(f).toString().replace(File.separatorChar, '/'));
            }
        }
        return Optional.empty();
    }
}
