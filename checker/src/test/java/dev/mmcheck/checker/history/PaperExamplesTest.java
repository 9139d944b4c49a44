package dev.mmcheck.checker.history;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The histories under src/test/resources/histories, each with the verdicts its "# expect:" line states
 * (for the paper's figures: what the paper says, what its lemmas imply, and where the two disagree with
 * the definitions, what the definitions give, as each file explains). Each is also checked against
 * brute force.
 */
class PaperExamplesTest {

    static final String[] FILES = {"fig1a", "fig1b", "fig1c", "fig1d", "fig3", "sb", "mp-violation",
        "wccm-not-tso", "times-sc-only", "consistent", "own-future-write", "lb", "corr", "wrc", "two-plus-two-w"};

    /** A history file added to the directory but not to {@link #FILES} would never be checked. */
    @Test
    void everyHistoryFileIsListed() throws IOException {
        java.nio.file.Path dir = java.nio.file.Path.of("src", "test", "resources", "histories");
        assertTrue(java.nio.file.Files.isDirectory(dir), "run from the checker module: " + dir.toAbsolutePath());
        try (var files = java.nio.file.Files.list(dir)) {
            List<String> found = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".hist"))
                    .map(n -> n.substring(0, n.length() - ".hist".length())).sorted().toList();
            assertEquals(java.util.Arrays.stream(FILES).sorted().toList(), found);
        }
    }

    static History load(String name) throws IOException, HistoryFormatException {
        try (InputStream in = PaperExamplesTest.class.getResourceAsStream("/histories/" + name + ".hist")) {
            assertNotNull(in, "missing resource " + name);
            return HistoryFiles.parse(name + ".hist", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static Map<String, Boolean> expectations(String name) throws IOException {
        Map<String, Boolean> m = new LinkedHashMap<>();
        try (InputStream in = PaperExamplesTest.class.getResourceAsStream("/histories/" + name + ".hist")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("# expect:")) {
                    for (String kv : line.substring("# expect:".length()).trim().split("\\s+")) {
                        String[] p = kv.split("=");
                        m.put(p[0], p[1].equals("yes"));
                    }
                }
            }
        }
        return m;
    }

    @TestFactory
    List<DynamicTest> statedVerdicts() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String f : FILES) {
            tests.add(DynamicTest.dynamicTest(f, () -> {
                History h = load(f);
                Map<String, Boolean> expect = expectations(f);
                assertFalse(expect.isEmpty(), f + " states no expectation");
                HistoryResult r = HistoryChecker.check(h, HistoryChecker.Options.defaults());
                HistoryOracle o = new HistoryOracle(h);
                for (Map.Entry<String, Boolean> e : expect.entrySet()) {
                    boolean actual;
                    boolean oracle;
                    switch (e.getKey()) {
                        case "SC":
                            actual = r.sc().consistent();
                            oracle = o.sc(h.timed());
                            break;
                        case "TSO":
                            actual = r.tso().consistent();
                            oracle = o.tso(h.timed());
                            break;
                        default:
                            Criterion c = criterion(e.getKey());
                            actual = r.criteria().get(c);
                            oracle = o.criteria().get(c);
                    }
                    assertEquals(e.getValue(), actual, f + ": " + e.getKey());
                    assertEquals(e.getValue(), oracle, f + ": " + e.getKey() + " by brute force");
                }
                for (Verdict v : new Verdict[] {r.sc(), r.tso()}) {
                    if (!v.consistent()) {
                        assertTrue(v.explanation().cycles() > 0, f + ": " + v.model() + " without a cycle");
                    }
                }
            }));
        }
        return tests;
    }

    private static Criterion criterion(String label) {
        for (Criterion c : Criterion.values()) {
            if (c.label().equals(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown key " + label);
    }

    @Test
    void fig1dIsOnlyRefutedByTheEnumerationWithACaseForEachOrderOfTheTwoWrites() throws Exception {
        History h = load("fig1d");
        HistoryResult r = HistoryChecker.check(h, HistoryChecker.Options.defaults().withModels(true, false));
        assertEquals("search", r.sc().stage());
        assertEquals(1, r.stats().pwwUnordered(), "pww must leave exactly the two writes of z unordered");
        Explanation e = r.sc().explanation();
        assertEquals(2, e.cases().size(), e.toString());
        for (Explanation c : e.cases()) {
            assertNotNull(c.cycle(), c.toString());
        }
    }

    @Test
    void theTimesDecideOnlyWhenTheyAreUsed() throws Exception {
        History h = load("times-sc-only");
        HistoryResult with = HistoryChecker.check(h, HistoryChecker.Options.defaults());
        assertEquals("time order", with.sc().stage());
        assertTrue(with.sc().explanation().cycle().stream().anyMatch(e -> e.kind() == EdgeKind.RT));
        HistoryResult without = HistoryChecker.check(h, HistoryChecker.Options.defaults().withTimes(false));
        assertTrue(without.sc().consistent());
        assertFalse(without.sc().timed());
    }

    @Test
    void aConsistentHistoryComesWithATotalOrderThatIsAnScExecution() throws Exception {
        History h = load("consistent");
        HistoryResult r = HistoryChecker.check(h, HistoryChecker.Options.defaults());
        int[] order = r.sc().totalOrder();
        assertEquals(h.size(), order.length);
        // replay the order on a memory: every read must return the value last written
        Map<Integer, Long> memory = new java.util.HashMap<>();
        int[] next = new int[h.threads()];
        for (int id : order) {
            Op o = h.op(id);
            assertEquals(next[o.thread()]++, o.index(), "program order broken at " + h.name(id));
            if (o.write()) {
                memory.put(o.var(), o.value());
            } else {
                assertEquals(memory.getOrDefault(o.var(), h.initValue(o.var())), o.value(), h.name(id));
            }
        }
    }
}
