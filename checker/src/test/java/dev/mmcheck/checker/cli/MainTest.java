package dev.mmcheck.checker.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mmcheck.checker.report.SarifSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line: exit status, the summary, the JSON report, one-line errors. */
class MainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path dekker() throws Exception {
        Path t = dir.resolve("dekker.trace");
        Files.writeString(t, "T1 store flag1 Dekker.java:12\nT1 load flag2 Dekker.java:13\n"
                + "T2 store flag2 Dekker.java:20\nT2 load flag1 Dekker.java:21\n");
        return t;
    }

    @Test
    void replayReportsAndExitsOne() throws Exception {
        Path report = dir.resolve("out/report.json");
        assertEquals(1, run("replay", dekker().toString(), "--report", report.toString()));
        assertTrue(out().contains("1 finding: 1 race:"), out());
        assertTrue(out().contains("race under TSO, PSO (tso, pso), seen 1 time"), out());
        assertTrue(out().contains("store flag1 by T1 at Dekker.java:12"), out());
        assertTrue(out().contains("fix   : "), out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals("mmcheck", json.get("tool").asText());
        assertEquals(4, json.get("events").asInt());
        assertEquals(1, json.get("violations").size(), "TSO's and PSO's reports of one race are one finding");
        JsonNode v = json.get("violations").get(0);
        assertEquals("sc-violation", v.get("kind").asText());
        assertEquals("TSO", v.get("model").asText());
        assertEquals("race", v.get("category").asText());
        assertEquals(List.of("TSO", "PSO"), strings(v.get("models")));
        assertEquals(List.of("tso", "pso"), strings(v.get("analyses")));
        assertEquals("race:Dekker.java:flag1->Dekker.java:flag1", v.get("key").asText());
        assertEquals(1, json.get("findings").get("failing").asInt());
        assertEquals(1, v.get("counts").get("pso").asInt());
        assertEquals(1, v.get("count").asInt());
        assertEquals("store", v.get("events").get(0).get("role").asText());
        assertEquals("Dekker.java", v.get("events").get(0).get("file").asText());
        assertEquals(12, v.get("events").get(0).get("line").asInt());
        assertEquals("flag1", v.get("events").get(0).get("field").asText());
        assertEquals("prev", v.get("events").get(1).get("role").asText());
        assertEquals("access", v.get("events").get(2).get("role").asText());
        assertEquals(21, v.get("events").get(2).get("line").asInt());
        assertTrue(v.get("path").size() >= 2);
        assertEquals("", err());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void suppressionsBaselineSarifAndHtml() throws Exception {
        Path rules = dir.resolve("mmcheck-suppress.txt");
        Files.writeString(rules, "# reviewed\nstore=Dekker.java:12 reason=T1's flag is checked again under the lock\n"
                + "access=Nowhere#* reason=left from an old version\n");
        Path sarif = dir.resolve("out/r.sarif");
        Path html = dir.resolve("out/r.html");
        assertEquals(0, run("replay", dekker().toString(), "--suppress", rules.toString(), "--sarif", sarif.toString(),
                "--html=" + html), "the one finding is suppressed: nothing fails");
        assertTrue(out().contains("1 finding: 1 race (1 suppressed):"), out());
        assertTrue(out().contains("suppressed by " + rules + ":2 (T1's flag is checked again under the lock)"), out());
        assertTrue(out().contains("suppression rule at " + rules + ":3 matched nothing"), out());
        JsonNode s = SarifSchema.assertValid(Files.readAllBytes(sarif));
        assertEquals("2.1.0", s.get("version").asText());
        assertEquals(0, s.get("runs").get(0).get("results").size(), "a suppressed finding is not uploaded");
        assertEquals(1, s.get("runs").get(0).at("/properties/suppressed").asInt());
        // without the rule, and with the sources under a root: the result, at a path from the repository's root
        Path root = Path.of("target/main-test-src").toAbsolutePath(); // inside the checkout, as a project's roots are
        Files.createDirectories(root);
        Files.writeString(root.resolve("Dekker.java"), "class Dekker {}\n");
        assertEquals(1, run("replay", dekker().toString(), "--sarif", sarif.toString(), "--source-root", root.toString()));
        s = SarifSchema.assertValid(Files.readAllBytes(sarif));
        JsonNode results = s.get("runs").get(0).get("results");
        assertEquals(1, results.size());
        assertEquals("race", results.get(0).get("ruleId").asText());
        assertEquals("error", results.get(0).get("level").asText());
        JsonNode where = results.get(0).get("locations").get(0).get("physicalLocation");
        assertEquals(12, where.get("region").get("startLine").asInt());
        Path base = Path.of(s.get("runs").get(0).at("/properties/sourceBase").asText());
        assertEquals(root.resolve("Dekker.java").toAbsolutePath().normalize(),
                base.resolve(where.get("artifactLocation").get("uri").asText()).normalize());
        assertEquals(2, run("replay", dekker().toString(), "--sarif", sarif.toString(), "--source-root",
                dir.resolve("nowhere").toString()));
        assertEquals("mmcheck: --source-root " + dir.resolve("nowhere") + ": not a directory", err().trim());
        assertTrue(Files.readString(html).contains("<h2>1 finding</h2>"), Files.readString(html));

        // a baseline: written when absent, and then only new findings fail
        Path baseline = dir.resolve("baseline.txt");
        assertEquals(0, run("replay", dekker().toString(), "--baseline", baseline.toString()));
        assertTrue(Files.readString(baseline).contains("race:Dekker.java:flag1->Dekker.java:flag1"));
        assertEquals(0, run("replay", dekker().toString(), "--baseline", baseline.toString()));
        assertTrue(out().contains("1 findings are in the baseline"), out());
        Files.writeString(baseline, "race:Dekker.java:flag2->Dekker.java:flag2\n");
        assertEquals(1, run("replay", dekker().toString(), "--baseline", baseline.toString()), "a new finding fails");
        // only relaxed findings fail: these races do not
        assertEquals(0, run("replay", dekker().toString(), "--fail-on", "relaxed"));
        assertEquals(2, run("replay", dekker().toString(), "--fail-on", "sloppy"));
        assertTrue(err().contains("unknown category 'sloppy'"), err());
    }

    @Test
    void badSuppressionFilesAreOneLine() throws Exception {
        Path rules = dir.resolve("bad.txt");
        Files.writeString(rules, "store=Dekker.java:12\n");
        assertEquals(2, run("replay", dekker().toString(), "--suppress", rules.toString()));
        assertEquals("mmcheck: " + rules + ":1: a suppression needs a reason (reason=why this is fine, to the end "
                + "of the line)", err().trim());
    }

    @Test
    void helpOnEverySubcommandPrintsItsUsageAndSucceeds() {
        for (String command : List.of("replay", "convert", "check-history", "merge", "fix")) {
            out.reset();
            assertEquals(0, run(command, "--help"), command);
            assertTrue(out().startsWith("Usage: mmcheck " + command), command + ": " + out());
        }
        assertEquals(0, run("replay", "x.trace", "-h"));
        assertEquals("", err());
    }

    @Test
    void mergeAddsTheCountsOfTheSameFindingFromSeveralReports() throws Exception {
        Path r1 = dir.resolve("fork1.json");
        Path r2 = dir.resolve("fork2.json");
        assertEquals(1, run("replay", dekker().toString(), "--report", r1.toString(), "--quiet"));
        assertEquals(1, run("replay", dekker().toString(), "--report", r2.toString(), "--quiet"));
        Path merged = dir.resolve("merged.json");
        Path html = dir.resolve("merged.html");
        out.reset();
        assertEquals(1, run("merge", r1.toString(), r2.toString(), "--report", merged.toString(), "--html", html.toString()));
        assertTrue(out().contains("merge of 2 reports"), out());
        assertTrue(out().contains("1 finding: 1 race:"), out());
        JsonNode json = new ObjectMapper().readTree(merged.toFile());
        assertTrue(json.get("complete").asBoolean());
        assertEquals(8, json.get("events").asInt(), "events added");
        JsonNode v = json.get("violations").get(0);
        assertEquals(2, v.get("counts").get("tso").asInt(), "counts added");
        assertEquals(2, v.get("counts").get("pso").asInt());
        assertEquals(List.of("TSO", "PSO"), strings(v.get("models")));
        assertEquals(12, v.get("events").get(0).get("line").asInt());
        assertTrue(Files.readString(html).contains("<h2>1 finding</h2>"));
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"tool\": \"other\"}");
        assertEquals(2, run("merge", r1.toString(), bad.toString()));
        assertTrue(err().contains(bad + ": not an mmcheck report"), err());
    }

    /** Two forks' reports of the Dekker trace, each triaged in its JVM with the rule that suppresses its race. */
    private List<Path> forks(Path rules, int status) throws Exception {
        List<Path> reports = new java.util.ArrayList<>();
        for (String name : List.of("fork1.json", "fork2.json")) {
            Path r = dir.resolve(name);
            assertEquals(status, run("replay", dekker().toString(), "--suppress", rules.toString(), "--report", r.toString(),
                    "--quiet"), err());
            com.fasterxml.jackson.databind.node.ObjectNode json = (com.fasterxml.jackson.databind.node.ObjectNode)
                    new ObjectMapper().readTree(r.toFile());
            json.putObject("run").put("id", name); // as the agent's reports: one id per JVM
            new ObjectMapper().writeValue(r.toFile(), json);
            reports.add(r);
        }
        return reports;
    }

    /**
     * merge decides once, on the merged findings, with the agent's rules: the rules the forks used suppress the race
     * again (and the report's counts agree), failOn= leaves races out (and the summary says none fails), a baseline
     * is written from every report's findings and then accepts them; without the rules the race fails, with a
     * warning that the forks had rules.
     */
    @Test
    void mergeDecidesOnceWithTheSameSuppressionsBaselineAndFailOn() throws Exception {
        Path rules = dir.resolve("rules.txt");
        Files.writeString(rules, "store=Dekker.java:12 reason=checked again under the lock\n");
        List<Path> forks = forks(rules, 0);
        Path merged = dir.resolve("merged.json");
        out.reset();
        assertEquals(0, run("merge", forks.get(0).toString(), forks.get(1).toString(), "--suppress", rules.toString(),
                "--report", merged.toString()), out() + err());
        assertTrue(out().contains("1 finding: 1 race (1 suppressed):"), out());
        JsonNode json = new ObjectMapper().readTree(merged.toFile());
        assertEquals(1, json.get("findings").get("suppressed").asInt());
        assertEquals(0, json.get("findings").get("failing").asInt());
        assertEquals(1, json.get("suppressions").get(0).get("matched").asInt());
        assertEquals(2, json.get("violations").get(0).get("counts").get("tso").asInt());

        err.reset();
        assertEquals(1, run("merge", forks.get(0).toString(), forks.get(1).toString(), "--report", merged.toString(),
                "--quiet"), "the merge was given no rules: the race fails");
        assertTrue(err().contains("mmcheck: WARNING: the reports were triaged in their JVMs with 1 suppression rules"),
                err());
        json = new ObjectMapper().readTree(merged.toFile());
        assertEquals(0, json.get("findings").get("suppressed").asInt());
        assertEquals(1, json.get("findings").get("failing").asInt());

        out.reset();
        assertEquals(0, run("merge", forks.get(0).toString(), forks.get(1).toString(), "--fail-on", "relaxed"));
        assertTrue(out().contains("failOn=relaxed: it does not fail the run (only new findings in the categories "
                + "relaxed do)"), out());
        assertEquals(2, run("merge", forks.get(0).toString(), "--fail-on", "sloppy"));
        assertTrue(err().contains("--fail-on: unknown category 'sloppy'"), err());

        Path baseline = dir.resolve("baseline.txt");
        assertEquals(0, run("merge", forks.get(0).toString(), forks.get(1).toString(), "--baseline", baseline.toString(),
                "--quiet"));
        assertTrue(Files.readString(baseline).contains("race:Dekker.java:flag1->Dekker.java:flag1"));
        assertEquals(0, run("merge", forks.get(0).toString(), forks.get(1).toString(), "--baseline", baseline.toString(),
                "--report", merged.toString(), "--quiet"));
        assertEquals(1, new ObjectMapper().readTree(merged.toFile()).get("findings").get("baselined").asInt());
        assertEquals(0, run("replay", dekker().toString(), "--baseline", baseline.toString(), "--quiet"),
                "the agent's and replay's baseline=, the same file");
    }

    /** The same report twice is refused (the same file, or the same run id); identical contents are merged loudly. */
    @Test
    void mergeRefusesTheSameReportTwice() throws Exception {
        Path rules = dir.resolve("rules.txt");
        Files.writeString(rules, "store=Nowhere reason=r\n");
        List<Path> forks = forks(rules, 1);
        assertEquals(2, run("merge", forks.get(0).toString(), forks.get(0).toString()));
        assertEquals("mmcheck: " + forks.get(0) + ": given twice (as " + forks.get(0) + "): each report is merged once",
                err().trim());
        Path copy = dir.resolve("copy.json");
        Files.copy(forks.get(0), copy);
        err.reset();
        assertEquals(2, run("merge", forks.get(0).toString(), forks.get(1).toString(), copy.toString()));
        assertEquals("mmcheck: " + copy + ": the same run as " + forks.get(0) + " (run id fork1.json): a report copied "
                + "or given twice; each run is merged once", err().trim());
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        assertEquals(1, run("replay", dekker().toString(), "--report", a.toString(), "--quiet"));
        Files.copy(a, b);
        err.reset();
        assertEquals(1, run("merge", a.toString(), b.toString(), "--quiet"));
        assertTrue(err().contains("mmcheck: WARNING: " + b + " has the same contents as " + a), err());
    }

    /**
     * Reports of two JVMs with the same race on objects numbered differently: one finding, its contexts from both
     * reports kept, and its text naming objects only as the first report did (the second's prev without numbers).
     */
    @Test
    void mergeKeepsContextsAndNeverMixesTwoJvmsObjectNumbers() throws Exception {
        List<Path> reports = new java.util.ArrayList<>();
        String[][] jvms = {{"Object[]#109[1023]", "Queue#20.buffer", "Queue.offer:10 -> Ring.put:3"},
            {"Object[]#7[5]", "Queue#3.mask", "Queue.drain:40 -> Ring.put:3"}};
        for (int k = 0; k < 2; k++) {
            Path r = dir.resolve("jvm" + k + ".json");
            assertEquals(1, run("replay", dekker().toString(), "--report", r.toString(), "--quiet"));
            com.fasterxml.jackson.databind.node.ObjectNode json = (com.fasterxml.jackson.databind.node.ObjectNode)
                    new ObjectMapper().readTree(r.toFile());
            json.putObject("run").put("id", "jvm" + k);
            com.fasterxml.jackson.databind.node.ObjectNode v = (com.fasterxml.jackson.databind.node.ObjectNode)
                    json.get("violations").get(0);
            com.fasterxml.jackson.databind.node.ArrayNode events = (com.fasterxml.jackson.databind.node.ArrayNode)
                    v.get("events");
            ((com.fasterxml.jackson.databind.node.ObjectNode) events.get(0)).put("field", jvms[k][0]);
            ((com.fasterxml.jackson.databind.node.ObjectNode) events.get(1)).put("field", jvms[k][1])
                    .put("line", 13 + 100 * k);
            ((com.fasterxml.jackson.databind.node.ObjectNode) events.get(2)).put("field", jvms[k][0]);
            v.remove("examples");
            v.remove("path");
            v.put("pathNote", "no path");
            com.fasterxml.jackson.databind.node.ObjectNode contexts = v.putObject("contexts");
            contexts.putArray("store").add(jvms[k][2]);
            contexts.putArray("access");
            new ObjectMapper().writeValue(r.toFile(), json);
            reports.add(r);
        }
        Path merged = dir.resolve("merged.json");
        out.reset();
        assertEquals(1, run("merge", reports.get(0).toString(), reports.get(1).toString(), "--report", merged.toString()));
        JsonNode v = new ObjectMapper().readTree(merged.toFile()).get("violations");
        assertEquals(1, v.size(), "the same sites and fields: one finding, " + v);
        assertEquals(List.of(jvms[0][2], jvms[1][2]), strings(v.get(0).get("contexts").get("store")));
        assertTrue(out().contains("called: the store's line ran again from " + jvms[0][2] + " | " + jvms[1][2]
                + " (after the report, any thread)"), out());
        assertEquals("Object[]#109[1023]", v.get(0).get("events").get(0).get("field").asText());
        assertEquals("Queue.mask", v.get(0).get("examples").get(1).get("prev").get("field").asText(),
                "the other JVM's object number is left out");
        assertTrue(out().contains("also  : with prev store Queue.mask by T2"), out());
        assertFalse(out().contains("Queue#3"), out());
    }

    /** Two JVMs' reports of the same cycle of transactions: one finding, its counts added. */
    @Test
    void mergeGroupsTheSameCycleFromTwoReports() throws Exception {
        Path trace = Path.of("src/test/resources/traces/18-check-then-act.trace");
        List<String> names = List.of("c1.json", "c2.json");
        for (String n : names) {
            run("replay", trace.toString(), "--report", dir.resolve(n).toString(), "--quiet");
        }
        JsonNode one = new ObjectMapper().readTree(dir.resolve("c1.json").toFile()).get("violations");
        Path merged = dir.resolve("merged.json");
        run("merge", dir.resolve("c1.json").toString(), dir.resolve("c2.json").toString(), "--report", merged.toString(),
                "--quiet");
        JsonNode both = new ObjectMapper().readTree(merged.toFile()).get("violations");
        assertTrue(one.size() > 0 && one.get(0).has("transactions"), one.toString());
        assertEquals(one.size(), both.size(), "the same cycles, not twice as many");
        assertEquals(2 * one.get(0).get("count").asLong(), both.get(0).get("count").asLong());
    }

    /**
     * A race whose store a release fence orders and whose access is a CAS with plain memory effects: both sides chose
     * their modes, so the finding is relaxed (a weakCompareAndSetPlain is atomic, not a data race), and the report
     * says what each side is, a failed CAS as failed; merging the report keeps the modes and so the category.
     */
    @Test
    void aCasOfPlainFlavourIsNoDataRaceAndMergingKeepsEveryMode() throws Exception {
        for (String cas : List.of("cas-plain", "cas-plain-failed", "cas-acquire-failed")) {
            Path t = dir.resolve(cas + ".trace");
            Files.writeString(t, "T1 release-fenced-store x A.java:1\nT1 load y A.java:2\n"
                    + "T2 store y A.java:3\nT2 " + cas + " x A.java:4\n");
            Path r = dir.resolve(cas + ".json");
            assertEquals(1, run("replay", t.toString(), "--report", r.toString(), "--quiet"), err());
            Path merged = dir.resolve(cas + "-merged.json");
            assertEquals(1, run("merge", r.toString(), "--report", merged.toString()), err());
            for (Path p : List.of(r, merged)) {
                JsonNode v = new ObjectMapper().readTree(p.toFile()).get("violations").get(0);
                assertEquals("relaxed", v.get("category").asText(), cas + " in " + p.getFileName());
                assertEquals("release", v.get("events").get(0).get("mode").asText(), cas + " in " + p.getFileName());
                assertEquals("interlocked-" + cas.substring("cas-".length()), v.get("events").get(2).get("mode").asText(),
                        cas + " in " + p.getFileName());
            }
        }
    }

    @Test
    void cleanTraceExitsZero() throws Exception {
        Path t = dir.resolve("clean.trace");
        Files.writeString(t, "T1 volatile-store a\nT1 load b\nT2 volatile-store b\nT2 load a\n");
        assertEquals(0, run("replay", t.toString(), "--models", "tso,pso,sober"));
        assertTrue(out().contains("no violations"), out());
    }

    @Test
    void modelsSelectTheAnalyses() throws Exception {
        assertEquals(1, run("replay", dekker().toString(), "--models=sober"));
        assertTrue(out().contains("1 finding: 1 race:"), out());
        assertTrue(out().contains("(sober)"), out());
    }

    @Test
    void binaryRoundTripThroughConvertGivesTheSameVerdict() throws Exception {
        Path bin = dir.resolve("dekker.mmct");
        assertEquals(0, run("convert", dekker().toString(), bin.toString()));
        assertEquals(1, run("replay", bin.toString()));
        assertTrue(out().contains("Dekker.java:21"), out());
        Path text = dir.resolve("back.trace");
        assertEquals(0, run("convert", bin.toString(), text.toString()));
        assertTrue(Files.readString(text).contains("T2 load flag1 Dekker.java:21"));
    }

    @Test
    void aCutBinaryTraceIsReplayedAndSaysSo() throws Exception {
        Path bin = dir.resolve("dekker.mmct");
        run("convert", dekker().toString(), bin.toString());
        byte[] b = Files.readAllBytes(bin);
        Path cut = dir.resolve("cut.mmct");
        Files.write(cut, Arrays.copyOf(b, b.length - 3)); // inside the end chunk
        Path report = dir.resolve("cut.json");
        assertEquals(1, run("replay", cut.toString(), "--report", report.toString()));
        assertTrue(out().contains("mmcheck: INCOMPLETE: the trace was cut short"), out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertFalse(json.get("complete").asBoolean());
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws Exception {
        Path bad = dir.resolve("bad.trace");
        Files.writeString(bad, "T1 load x\nT1 stroe y\n");
        String[][] cases = {
            {"replay", bad.toString()},
            {"replay", dir.resolve("missing.trace").toString()},
            {"replay", "--models", "tso,arm", "x.trace"},
            {"replay"},
            {"replay", "a.trace", "b.trace"},
            {"replay", "a.trace", "--frobnicate"},
            {"frobnicate"},
            {},
        };
        String[] expected = {
            "mmcheck: " + bad + ":2: unknown operation 'stroe'",
            "mmcheck: " + dir.resolve("missing.trace") + ": no such file",
            "mmcheck: --models: unknown model 'arm' (choose from tso, pso, sober, scser, tsoser, jmm, or all)",
            "mmcheck: replay needs a trace file",
            "mmcheck: replay takes one trace, got also 'b.trace'",
            "mmcheck: unknown option '--frobnicate' for replay",
            "mmcheck: unknown command 'frobnicate' (try 'mmcheck --help')",
            "mmcheck: no command given (try 'mmcheck --help')",
        };
        for (int i = 0; i < cases.length; i++) {
            err.reset();
            assertEquals(2, run(cases[i]), Arrays.toString(cases[i]));
            assertEquals(expected[i] + System.lineSeparator(), err(), Arrays.toString(cases[i]));
        }
    }

    @Test
    void garbageIsNotMistakenForATrace() throws Exception {
        Path g = dir.resolve("garbage.bin");
        Files.write(g, new byte[] {1, 2, 0, 3, 4});
        assertEquals(2, run("replay", g.toString()));
        assertEquals("mmcheck: " + g + ": neither a text trace nor an mmcheck binary trace" + System.lineSeparator(),
                err());
    }

    @Test
    void fixWritesTheFindingsWithTheirEditsAsSarifAndTheFixAsJson() throws Exception {
        // under the repository's root, where SARIF's paths are taken from
        Path src = Path.of("target/fix-command-test/src").toAbsolutePath();
        Files.createDirectories(src);
        Files.write(src.resolve("Dekker.java"), List.of("class Dekker {", "    static int flag1;", "    static int flag2;",
                "}"));
        Path sarif = dir.resolve("fix.sarif");
        Path json = dir.resolve("fix.json");
        assertEquals(0, run("fix", dekker().toString(), dekker2().toString(), "--sarif", sarif.toString(), "--report",
                json.toString(), "--source-root", src.toString()));
        assertTrue(out().contains("SARIF written to " + sarif), out());
        JsonNode log = SarifSchema.assertValid(Files.readAllBytes(sarif));
        JsonNode results = log.get("runs").get(0).get("results");
        assertEquals(1, results.size(), "the race both runs show is one finding");
        JsonNode fix = results.get(0).get("fixes").get(0);
        assertEquals("Dekker.java:12: declare flag1 volatile (every access to it becomes volatile)",
                fix.get("description").get("text").asText());
        JsonNode edit = fix.get("artifactChanges").get(0).get("replacements").get(0);
        assertEquals(2, edit.get("deletedRegion").get("startLine").asInt());
        assertEquals("volatile ", edit.get("insertedContent").get("text").asText());
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals("fix of 2 traces", report.get("source").asText());
        assertEquals(1, report.get("fix").get("changes").size());
        assertEquals(2, run("fix", dekker().toString(), "--source-root", dir.resolve("missing").toString()));
        assertEquals("mmcheck: --source-root " + dir.resolve("missing") + ": not a directory" + System.lineSeparator(),
                err());
    }

    private Path dekker2() throws Exception {
        Path t = dir.resolve("dekker2.trace");
        Files.writeString(t, "T2 store flag2 Dekker.java:20\nT1 store flag1 Dekker.java:12\nT2 load flag1 Dekker.java:21\n"
                + "T1 load flag2 Dekker.java:13\n");
        return t;
    }

    @Test
    void fixPrintsTheChangeAndItsProofAndExitsZero() throws Exception {
        assertEquals(0, run("fix", dekker().toString()));
        String[] lines = out().split(System.lineSeparator());
        assertEquals("the fewest changes that remove every finding of this run (1 finding under tso, pso): 1 change",
                lines[0]);
        assertEquals("  Dekker.java:12: declare flag1 volatile (every access to it becomes volatile)", lines[1]);
        assertEquals("      cost 1.6 (2 accesses: stores x 1, loads x 0.1, +0.5 for the edit); removes 1 finding; left out, "
                + "1 finding comes back", lines[2]);
        assertEquals("proof by replay under tso, pso: with these changes this run has 0 findings; without it, 1",
                lines[3]);
        assertTrue(lines[4].startsWith("chosen among "), lines[4]);
        assertEquals("", err());
    }

    @Test
    void fixOfACleanRunSaysSoAndExitsZero() throws Exception {
        Path t = dir.resolve("fenced.trace");
        Files.writeString(t, "T1 volatile-store flag1 Dekker.java:12\nT1 load flag2 Dekker.java:13\n"
                + "T2 volatile-store flag2 Dekker.java:20\nT2 load flag1 Dekker.java:21\n");
        assertEquals(0, run("fix", t.toString()));
        assertEquals("no finding to remove" + System.lineSeparator(), out());
    }

    @Test
    void fixWithBadInputIsOneLineAndExitsTwo() throws Exception {
        Path bad = dir.resolve("bad.trace");
        Files.writeString(bad, "T1 stroe flag1 Dekker.java:12\n");
        assertEquals(2, run("fix", bad.toString()));
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().startsWith("mmcheck: " + bad), err());
        assertEquals("", out());
        err.reset();
        assertEquals(2, run("fix", dekker().toString(), "--models", "bogus"));
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().startsWith("mmcheck: ") && err().contains("bogus"), err());
        assertEquals("", out());
        err.reset();
        assertEquals(2, run("fix", dir.resolve("missing.trace").toString()));
        assertEquals(1, err().lines().count(), err());
    }
}
