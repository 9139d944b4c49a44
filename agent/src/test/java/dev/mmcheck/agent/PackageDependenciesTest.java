package dev.mmcheck.agent;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
 * The agent's rooms (docs/architecture.md): the bytecode rewriting and the checker thread never use
 * each other (both use the id tables), only the premain package wires them, and nothing uses the premain
 * package back; the runtime, which runs on the application's threads, uses neither the agent nor the
 * checker; the JUnit 5 extension uses only the runtime. No module has a cycle between its packages
 * (every module, every package, nested ones and a module's top package included; the checker's own test also
 * checks the checker's layers), and every package of runtime, agent, checker, junit5 and the Maven plugin has a
 * package-info.java. Read from the sources, so that a reference by full name counts as much as an import.
 */
class PackageDependenciesTest {

    /** A qualified name of mmcheck's: its package is the run of lower-case segments. */
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.mmcheck(?:\\.[a-z][a-z0-9_]*)+");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");

    /**
     * Every module's main sources, by their source roots (the checker's own test also checks its packages' layers).
     * A new module goes here.
     */
    private static final List<String> MODULES = List.of("src/main/java", "../runtime/src/main/java",
            "../checker/src/main/java", "../junit5/src/main/java", "../mmcheck-maven-plugin/src/main/java",
            "../sample-apps/src/main/java");

    /** The modules whose every package states its rules in a package-info.java (the samples are programs, not rooms). */
    private static final List<String> WITH_RULES = List.of("src/main/java", "../runtime/src/main/java",
            "../checker/src/main/java", "../junit5/src/main/java", "../mmcheck-maven-plugin/src/main/java");

    /**
     * Cycles a module has today and may keep until they are taken apart, by module source root: each entry one cycle
     * (its packages, sorted) with a comment saying why it is there. Empty: no module has one.
     */
    private static final Map<String, List<List<String>>> KNOWN_CYCLES = Map.of();

    /** Package -> the mmcheck packages its sources name (any module's), for every package under {@code root}. */
    static Map<String, Set<String>> dependencies(Path root) throws IOException {
        Map<String, Set<String>> deps = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = code(Files.readString(f));
                Matcher p = PACKAGE.matcher(source);
                String pkg = p.find() ? p.group(1) : "";
                Set<String> out = deps.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(source);
                while (m.find()) {
                    if (!m.group().equals(pkg)) {
                        out.add(m.group());
                    }
                }
            }
        }
        return deps;
    }

    /**
     * Every cycle of {@code deps} (edges to packages outside it ignored): its strongly connected components
     * of more than one package, each sorted, in order.
     */
    static List<List<String>> cycles(Map<String, Set<String>> deps) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        List<String> stack = new ArrayList<>();
        List<List<String>> out = new ArrayList<>();
        for (String p : new TreeSet<>(deps.keySet())) {
            if (!index.containsKey(p)) {
                connect(p, deps, index, low, stack, out);
            }
        }
        out.sort(java.util.Comparator.comparing(List::toString));
        return out;
    }

    /** Tarjan's strongly connected components, from {@code v}. */
    private static void connect(String v, Map<String, Set<String>> deps, Map<String, Integer> index,
            Map<String, Integer> low, List<String> stack, List<List<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.add(v);
        for (String w : deps.get(v)) {
            if (!deps.containsKey(w)) {
                continue; // another module's package
            }
            if (!index.containsKey(w)) {
                connect(w, deps, index, low, stack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.remove(stack.size() - 1);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                out.add(component);
            }
        }
    }

    @Test
    void noModuleHasACycleBetweenItsPackages() throws IOException {
        for (String module : MODULES) {
            Map<String, Set<String>> deps = dependencies(Path.of(module));
            assertTrue(!deps.isEmpty(), "no sources under " + module);
            assertEquals(KNOWN_CYCLES.getOrDefault(module, List.of()), cycles(deps),
                    "cycles between the packages of " + module + ": " + deps);
        }
    }

    @Test
    void everyPackageStatesItsRules() throws IOException {
        List<String> without = new ArrayList<>();
        for (String module : WITH_RULES) {
            try (Stream<Path> files = Files.walk(Path.of(module))) {
                for (Path dir : files.filter(p -> p.toString().endsWith(".java")).map(Path::getParent).distinct().toList()) {
                    if (!Files.exists(dir.resolve("package-info.java"))) {
                        without.add(dir.toString());
                    }
                }
            }
        }
        assertEquals(List.of(), without, "packages without a package-info.java stating their rules in one paragraph");
    }

    @Test
    void rewritingAndCheckingAreApartAndTheRuntimeStandsAlone() throws IOException {
        Map<String, Set<String>> agent = dependencies(Path.of("src/main/java"));
        assertEquals(Set.of("dev.mmcheck.agent", "dev.mmcheck.agent.rewrite", "dev.mmcheck.agent.check",
                "dev.mmcheck.agent.ids", "dev.mmcheck.agent.output"), agent.keySet(),
                "the agent's packages (docs/architecture.md lists them)");
        Set<String> rewrite = agent.get("dev.mmcheck.agent.rewrite");
        Set<String> check = agent.get("dev.mmcheck.agent.check");
        Set<String> ids = agent.get("dev.mmcheck.agent.ids");
        Set<String> output = agent.get("dev.mmcheck.agent.output");
        assertTrue(!output.contains("dev.mmcheck.agent.rewrite") && !output.contains("dev.mmcheck.agent"),
                "output uses " + output);
        assertTrue(!rewrite.contains("dev.mmcheck.agent.check") && !rewrite.contains("dev.mmcheck.agent"),
                "rewrite uses " + rewrite);
        assertTrue(!check.contains("dev.mmcheck.agent.rewrite") && !check.contains("dev.mmcheck.agent"),
                "check uses " + check);
        assertTrue(!ids.contains("dev.mmcheck.agent.rewrite") && !ids.contains("dev.mmcheck.agent.check")
                && !ids.contains("dev.mmcheck.agent"), "ids uses " + ids);
        Map<String, Set<String>> runtime = dependencies(Path.of("../runtime/src/main/java"));
        assertEquals(Map.of("dev.mmcheck.runtime", Set.of()), runtime, "the runtime uses only itself");
        Map<String, Set<String>> junit5 = dependencies(Path.of("../junit5/src/main/java"));
        assertEquals(Map.of("dev.mmcheck.junit5", Set.of("dev.mmcheck.runtime")), junit5,
                "the JUnit 5 extension uses only the runtime");
    }

    @Test
    void theCycleFinderFindsEveryCycle() {
        Map<String, Set<String>> deps = new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of("a", "c"),
                "c", Set.of("d"), "d", Set.of("e", "x.other"), "e", Set.of("c"), "f", Set.of("a")));
        assertEquals(List.of(List.of("a", "b"), List.of("c", "d", "e")), cycles(deps));
        assertEquals(List.of(), cycles(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of())));
    }

    @Test
    void namesInCommentsAndLiteralsAreNoDependencies() {
        String code = code("a(\"dev.mmcheck.x.A\", '\"'); // dev.mmcheck.y.B\n/* dev.mmcheck.w */ b(dev.mmcheck.z.C.class);");
        assertTrue(code.contains("dev.mmcheck.z.C") && !code.contains("dev.mmcheck.x") && !code.contains("dev.mmcheck.y")
                && !code.contains("dev.mmcheck.w"), code);
    }

    /** Comments, text blocks, strings and characters, whichever starts first. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "(?s)/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])+'");

    /**
     * The source without its comments and literals: a name in a comment is no dependency, nor is a name in a
     * string (a package prefix the rewriter leaves alone, a class looked up by name on the boot class path).
     */
    static String code(String source) {
        return NOT_CODE.matcher(source).replaceAll(" ");
    }
}
