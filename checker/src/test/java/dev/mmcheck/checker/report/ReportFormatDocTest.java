package dev.mmcheck.checker.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.fix.FixSearch;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Failure;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.trace.TextTraceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JSON report's field names against docs/report-format.md: every field the writer writes is in the page's
 * list of fields ("Every field"), every field listed there is written by one of the reports below (an agent's with
 * every optional group of its {@code run} object, a serializability cycle's, a merge's), and every field the page's
 * tables describe is in the list. Objects whose keys are data (per analysis, per method, per thread) are listed as
 * {@code name.*}.
 */
class ReportFormatDocTest {

    private static final Path DOC = Path.of(System.getProperty("user.dir")).getParent().resolve("docs/report-format.md");

    /** The objects whose keys are data, not field names. */
    private static final Set<String> DATA_KEYS = Set.of("stats.forcedCommits", "violations[].counts",
            "run.unmodelledCalls", "run.soloEndedBy", "run.soloBusyTogether");

    @TempDir
    Path dir;

    private static CheckResult replay(String trace, Checker.Config config) throws Exception {
        Symbols symbols = new Symbols();
        Checker checker = new Checker(symbols, config);
        try (Reader in = new InputStreamReader(ReportFormatDocTest.class.getResourceAsStream("/traces/" + trace),
                StandardCharsets.UTF_8)) {
            TextTraceReader.read(trace, in, symbols, checker);
        }
        return checker.result();
    }

    /** An agent's run object with every optional group present. */
    static RunFacts everyFact() {
        return new RunFacts("id", new RunFacts.Events(10, 10, 0, 2, 3), new RunFacts.CheckerThread(5, 1, 2, 0),
                new RunFacts.Classes(4, 0, 7), new RunFacts.Accesses(0, 0, 0, Map.of("Thread.sleep", 1L), 0, 0),
                new RunFacts.Solo("on", 1, 2, Map.of("main", 1L), 0, 0, 0, 0, 0, 0, Map.of("T1", 1L)), "check", "active",
                new RunFacts.Sampling(0.5, "fences", 0, 42L), new RunFacts.ActiveSchedule(7, 1, 0, 0, 0, 0),
                new RunFacts.SelfCheck(9, 0));
    }

    private static JsonNode json(Report report) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReport.write(out, report);
        return new ObjectMapper().readTree(out.toByteArray());
    }

    /** Every field path the reports below write. */
    private Set<String> written() throws Exception {
        CheckResult helpers = replay("23-helper-two-callers.trace", Checker.Config.defaults()
                .withAnalyses(EnumSet.of(Analysis.TSO, Analysis.PSO, Analysis.SOBER)))
                .withFailure(Failure.of("tso", 1, new IllegalStateException("x")))
                .withNotes(List.of(Note.incomplete("k", "tso", 1, "t")), List.of());
        List<Finding> findings = Finding.group(helpers.violations());
        for (Finding f : findings) {
            f.tests(List.of("ATest.one"));
        }
        Path rules = Files.writeString(dir.resolve("suppress.txt"), "store=Buf reason=reviewed\n");
        Triage.Outcome outcome = Triage.load(rules, null, EnumSet.allOf(Category.class)).apply(findings);
        Set<String> paths = new TreeSet<>();
        collect(json(new Report("agent", true, helpers, outcome, everyFact())), "", paths);
        CheckResult dekker = replay("01-dekker-plain.trace", Checker.Config.defaults());
        List<Finding> races = Finding.group(dekker.violations());
        Map<Site, List<String>> contexts = new LinkedHashMap<>();
        for (Finding f : races) {
            contexts.put(f.first().store().site().base(), List.of("A.a:1 -> B.b:2"));
            contexts.put(f.first().access().site().base(), List.of("A.a:1 -> C.c:3"));
            f.contexts(contexts);
        }
        collect(json(new Report("agent", true, dekker, Triage.none().apply(races), null)), "", paths);
        // with fix=true: the fewest changes, as the agent's and mmcheck fix's reports carry them
        Symbols symbols = new Symbols();
        EventBuffer run = new EventBuffer();
        try (Reader in = new InputStreamReader(ReportFormatDocTest.class.getResourceAsStream(
                "/traces/01-dekker-plain.trace"), StandardCharsets.UTF_8)) {
            TextTraceReader.read("01-dekker-plain.trace", in, symbols, run);
        }
        FixResult fix = FixSearch.search(run, symbols, EnumSet.of(Analysis.TSO, Analysis.PSO),
                FixSearch.Config.defaults());
        collect(json(new Report("agent", true, dekker, Triage.none().apply(races), null, fix)), "", paths);
        CheckResult cycle = replay("16-task-pool-fig2.trace", Checker.Config.defaults());
        collect(json(new Report("replay", true, cycle, Triage.untriaged(cycle), null)), "", paths);
        collect(json(new Report("merge of 2 reports", true, cycle, Triage.untriaged(cycle), new Report.Merged(2))), "",
                paths);
        return paths;
    }

    private static void collect(JsonNode node, String path, Set<String> out) {
        if (node.isObject()) {
            if (DATA_KEYS.contains(path)) {
                out.add(path + ".*");
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                out.add(p);
                collect(e.getValue(), p, out);
            }
        } else if (node.isArray()) {
            for (JsonNode n : node) {
                collect(n, path + "[]", out);
            }
        }
    }

    /** The page's list of fields: the code block under "## Every field". */
    private static Set<String> listed() throws Exception {
        String doc = Files.readString(DOC);
        int start = doc.indexOf("\n## Every field");
        assertTrue(start >= 0, "docs/report-format.md has the section \"Every field\"");
        int open = doc.indexOf("```\n", start) + 4;
        int close = doc.indexOf("```", open);
        Set<String> out = new TreeSet<>();
        for (String line : doc.substring(open, close).split("\n")) {
            if (!line.isBlank()) {
                out.add(line.strip());
            }
        }
        return out;
    }

    @Test
    void everyFieldWrittenIsListedAndEveryFieldListedIsWritten() throws Exception {
        Set<String> written = written();
        Set<String> listed = listed();
        Set<String> undocumented = new TreeSet<>(written);
        undocumented.removeAll(listed);
        Set<String> unwritten = new TreeSet<>(listed);
        unwritten.removeAll(written);
        // pathNote: a path older than the checker's window, which no short trace makes (JsonReport writes it then)
        unwritten.remove("violations[].pathNote");
        assertEquals(Set.of(), undocumented, "written but not in docs/report-format.md's \"Every field\"");
        assertEquals(Set.of(), unwritten, "in docs/report-format.md's \"Every field\" but never written");
    }

    @Test
    void everyFieldTheTablesDescribeIsListed() throws Exception {
        Set<String> listed = listed();
        List<String> missing = new ArrayList<>();
        Pattern name = Pattern.compile("`([A-Za-z\\[\\].]+)`");
        for (String line : Files.readAllLines(DOC)) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String cell = line.substring(1, line.indexOf('|', 1));
            String prefix = "";
            Matcher m = name.matcher(cell);
            while (m.find()) {
                String field = m.group(1);
                String full = prefix.isEmpty() || field.contains(".") ? field : prefix + field;
                if (prefix.isEmpty()) {
                    int dot = field.lastIndexOf('.');
                    prefix = dot < 0 ? "" : field.substring(0, dot + 1);
                }
                if (!known(listed, full) && !known(listed, "violations[]." + full) && !known(listed, "run." + full)) {
                    missing.add(full);
                }
            }
        }
        assertEquals(List.of(), missing, "described in a table of docs/report-format.md but not a field");
    }

    private static boolean known(Set<String> listed, String field) {
        return listed.contains(field) || listed.stream().anyMatch(p -> p.startsWith(field + ".") || p.startsWith(field + "["));
    }
}
