package dev.mmcheck.checker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's packages depend on each other in one direction only (event and clock at the bottom;
 * finding; the analyses; report; the engine; the command line on top), and the checker never uses the
 * agent or the runtime: it must stay testable on hand-written traces. Read from the sources, so that a
 * reference by full name counts as much as an import.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/mmcheck/checker");
    private static final Pattern REFERENCE = Pattern.compile("dev\\.mmcheck\\.(checker\\.([a-z]+)|agent|runtime)\\b");

    /** Package -> the other checker packages its sources name. */
    static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> deps = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                String pkg = dir.getFileName().toString();
                Set<String> out = new TreeSet<>();
                try (Stream<Path> files = Files.walk(dir)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                        Matcher m = REFERENCE.matcher(code(Files.readString(f)));
                        while (m.find()) {
                            String target = m.group(2) != null ? m.group(2) : m.group(1);
                            if (!target.equals(pkg)) {
                                out.add(target);
                            }
                        }
                    }
                }
                deps.put(pkg, out);
            }
        }
        return deps;
    }

    @Test
    void noCyclesBetweenThePackagesAndNoAgent() throws IOException {
        Map<String, Set<String>> deps = dependencies();
        assertTrue(deps.keySet().containsAll(List.of("event", "clock", "finding", "monitor", "serial", "report",
                "engine", "cli", "trace", "history")), deps.toString());
        for (Map.Entry<String, Set<String>> e : deps.entrySet()) {
            assertTrue(!e.getValue().contains("agent") && !e.getValue().contains("runtime"),
                    e.getKey() + " uses the agent or the runtime: " + e.getValue());
        }
        List<String> cycle = cycle(deps);
        assertEquals(List.of(), cycle, "a cycle between packages: " + deps);
    }

    @Test
    void theLayersAreAsDocumented() throws IOException {
        // docs/architecture.md: what each package may use
        Map<String, Set<String>> deps = dependencies();
        assertEquals(Set.of(), deps.get("event"));
        assertEquals(Set.of(), deps.get("clock"));
        assertEquals(Set.of(), deps.get("finding"));
        assertTrue(Set.of("event", "clock", "finding").containsAll(deps.get("monitor")), deps.get("monitor").toString());
        assertTrue(Set.of("event", "finding").containsAll(deps.get("serial")), deps.get("serial").toString());
        assertTrue(Set.of("event", "finding").containsAll(deps.get("report")), deps.get("report").toString());
    }

    /** A cycle in the graph, as a list of packages, or an empty list. */
    static List<String> cycle(Map<String, Set<String>> deps) {
        Map<String, Integer> state = new TreeMap<>();
        for (String p : deps.keySet()) {
            List<String> path = new ArrayList<>();
            if (visit(p, deps, state, path)) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean visit(String p, Map<String, Set<String>> deps, Map<String, Integer> state,
            List<String> path) {
        Integer s = state.get(p);
        if (s != null && s == 2) {
            return false;
        }
        path.add(p);
        if (s != null && s == 1) {
            return true;
        }
        state.put(p, 1);
        for (String q : deps.getOrDefault(p, Set.of())) {
            if (deps.containsKey(q) && visit(q, deps, state, path)) {
                return true;
            }
        }
        state.put(p, 2);
        path.remove(path.size() - 1);
        return false;
    }

    @Test
    void theCycleFinderFindsACycle() {
        assertEquals(List.of("a", "b", "a"), cycle(new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of("a")))));
        assertEquals(List.of(), cycle(Map.of("a", Set.of("b"), "b", Set.of())));
    }

    /** The source without its comments: a name in a comment is no dependency. */
    static String code(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
    }
}
