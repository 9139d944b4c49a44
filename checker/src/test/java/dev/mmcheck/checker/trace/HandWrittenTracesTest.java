package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.oracle.SerialOracle;
import dev.mmcheck.checker.oracle.SerialTrace;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.result.Violation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replays every hand-written trace under src/test/resources/traces (and the samples' bundled traces,
 * copied to traces/samples) and compares the distinct
 * violations of each analysis with the verdict the file declares:
 * <pre>
 *   # expect tso: clean
 *   # expect pso: store=MP.java:10 prev=MP.java:20 access=MP.java:21
 *   # expect tsoser: txs=Pool.java:10,Pool.java:20 late=Pool.java:11,Pool.java:21
 * </pre>
 * Every file must declare tso, pso, sober and jmm; scser and tsoser, when not declared, must be clean. A
 * serializability violation is described by the first lines of its transactions (sorted) and, for
 * tsoser, the lines of the writes that commit late (sorted; omitted when none); a site reached through a
 * call ({@code via}) adds {@code via FILE:LINE}. A trace with atomic
 * blocks is also given to the brute-force serializability oracles, which must agree. A file may also
 * declare the findings the report groups its violations into, one line each by key:
 * <pre>
 *   # expect finding: race:Buf#putInt@Ring#write:int[][]->Buf#getInt@Reader#poll:int[][]
 * </pre>
 * and then gets exactly those, as many as declared. A trace with stale reads the jmm analysis drops as validated
 * (docs/jmm-model.md, "Seqlocks") declares how many: {@code # validated reads: N}.
 */
class HandWrittenTracesTest {

    @TestFactory
    Stream<DynamicTest> everyTraceHasItsDeclaredVerdict() throws IOException, URISyntaxException {
        Path dir = Path.of(getClass().getResource("/traces").toURI());
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".trace")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        assertTrue(files.stream().anyMatch(f -> f.toString().contains("samples")), "the samples' traces are included");
        return files.stream().map(f -> DynamicTest.dynamicTest(dir.relativize(f).toString(), () -> check(f)));
    }

    /** How a declaration names a violation. */
    static String describe(Violation v) {
        if (!v.isCycle()) {
            return "store=" + at(v.store().site()) + " prev=" + at(v.prev().site()) + " access="
                    + at(v.access().site());
        }
        Set<String> txs = new TreeSet<>();
        v.transactions().forEach(x -> txs.add(x.site().location()));
        Set<String> late = new TreeSet<>();
        v.edges().stream().filter(e -> e.isLate()).forEach(e -> late.add(
                (e.late().equals("source") ? e.source() : e.target()).site().location()));
        return "txs=" + String.join(",", txs) + (late.isEmpty() ? "" : " late=" + String.join(",", late));
    }

    private static String at(dev.mmcheck.checker.event.Site s) {
        return s.location() + (s.caller() == null ? "" : " via " + s.caller().location());
    }

    private static void check(Path file) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Map<Analysis, Set<String>> expected = new EnumMap<>(Analysis.class);
        List<String> findings = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# expect finding:")) {
                findings.add(line.substring("# expect finding:".length()).trim());
            } else if (line.startsWith("# expect ")) {
                String[] kv = line.substring("# expect ".length()).split(":", 2);
                Analysis a = Analysis.parse(kv[0]);
                Set<String> set = expected.computeIfAbsent(a, k -> new TreeSet<>());
                String v = kv[1].trim();
                if (!v.equals("clean")) {
                    set.add(v);
                }
            }
        }
        assertTrue(expected.keySet().containsAll(EnumSet.of(Analysis.TSO, Analysis.PSO, Analysis.SOBER, Analysis.JMM)),
                file + " must declare tso, pso, sober and jmm");
        expected.computeIfAbsent(Analysis.SCSER, k -> new TreeSet<>());
        expected.computeIfAbsent(Analysis.TSOSER, k -> new TreeSet<>());
        Symbols symbols = new Symbols();
        Checker checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(EnumSet.allOf(Analysis.class)));
        TextTraceReader.read(file.getFileName().toString(), new StringReader(text), symbols, checker);
        CheckResult result = checker.result();
        if (text.contains("tx-begin")) {
            SerialTrace.Collector c = new SerialTrace.Collector();
            TextTraceReader.read(file.getFileName().toString(), new StringReader(text), new Symbols(), c);
            SerialTrace trace = c.trace();
            if (trace != null) {
                assertEquals(!SerialOracle.scSerializable(trace), !result.violationsOf(Analysis.SCSER).isEmpty(),
                        file.getFileName() + ": scser against the oracle");
                Boolean tso = SerialOracle.tsoSerializable(trace, 18);
                assertTrue(tso != null, file.getFileName() + ": too many undirected edges for the oracle");
                assertEquals(!tso, !result.violationsOf(Analysis.TSOSER).isEmpty(),
                        file.getFileName() + ": tsoser against the oracle");
            }
        }
        for (Analysis a : Analysis.values()) {
            Set<String> actual = new TreeSet<>();
            for (Violation v : result.violationsOf(a)) {
                actual.add(describe(v));
                assertTrue(v.count() >= 1);
                assertFalse(v.advice().isEmpty());
            }
            assertEquals(expected.get(a), actual, file.getFileName() + ": " + a.option());
        }
        if (!findings.isEmpty()) {
            List<String> keys = new ArrayList<>();
            Finding.group(result.violations()).forEach(f -> keys.add(f.key()));
            Collections.sort(keys);
            Collections.sort(findings);
            assertEquals(findings, keys, file.getFileName() + ": the findings");
        }
        List<Note> notes = new ArrayList<>(result.notes());
        notes.removeIf(n -> n.kind().equals("fenced-shortcut"));
        // a validated read is said (trace 32 has one): not a bound
        notes.removeIf(n -> n.kind().equals("jmm-validated-reads") && text.contains("# validated reads: " + n.count()));
        assertEquals(List.of(), notes, "no bound may be reached on a small trace");
    }
}
