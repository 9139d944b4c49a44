package dev.mmcheck.checker.report;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.trace.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML page shows each store-buffer finding as a timeline with one column per thread: the store in its
 * thread's column, its buffered window below it in that column, prev and the stale read in the other's.
 */
class HtmlReportTest {

    private static final String DEKKER = """
            T1 store flag1 Dekker.java:12 Dekker.thread1
            T1 load  flag2 Dekker.java:13 Dekker.thread1
            T2 store flag2 Dekker.java:20 Dekker.thread2
            T2 load  flag1 Dekker.java:21 Dekker.thread2
            """;

    private static String page(String trace, EnumSet<Analysis> analyses) throws Exception {
        Symbols symbols = new Symbols();
        Checker checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(analyses));
        TextTraceReader.read("t", new StringReader(trace), symbols, checker);
        CheckResult r = checker.result();
        return HtmlReport.page("t", true, r, Triage.untriaged(r));
    }

    /** The rows of the page's first timeline, each a list of its cells' classes ("" for none) after the row number. */
    private static List<List<String>> rows(String html) {
        int start = html.indexOf("<table class=\"timeline\">");
        assertTrue(start >= 0, "a timeline: " + html);
        String table = html.substring(start, html.indexOf("</table>", start));
        List<List<String>> rows = new ArrayList<>();
        for (String tr : table.split("<tr>")) {
            if (!tr.contains("class=\"n\"")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            Matcher m = Pattern.compile("<td(?: class=\"([a-z]+)\")?>").matcher(tr);
            while (m.find()) {
                cells.add(m.group(1) == null ? "" : m.group(1));
            }
            rows.add(cells.subList(1, cells.size()));
        }
        return rows;
    }

    @Test
    void aStoreBufferFindingIsATimelineWithOneColumnPerThread() throws Exception {
        String html = page(DEKKER, EnumSet.of(Analysis.TSO, Analysis.PSO));
        assertTrue(html.contains("<tr><th></th><th>T1</th><th>T2</th></tr>"), html);
        // store flag1 (T1) -> load flag2 (T1) -> prev: store flag2 (T2), then the access: load flag1 (T2)
        assertEquals(List.of(
                List.of("st", ""),
                List.of("step", ""),
                List.of("buf", "pv"),
                List.of("buf", "stale")), rows(html));
        assertTrue(html.contains("the store: still buffered"), html);
        assertTrue(html.contains("reads memory without the store: stale"), html);
    }

    @Test
    void aJmmFindingSaysVisibilityNotBuffers() throws Exception {
        String sb = """
                T1 release-store x SB.java:1
                T1 load y SB.java:2
                T2 release-store y SB.java:5
                T2 load x SB.java:6
                """;
        String html = page(sb, EnumSet.of(Analysis.JMM));
        assertEquals(List.of(
                List.of("st", ""),
                List.of("step", ""),
                List.of("buf", "pv"),
                List.of("buf", "stale")), rows(html));
        assertTrue(html.contains("the store: not yet visible to T2"), html);
        String table = html.substring(html.indexOf("<table class=\"timeline\">"));
        table = table.substring(0, table.indexOf("</table>"));
        assertTrue(!table.contains("store buffer"), "no store buffer in the jmm model's words: " + table);
    }
}
