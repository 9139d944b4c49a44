package dev.mmcheck.checker.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.trace.TextTraceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SARIF file is what GitHub code scanning reads: valid SARIF 2.1.0 for every hand-written trace under every
 * analysis; the rule properties GitHub shows; paths relative to the repository's root, and a word where a source
 * file was not found; messages whose links resolve, with literal brackets escaped; the path as one thread flow per
 * thread; suppressed and baselined findings left out and counted (docs/build.md, "SARIF on GitHub").
 */
class SarifReportTest {

    @TempDir
    Path dir;

    private static CheckResult replay(String name, Reader in) throws Exception {
        Symbols symbols = new Symbols();
        Checker checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(EnumSet.allOf(Analysis.class)));
        TextTraceReader.read(name, in, symbols, checker);
        return checker.result();
    }

    private static JsonNode sarif(CheckResult r, Triage.Outcome outcome, SourceRoots roots) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SarifReport.write(out, "test", true, r, outcome, roots);
        return SarifSchema.assertValid(out.toByteArray());
    }

    private static List<Path> traces() throws URISyntaxException, java.io.IOException {
        Path d = Path.of(SarifReportTest.class.getResource("/traces").toURI());
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.toString().endsWith(".trace")).sorted().toList();
        }
    }

    @Test
    void everyHandWrittenTraceGivesValidSarifThatGithubCanShow() throws Exception {
        int results = 0;
        int flows = 0;
        for (Path t : traces()) {
            CheckResult r;
            try (Reader in = Files.newBufferedReader(t, StandardCharsets.UTF_8)) {
                r = replay(t.getFileName().toString(), in);
            }
            JsonNode run = sarif(r, Triage.untriaged(r), SourceRoots.conventional()).get("runs").get(0);
            String where = t.getFileName().toString();
            assertTrue(run.get("automationDetails").get("id").asText().startsWith(SarifReport.CATEGORY), where);
            JsonNode rules = run.get("tool").get("driver").get("rules");
            for (JsonNode rule : rules) {
                for (String p : List.of("/shortDescription/text", "/fullDescription/text", "/help/text",
                        "/help/markdown", "/properties/precision", "/properties/problem.severity", "/properties/tags/0")) {
                    assertFalse(rule.at(p).asText().isEmpty(), where + ": rule " + rule.get("id") + " has no " + p);
                }
            }
            for (JsonNode res : run.get("results")) {
                results++;
                assertEquals(res.get("ruleId").asText(), rules.get(res.get("ruleIndex").asInt()).get("id").asText(), where);
                Set<Integer> ids = new HashSet<>();
                res.get("relatedLocations").forEach(l -> ids.add(l.get("id").asInt()));
                List<Integer> linked = links(res.get("message").get("text").asText());
                assertFalse(linked.isEmpty(), where + ": a message links its related locations");
                assertTrue(ids.containsAll(linked), where + ": links " + linked + " but related ids " + ids);
                JsonNode threads = res.get("codeFlows").get(0).get("threadFlows");
                Set<String> names = new HashSet<>();
                Set<Integer> order = new HashSet<>();
                int steps = 0;
                for (JsonNode tf : threads) {
                    assertTrue(names.add(tf.get("id").asText()), where + ": one thread flow per thread");
                    for (JsonNode l : tf.get("locations")) {
                        steps++;
                        assertTrue(order.add(l.get("executionOrder").asInt()), where + ": one step at each time");
                        assertTrue(l.at("/location/message/text").asText().contains(" by " + tf.get("id").asText()
                                + " at "), where + ": a step of " + tf.get("id") + " is by that thread: " + l);
                    }
                }
                flows += threads.size();
                assertEquals(steps, order.size());
            }
        }
        assertTrue(results >= 20, "the traces report many findings: " + results);
        assertTrue(flows > results, "some findings span two threads or more: " + flows);
    }

    /**
     * The related-location ids the message's links name ({@code [text](id)}), failing on a bracket that is neither
     * escaped nor part of a link (SARIF §3.11.6: GitHub would render it as a broken link).
     */
    static List<Integer> links(String message) {
        List<Integer> ids = new ArrayList<>();
        int i = 0;
        while (i < message.length()) {
            char c = message.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == ']') {
                throw new AssertionError("an unescaped ']' outside a link at " + i + ": " + message);
            }
            if (c == '[') {
                int j = i + 1;
                while (j < message.length() && message.charAt(j) != ']') {
                    if (message.charAt(j) == '[') {
                        throw new AssertionError("an unescaped '[' inside a link's text at " + j + ": " + message);
                    }
                    j += message.charAt(j) == '\\' ? 2 : 1;
                }
                int close = message.indexOf(')', j);
                if (j >= message.length() || message.charAt(j + 1) != '(' || close < 0
                        || !message.substring(j + 2, close).matches("\\d+")) {
                    throw new AssertionError("an unescaped '[' that starts no link at " + i + ": " + message);
                }
                ids.add(Integer.parseInt(message.substring(j + 2, close)));
                i = close + 1;
                continue;
            }
            i++;
        }
        return ids;
    }

    @Test
    void bracketsInNamesAreEscapedAndLinksStillResolve() throws Exception {
        CheckResult r;
        try (Reader in = Files.newBufferedReader(Path.of(SarifReportTest.class.getResource(
                "/traces/23-helper-two-callers.trace").toURI()), StandardCharsets.UTF_8)) {
            r = replay("23", in);
        }
        JsonNode res = sarif(r, Triage.untriaged(r), SourceRoots.conventional()).get("runs").get(0).get("results").get(0);
        String text = res.get("message").get("text").asText();
        assertTrue(text.contains("int\\[\\]#1\\[0\\]"), "the array element's brackets are escaped: " + text);
        assertEquals(List.of(1, 2), links(text));
        assertEquals(4, res.get("codeFlows").get(0).get("threadFlows").size() + 2,
                "Lock's two threads in the flow: " + res.get("codeFlows"));
    }

    private static final String PACKAGED = """
            T1 store flag1 Dekker.java:12 org.demo.Dekker.thread1
            T1 load  flag2 Dekker.java:13 org.demo.Dekker.thread1
            T2 store flag2 Dekker.java:20 org.demo.Dekker.thread2
            T2 load  flag1 Dekker.java:21 org.demo.Dekker.thread2
            T3 store flag3 Other.java:5 org.demo.Other.run
            T3 load  flag4 Other.java:6 org.demo.Other.run
            T4 store flag4 Other.java:7 org.demo.Other.run2
            T4 load  flag3 Other.java:8 org.demo.Other.run2
            """;

    @Test
    void pathsAreRelativeToTheRepositoryRootAndAMissingFileIsSaid() throws Exception {
        Path repo = dir.resolve("repo");
        Files.createDirectories(repo.resolve(".git"));
        Path src = repo.resolve("lib/src/main/java/org/demo");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Dekker.java"), "package org.demo;\n");
        SourceRoots roots = SourceRoots.of(repo.resolve("lib"), List.of(Path.of("src/main/java")));
        assertEquals(repo.toAbsolutePath().normalize(), roots.base(), "the base is the directory that holds .git");
        CheckResult r = replay("packaged", new StringReader(PACKAGED));
        JsonNode run = sarif(r, Triage.untriaged(r), roots).get("runs").get(0);
        List<String> uris = new ArrayList<>();
        List<String> other = new ArrayList<>();
        for (JsonNode res : run.get("results")) {
            String uri = res.at("/locations/0/physicalLocation/artifactLocation/uri").asText();
            if (uri.contains("Dekker")) {
                uris.add(uri);
                assertTrue(res.at("/properties/sourceFound").asBoolean(), res.toString());
                assertFalse(res.get("message").get("text").asText().contains("not found"), res.toString());
            } else {
                other.add(uri);
                assertFalse(res.at("/properties/sourceFound").asBoolean(), res.toString());
                assertTrue(res.get("message").get("text").asText().contains("source not found under the source "
                        + "roots: org/demo/Other.java"), res.toString());
            }
        }
        assertFalse(uris.isEmpty());
        assertTrue(uris.stream().allMatch(u -> u.equals("lib/src/main/java/org/demo/Dekker.java")), uris.toString());
        assertTrue(other.stream().allMatch(u -> u.equals("org/demo/Other.java")), other.toString());
        String notes = run.at("/invocations/0/toolExecutionNotifications").toString();
        assertTrue(notes.contains("1 source files not found under the source roots") && notes.contains("org/demo/Other.java"),
                notes);
    }

    private static final String LAZY_SET = """
            T1 release-store flag1 Flags.java:7 org.demo.Flags.one
            T1 load  flag2 Flags.java:8 org.demo.Flags.one
            T2 release-store flag2 Flags.java:16 org.demo.Flags.two
            T2 load  flag1 Flags.java:17 org.demo.Flags.two
            """;

    @Test
    void aFixThatIsAModeOnOneLineIsASarifFixReplacingTheCall() throws Exception {
        Path repo = dir.resolve("fixrepo");
        Files.createDirectories(repo.resolve(".git"));
        Path src = repo.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        StringBuilder source = new StringBuilder();
        for (int line = 1; line <= 20; line++) {
            source.append(switch (line) {
                case 7 -> "        flag1.lazySet(1);";
                case 8 -> "        int seen = flag2.get();";
                case 16 -> "        flag2.lazySet(1);";
                case 17 -> "        int other = flag1.get();";
                default -> "        // line " + line;
            }).append('\n');
        }
        Files.writeString(src.resolve("Flags.java"), source);
        SourceRoots roots = SourceRoots.of(repo, List.of(Path.of("src/main/java")));
        dev.mmcheck.checker.event.Symbols symbols = new dev.mmcheck.checker.event.Symbols();
        dev.mmcheck.checker.event.EventBuffer events = new dev.mmcheck.checker.event.EventBuffer();
        TextTraceReader.read("lazyset", new StringReader(LAZY_SET), symbols, events);
        dev.mmcheck.checker.fix.FixResult fix = dev.mmcheck.checker.fix.FixSearch.search(events, symbols,
                java.util.EnumSet.of(Analysis.TSO, Analysis.PSO), dev.mmcheck.checker.fix.FixSearch.Config.defaults());
        assertTrue(fix.proven(), fix.lines().toString());
        CheckResult r = replay("lazyset", new StringReader(LAZY_SET));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SarifReport.write(out, "lazyset", true, r, Triage.untriaged(r), roots, fix);
        JsonNode run = SarifSchema.assertValid(out.toByteArray()).get("runs").get(0);
        List<String> edits = new ArrayList<>();
        for (JsonNode res : run.get("results")) {
            for (JsonNode f : res.path("fixes")) {
                JsonNode change = f.get("artifactChanges").get(0);
                JsonNode rep = change.get("replacements").get(0);
                assertEquals("src/main/java/org/demo/Flags.java", change.at("/artifactLocation/uri").asText());
                int line = rep.at("/deletedRegion/startLine").asInt();
                String deleted = source.toString().split("\n")[line - 1].substring(
                        rep.at("/deletedRegion/startColumn").asInt() - 1, rep.at("/deletedRegion/endColumn").asInt() - 1);
                edits.add(line + ":" + deleted + "->" + rep.at("/insertedContent/text").asText());
                assertTrue(f.at("/description/text").asText().startsWith("Flags.java:" + line + ": "), f.toString());
            }
        }
        // the lazySet made a set() where the fix found it, the call itself replaced, nothing else on the line
        assertFalse(edits.isEmpty(), run.toString());
        assertTrue(edits.stream().allMatch(e -> e.matches("(7|16):\\.lazySet\\(->\\.set\\(")), edits.toString());
        // without the fix, no result has fixes
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        SarifReport.write(plain, "lazyset", true, r, Triage.untriaged(r), roots, null);
        assertFalse(new String(plain.toByteArray(), java.nio.charset.StandardCharsets.UTF_8).contains("\"fixes\""));
    }

    @Test
    void suppressedAndBaselinedFindingsAreLeftOutAndCounted() throws Exception {
        CheckResult r = replay("packaged", new StringReader(PACKAGED));
        Path rules = dir.resolve("rules.txt");
        Files.writeString(rules, "store=org.demo.Other#* reason=reviewed\n");
        Path baseline = dir.resolve("baseline.txt");
        String dekker = Finding.group(r.violations()).stream().map(Finding::key).filter(k -> k.contains("Dekker"))
                .findFirst().orElseThrow();
        Files.writeString(baseline, dekker + "\n");
        Triage.Outcome outcome = Triage.load(rules, baseline, EnumSet.allOf(Category.class))
                .apply(Finding.group(r.violations()));
        long suppressed = outcome.findings().stream().filter(Finding::suppressed).count();
        long baselined = outcome.findings().stream().filter(f -> !f.suppressed() && f.baselined()).count();
        assertTrue(suppressed >= 1 && baselined >= 1, "the rules matched: " + suppressed + ", " + baselined);
        JsonNode run = sarif(r, outcome, SourceRoots.conventional()).get("runs").get(0);
        assertEquals(outcome.fresh().size(), run.get("results").size());
        for (JsonNode res : run.get("results")) {
            assertFalse(res.has("suppressions"), res.toString());
            assertEquals("new", res.get("baselineState").asText());
        }
        assertEquals(suppressed, run.at("/properties/suppressed").asLong());
        assertEquals(baselined, run.at("/properties/baselined").asLong());
        assertTrue(run.at("/invocations/0/toolExecutionNotifications").toString().contains((suppressed + baselined)
                + " findings left out of this file"), run.toString());
    }

    @Test
    void theSchemaRejectsWhatGithubWouldReject() throws Exception {
        // the validator itself is live: a result without a message, and a level SARIF does not have, are refused
        CheckResult r = replay("packaged", new StringReader(PACKAGED));
        JsonNode log = sarif(r, Triage.untriaged(r), SourceRoots.conventional());
        com.fasterxml.jackson.databind.node.ObjectNode res = (com.fasterxml.jackson.databind.node.ObjectNode) log
                .get("runs").get(0).get("results").get(0);
        res.put("level", "fatal");
        assertFalse(SarifSchema.problems(log).isEmpty());
        res.put("level", "error");
        res.remove("message");
        assertFalse(SarifSchema.problems(log).isEmpty());
    }
}
