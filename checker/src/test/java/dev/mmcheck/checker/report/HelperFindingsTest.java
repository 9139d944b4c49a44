package dev.mmcheck.checker.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
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
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One finding must not hide another: two races through one helper (the hand-written traces
 * 23-helper-two-callers, told apart by the calls that reached the helper, and 24-helper-two-fields, by the
 * field it reached) are two findings in every form of the report (summary, JSON, SARIF, HTML, merged
 * reports) and under a baseline; the same race on many objects and rounds, by three analyses
 * (25-helper-many-objects), stays one.
 */
class HelperFindingsTest {

    @TempDir
    Path dir;

    private static CheckResult replay(String trace) throws Exception {
        Symbols symbols = new Symbols();
        Checker checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSO,
                Analysis.PSO, Analysis.SOBER)));
        try (Reader in = new InputStreamReader(HelperFindingsTest.class.getResourceAsStream("/traces/" + trace),
                StandardCharsets.UTF_8)) {
            TextTraceReader.read(trace, in, symbols, checker);
        }
        return checker.result();
    }

    @Test
    void twoCallersOfOneHelperAreTwoFindings() throws Exception {
        CheckResult r = replay("23-helper-two-callers.trace");
        List<Finding> findings = Finding.group(r.violations());
        assertEquals(2, findings.size(), "the lock's race and the counter's, through the same two lines of Buf");
        Finding lock = findings.get(0);
        Finding stats = findings.get(1);
        for (Finding f : findings) {
            assertEquals("Buf.java:10", f.first().store().site().location(), "the same helper line for both");
            assertEquals("Buf.java:20", f.first().access().site().location());
            assertEquals(List.of("TSO", "PSO"), f.models());
            assertEquals(List.of(Analysis.TSO, Analysis.PSO, Analysis.SOBER), f.analyses());
            assertEquals(1, f.count());
            assertEquals(1, f.examples().size(), "neither is only an example of the other");
        }
        assertEquals(new Site("Lock", "enter1", "Lock.java", 12, -1), lock.first().store().site().caller());
        assertEquals(new Site("Lock", "enter2", "Lock.java", 23, -1), lock.first().access().site().caller());
        assertEquals(new Site("Stats", "add", "Stats.java", 40, -1), stats.first().store().site().caller());
        assertEquals(new Site("Stats", "drain", "Stats.java", 51, -1), stats.first().access().site().caller());
        assertEquals("race:Buf#putInt@Lock#enter1:int[][]->Buf#getInt@Lock#enter2:int[][]", lock.key());
        assertEquals("race:Buf#putInt@Stats#add:int[][]->Buf#getInt@Stats#drain:int[][]", stats.key());
        assertEquals("race:Buf#putInt:int[][]->Buf#getInt:int[][]", stats.keyWithoutCallers(),
                "the key earlier versions wrote for both");
        assertEquals("int[]#2[0]", stats.first().store().field(), "the counter's own race is the one shown");
        assertTrue(stats.first().advice().contains("called from Stats.java:40"), stats.first().advice());
        assertEquals("store int[]#2[0] by T3 at Buf.java:10 (Buf.putInt), called from Stats.java:40 (Stats.add)",
                stats.first().store().describe());

        List<String> summary = Summary.lines("23-helper-two-callers.trace", r);
        assertTrue(summary.contains("2 findings: 2 race:"), String.join("\n", summary));
        assertTrue(summary.stream().anyMatch(l -> l.startsWith("    store : store int[]#2[0] by T3 at Buf.java:10 "
                + "(Buf.putInt), called from Stats.java:40 (Stats.add)")), String.join("\n", summary));

        JsonNode json = new ObjectMapper().readTree(JsonReport.toString("t", true, r));
        assertEquals(2, json.get("findings").get("total").asInt());
        assertEquals(2, json.get("violations").size());
        JsonNode store = json.get("violations").get(1).get("events").get(0);
        assertEquals("Buf.java", store.get("file").asText());
        assertEquals(10, store.get("line").asInt());
        assertEquals("Stats", store.get("caller").get("class").asText());
        assertEquals("add", store.get("caller").get("method").asText());
        assertEquals("Stats.java", store.get("caller").get("file").asText());
        assertEquals(40, store.get("caller").get("line").asInt());
        assertEquals(stats.key(), json.get("violations").get(1).get("key").asText());

        ByteArrayOutputStream sarif = new ByteArrayOutputStream();
        SarifReport.write(sarif, "t", true, r, Triage.untriaged(r), SourceRoots.conventional());
        SarifSchema.assertValid(sarif.toByteArray());
        JsonNode results = new ObjectMapper().readTree(sarif.toByteArray()).get("runs").get(0).get("results");
        assertEquals(2, results.size());
        JsonNode related = results.get(1).get("relatedLocations");
        List<String> callers = new ArrayList<>();
        for (JsonNode l : related) {
            if (l.get("id").asInt() >= 3) {
                callers.add(l.get("physicalLocation").get("artifactLocation").get("uri").asText() + ":"
                        + l.get("physicalLocation").get("region").get("startLine").asInt());
            }
        }
        assertEquals(List.of("Stats.java:40", "Stats.java:51"), callers, "the calls are related locations");
        assertEquals(stats.key(), results.get(1).get("partialFingerprints").get("mmcheck/v1").asText());

        String html = HtmlReport.page("t", true, r, Triage.untriaged(r));
        assertTrue(html.contains("called from Lock.java:12 (Lock.enter1)"), html);
        assertTrue(html.contains("called from Stats.java:40 (Stats.add)"), html);
    }

    @Test
    void twoFieldsThroughOneHelperAreTwoFindings() throws Exception {
        CheckResult r = replay("24-helper-two-fields.trace");
        assertEquals(2, r.violationsOf(Analysis.TSO).size(), "the counter's race is not counted into the record's");
        List<Finding> findings = Finding.group(r.violations());
        assertEquals(2, findings.size());
        assertEquals("Record#1.len", findings.get(0).first().store().field());
        assertEquals("Counter#4.value", findings.get(1).first().store().field());
        assertEquals("Counter#4.value", findings.get(1).first().access().field());
        assertEquals("race:U#putInt:Counter.value->U#getInt:Counter.value", findings.get(1).key());
    }

    @Test
    void oneRaceOnManyObjectsInManyRoundsIsOneFinding() throws Exception {
        CheckResult r = replay("25-helper-many-objects.trace");
        assertEquals(1, r.violationsOf(Analysis.TSO).size(), "another object's sighting is counted, not named anew");
        List<Finding> findings = Finding.group(r.violations());
        assertEquals(1, findings.size(), findings.stream().map(Finding::key).toList().toString());
        Finding f = findings.get(0);
        assertEquals(3, f.count(), "one sighting per round");
        assertEquals(List.of(Analysis.TSO, Analysis.PSO, Analysis.SOBER), f.analyses());
        assertEquals(1, f.examples().size());
        assertEquals("race:Buf#put@Q#enter1:Node.a->Buf#get@Q#enter2:Node.a", f.key());
    }

    @Test
    void mergedReportsKeepTheTwoFindingsApart() throws Exception {
        CheckResult r = replay("23-helper-two-callers.trace");
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        JsonReport.write(a, "a", true, r);
        JsonReport.write(b, "b", true, replay("23-helper-two-callers.trace"));
        Merge.Merged m = Merge.of(List.of(a, b));
        assertEquals(2, m.findings().size());
        Finding stats = m.findings().get(1);
        assertEquals("race:Buf#putInt@Stats#add:int[][]->Buf#getInt@Stats#drain:int[][]", stats.key());
        assertEquals(2, stats.count(), "seen once in each report");
        assertEquals(new Site("Stats", "add", "Stats.java", 40, -1), stats.first().store().site().caller());
    }

    @Test
    void mergedReportsOfOneRaceOnOtherObjectsAreOneFinding() throws Exception {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        JsonReport.write(a, "a", true, replay("25-helper-many-objects.trace"));
        // another JVM numbered its objects otherwise
        Files.writeString(b, Files.readString(a).replace("Node#1.", "Node#7.").replace("Node#2.", "Node#8."));
        assertTrue(Files.readString(b).contains("Node#7.a"));
        Merge.Merged m = Merge.of(List.of(a, b));
        assertEquals(1, m.findings().size(), m.findings().stream().map(f -> f.first().store().field()).toList()
                .toString());
        assertEquals(6, m.findings().get(0).count());
    }

    @Test
    void aBaselineWithoutCallersStillAcceptsBothAndSaysSo() throws Exception {
        CheckResult r = replay("23-helper-two-callers.trace");
        // what an earlier version wrote for the one finding it made of both
        Path old = dir.resolve("old-baseline.txt");
        Files.write(old, List.of("# mmcheck baseline", "race:Buf#putInt:int[][]->Buf#getInt:int[][]"));
        Triage.Outcome o = Triage.load(null, old, EnumSet.allOf(Category.class)).apply(Finding.group(r.violations()));
        assertEquals(0, o.failing());
        assertTrue(o.findings().stream().allMatch(Finding::baselined));
        assertTrue(o.notes().stream().anyMatch(n -> n.kind().equals("baseline-without-callers") && n.count() == 2),
                o.notes().toString());

        // a baseline of today's keys accepts what it lists and nothing else
        Path now = dir.resolve("baseline.txt");
        Files.write(now, List.of("race:Buf#putInt@Lock#enter1:int[][]->Buf#getInt@Lock#enter2:int[][]"));
        o = Triage.load(null, now, EnumSet.allOf(Category.class)).apply(Finding.group(r.violations()));
        assertEquals(1, o.failing(), "the counter's race is new");
        assertFalse(o.findings().get(1).baselined());
        assertTrue(o.notes().stream().noneMatch(n -> n.kind().equals("baseline-without-callers")));

        // written afresh, a baseline holds both keys
        Path fresh = dir.resolve("fresh.txt");
        Triage.load(null, fresh, EnumSet.allOf(Category.class)).apply(Finding.group(r.violations()));
        assertEquals(Set.of("race:Buf#putInt@Lock#enter1:int[][]->Buf#getInt@Lock#enter2:int[][]",
                "race:Buf#putInt@Stats#add:int[][]->Buf#getInt@Stats#drain:int[][]"),
                Set.copyOf(Files.readAllLines(fresh).stream().filter(l -> !l.startsWith("#")).toList()));
    }

    @Test
    void aRuleCanNameTheCallerOfAHelper() throws Exception {
        CheckResult r = replay("23-helper-two-callers.trace");
        Triage.Rule rule = Triage.rule("s:1", "store=Stats#add reason=the drain mark is re-read");
        List<Finding> findings = Finding.group(r.violations());
        assertFalse(rule.matches(findings.get(0)));
        assertTrue(rule.matches(findings.get(1)));
        assertTrue(Triage.rule("s:2", "store=Buf#putInt reason=r").matches(findings.get(0)), "the helper still names both");
        assertTrue(Triage.rule("s:3", "access=Stats.java:51 reason=r").matches(findings.get(1)));
    }

    @Test
    void contextsOfAHelperSiteGoToTheFindingOfTheirCaller() throws Exception {
        CheckResult r = replay("23-helper-two-callers.trace");
        List<Finding> findings = Finding.group(r.violations());
        Site buf = new Site("Buf", "putInt", "Buf.java", 10, -1);
        Map<Site, List<String>> chains = Map.of(buf, List.of("Main.run:5 -> Lock.enter1:12 -> Buf.putInt:10",
                "Main.run:6 -> Stats.add:40 -> Buf.putInt:10"));
        for (Finding f : findings) {
            f.contexts(chains);
        }
        assertEquals(List.of("Main.run:5 -> Lock.enter1:12 -> Buf.putInt:10"), findings.get(0).storeContexts());
        assertEquals(List.of("Main.run:6 -> Stats.add:40 -> Buf.putInt:10"), findings.get(1).storeContexts());
        assertEquals(new Site("Lock", "enter2", "Lock.java", 22, -1), findings.get(0).first().prev().site().caller(),
                "prev is a helper's access too, with its own caller");
    }

    @Test
    void aSiteWithoutCallerIsWhatItWas() {
        Site s = new Site("C", "m", "C.java", 3, 7, "volatile");
        assertNull(s.caller());
        assertEquals(s, s.base());
        Site called = s.calledFrom(new Site("D", "n", "D.java", 9, 2).calledFrom(new Site("E", "o", "E.java", 1, 0)));
        assertNotNull(called.caller());
        assertNull(called.caller().caller(), "a caller has no caller");
        assertEquals(s, called.base());
        assertEquals("C.java:3 (C.m), called from D.java:9 (D.n)", called.describe());
        assertEquals("C.java:3", called.location());
        assertEquals(s.calledFrom(new Site("D", "lambda$run$0", "D.java", 9, 1)),
                s.calledFrom(new Site("D", "lambda$run$1", "D.java", 9, 5)), "two lambdas on one line: one call");
        assertEquals("lambda$run", s.calledFrom(new Site("D", "lambda$run$12", "D.java", 9, 1)).caller().method());
    }
}
