package dev.mmcheck.checker;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's packages depend on each other in one direction only (event and clock at the bottom;
 * finding; the analyses and the result model; the engine; the report's writers; the command line on top): no cycle,
 * among every package of the module, nested ones and the top one included; and the checker never uses the agent, and
 * of the runtime only {@code Kinds}' constants, which javac copies into the checker's classes: it must stay testable
 * on hand-written traces, and run without the runtime. Read from the sources, so that a reference by full name
 * counts as much as an import; and from the compiled classes, for the runtime.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final String CHECKER = "dev.mmcheck.checker";
    /** The runtime's package: the checker may name only its {@code Kinds} (the event codes' one list). */
    private static final String RUNTIME = "dev.mmcheck.runtime";
    /** A qualified name of mmcheck's: its package is the run of lower-case segments. */
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.mmcheck(?:\\.[a-z][a-z0-9_]*)+");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    /** Comments, text blocks, strings and characters, whichever starts first. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "(?s)/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])+'");

    /**
     * Package -> the mmcheck packages its sources name, for every package of the checker (nested ones and
     * the top one included), each named relative to {@code dev.mmcheck.checker} ({@code report},
     * {@code report.x}; the top package is {@code ""}); another module's package keeps its full name.
     */
    static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> deps = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = code(Files.readString(f));
                Matcher p = PACKAGE.matcher(source);
                String pkg = relative(p.find() ? p.group(1) : "");
                Set<String> out = deps.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(source);
                while (m.find()) {
                    String target = relative(m.group());
                    if (!target.equals(pkg)) {
                        out.add(target);
                    }
                }
            }
        }
        return deps;
    }

    private static String relative(String pkg) {
        return pkg.equals(CHECKER) ? "" : pkg.startsWith(CHECKER + ".") ? pkg.substring(CHECKER.length() + 1) : pkg;
    }

    @Test
    void noCyclesBetweenThePackagesAndNoAgent() throws IOException {
        Map<String, Set<String>> deps = dependencies();
        assertTrue(deps.keySet().containsAll(List.of("event", "clock", "finding", "monitor", "serial", "result",
                "report", "engine", "cli", "trace", "history")), deps.toString());
        for (Map.Entry<String, Set<String>> e : deps.entrySet()) {
            for (String used : e.getValue()) {
                assertTrue(deps.containsKey(used) || used.equals(RUNTIME), e.getKey() + " uses " + used
                        + ", not the checker's");
            }
        }
        assertEquals(List.of(), cycles(deps), "cycles between packages: " + deps);
    }

    @Test
    void theLayersAreAsDocumented() throws IOException {
        // docs/architecture.md: what each package may use
        Map<String, Set<String>> deps = dependencies();
        deps.values().forEach(used -> used.remove(RUNTIME)); // Kinds' constants: below every package (see below)
        assertEquals(Set.of(), deps.get("event"));
        assertEquals(Set.of(), deps.get("clock"));
        assertEquals(Set.of(), deps.get("finding"));
        assertTrue(Set.of("event", "clock", "finding").containsAll(deps.get("monitor")), deps.get("monitor").toString());
        assertTrue(Set.of("event", "finding").containsAll(deps.get("serial")), deps.get("serial").toString());
        // the result model never uses its writers; the writers read the model, and the engine builds it without them
        assertTrue(Set.of("event", "finding").containsAll(deps.get("result")), deps.get("result").toString());
        assertTrue(Set.of("event", "finding", "result", "fix").containsAll(deps.get("report")),
                deps.get("report").toString());
        // the fix replays runs through the engine and reads the result model, never the writers (docs/fix.md)
        assertTrue(Set.of("event", "finding", "result", "engine").containsAll(deps.get("fix")),
                deps.get("fix").toString());
        assertFalse(deps.get("engine").contains("report"), deps.get("engine").toString());
        // the access-mode analysis: the monitor, and its adapter to the event stream and the findings
        assertTrue(Set.of("event", "finding").containsAll(deps.get("jmm")), deps.get("jmm").toString());
    }

    @Test
    void ofTheRuntimeOnlyKindsConstantsAndNoCompiledClassUsesIt() throws IOException {
        Pattern runtimeName = Pattern.compile("\\b" + Pattern.quote(RUNTIME) + "\\.(\\w+)");
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = runtimeName.matcher(code(Files.readString(f)));
                while (m.find()) {
                    assertEquals("Kinds", m.group(1), f + " uses the runtime's " + m.group(1));
                }
            }
        }
        // javac copies a constant into the class that uses it (and leaves at most an unused constant-pool entry naming
        // Kinds, never resolved): no compiled class of the checker uses the runtime, so the command line and the Maven
        // plugin run without it (the checker's dependency on it is "provided")
        Set<String> used = new TreeSet<>();
        int read = 0;
        try (Stream<Path> files = Files.walk(Path.of("target/classes"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                new ClassReader(Files.readAllBytes(f)).accept(new ClassRemapper(new ClassWriter(0), new Remapper() {
                    @Override
                    public String map(String internalName) {
                        if (internalName.startsWith(RUNTIME.replace('.', '/') + "/")) {
                            used.add(f.getFileName() + " uses " + internalName);
                        }
                        return internalName;
                    }
                }), 0);
                read++;
            }
        }
        assertTrue(read > 100, "compiled classes read: " + read);
        assertEquals(Set.of(), used);
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
    void theCycleFinderFindsEveryCycle() {
        Map<String, Set<String>> deps = new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of("a", "c"),
                "c", Set.of("d"), "d", Set.of("e", "x.other"), "e", Set.of("c"), "f", Set.of("a")));
        assertEquals(List.of(List.of("a", "b"), List.of("c", "d", "e")), cycles(deps));
        assertEquals(List.of(), cycles(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of())));
    }

    /** The source without its comments and literals: a name in either is no dependency. */
    static String code(String source) {
        return NOT_CODE.matcher(source).replaceAll(" ");
    }
}
