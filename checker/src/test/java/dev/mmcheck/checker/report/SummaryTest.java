package dev.mmcheck.checker.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Failure;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a reader of the summary and the JSON sees first: what was not checked (failures, then notes that
 * make the run incomplete) before anything else, the other notes after, and never "no violations:" for
 * an incomplete run.
 */
class SummaryTest {

    private static CheckResult result(List<Note> notes, List<Failure> failures) {
        return new CheckResult(EnumSet.of(Analysis.TSO, Analysis.PSO), 100, List.of(), Map.of(), 0, 0, 2, notes, 0,
                failures);
    }

    @Test
    void whatWasNotCheckedComesFirst() {
        Note degraded = Note.degraded("buffer-bound", "tso", 5, "tso: 5 stores were committed early");
        Note incomplete = Note.incomplete("classes-failed", "", 1, "1 classes could not be instrumented");
        Failure failure = Failure.of("pso", 42, new IllegalStateException("boom"));
        List<String> lines = Summary.lines("app", result(List.of(degraded, incomplete), List.of(failure)));
        assertTrue(lines.get(0).startsWith("mmcheck "), lines.get(0));
        assertEquals("mmcheck: INCOMPLETE: the pso analysis failed at event 42: java.lang.IllegalStateException: boom",
                lines.get(1));
        int stack = 2;
        while (lines.get(stack).startsWith("        at ")) {
            stack++;
        }
        assertTrue(stack > 2, "the failure's stack follows it");
        assertEquals("mmcheck: INCOMPLETE: 1 classes could not be instrumented", lines.get(stack));
        assertEquals("note: tso: 5 stores were committed early", lines.get(stack + 1));
        assertTrue(lines.get(lines.size() - 1).contains("not a clean result"), lines.toString());
    }

    @Test
    void aCompleteRunWithABoundIsStillClean() {
        CheckResult r = result(List.of(Note.degraded("clock-reset", "", 3, "3 clock resets")), List.of());
        assertTrue(r.complete());
        List<String> lines = Summary.lines("app", r);
        assertTrue(lines.get(lines.size() - 1).startsWith("no violations:"), lines.toString());
    }

    @Test
    void aCleanSampledRunSaysItCheckedOnlyWhatWasSampled() {
        CheckResult r = result(List.of(Note.degraded("sampled", "pso", 0, "SAMPLED run (sample=0.05): ...")), List.of());
        assertTrue(r.complete(), "sampling is a reduction asked for, not something left unchecked");
        List<String> lines = Summary.lines("app", r);
        assertTrue(lines.get(1).startsWith("note: SAMPLED run"), lines.toString());
        assertTrue(lines.get(lines.size() - 1).startsWith("no violations in what was sampled:"), lines.toString());
    }

    @Test
    void theJsonSaysTheSame() throws Exception {
        Note incomplete = Note.incomplete("events-lost", "", 3, "events produced and consumed differ");
        JsonNode json = new ObjectMapper().readTree(JsonReport.toString("app", true, result(List.of(incomplete),
                List.of())));
        assertFalse(json.get("complete").asBoolean());
        JsonNode note = json.get("notes").get(0);
        assertEquals("incomplete", note.get("severity").asText());
        assertEquals("events-lost", note.get("kind").asText());
        assertEquals(3, note.get("count").asLong());
        assertFalse(note.has("analysis"), "no analysis for a note about the whole run");
        assertEquals(0, json.get("failures").size());
    }

    /**
     * A finding of the access-mode analysis alone is not told in store-buffer words: the store is what the run orders
     * before the access, and the access can read an older value; a finding TSO reports too keeps the store buffer.
     */
    @Test
    void aJmmFindingIsToldInItsOwnWords() throws Exception {
        String trace = String.join("\n",
                "T1 volatile-store flag1 Dekker.java:12",
                "T1 load           flag2 Dekker.java:13",
                "T2 volatile-store flag2 Dekker.java:20",
                "T2 load           flag1 Dekker.java:21");
        dev.mmcheck.checker.event.Symbols symbols = new dev.mmcheck.checker.event.Symbols();
        dev.mmcheck.checker.engine.Checker checker = new dev.mmcheck.checker.engine.Checker(symbols,
                dev.mmcheck.checker.engine.Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSO, Analysis.JMM)));
        dev.mmcheck.checker.trace.TextTraceReader.read("d.trace", new java.io.StringReader(trace), symbols, checker);
        String text = String.join("\n", Summary.lines("d.trace", checker.result()));
        assertTrue(text.contains("which this run orders before the access"), text);
        assertTrue(text.contains("can read an older value under Java's access modes"), text);
        assertTrue(!text.contains("store buffer"), text);
    }
}
