package dev.mmcheck.checker.engine;

import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.serial.SerialConfig;
import dev.mmcheck.checker.trace.TextTraceReader;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The serializability checks inside the {@link Checker}: when they run, bounds, memory, reports. */
class SerializabilityCheckerTest {

    private static Checker replay(String resource, Checker.Config config) throws Exception {
        Symbols symbols = new Symbols();
        Checker c = new Checker(symbols, config);
        try (Reader r = new InputStreamReader(SerializabilityCheckerTest.class.getResourceAsStream("/traces/" + resource),
                StandardCharsets.UTF_8)) {
            TextTraceReader.read(resource, r, symbols, c);
        }
        return c;
    }

    @Test
    void theChecksStartAtTheFirstTransactionUnlessModelsAreChosen() throws Exception {
        Checker auto = replay("16-task-pool-fig2.trace", Checker.Config.defaults());
        assertEquals(EnumSet.of(Analysis.TSO, Analysis.PSO, Analysis.SCSER, Analysis.TSOSER), auto.result().analyses());
        assertFalse(auto.result().violationsOf(Analysis.TSOSER).isEmpty());
        assertEquals(4, auto.result().transactions());
        Checker none = replay("01-dekker-plain.trace", Checker.Config.defaults());
        assertEquals(EnumSet.of(Analysis.TSO, Analysis.PSO), none.result().analyses(), "no transaction, no check");
        Checker exact = replay("16-task-pool-fig2.trace",
                Checker.Config.defaults().withAutoSerializability(false));
        assertEquals(EnumSet.of(Analysis.TSO, Analysis.PSO), exact.result().analyses());
        assertTrue(exact.result().violations().isEmpty());
    }

    /** The cycle of Fig. 2(d) alone (the pool's accesses left out): four transactions, two late writes. */
    private static Checker fig2Indices(int steps) {
        Symbols s = new Symbols();
        int t1 = s.thread("T1");
        int t2 = s.thread("T2");
        int head = s.address("head");
        int tail = s.address("tail");
        int[] tx = {s.site(new Site("Pool", "alpha", "Pool.java", 10, -1)), s.site(new Site("Pool", "beta", "Pool.java",
                15, -1)), s.site(new Site("Pool", "delta", "Pool.java", 30, -1)), s.site(new Site("Pool", "gamma",
                "Pool.java", 35, -1))};
        int line = s.site(Site.at("Pool.java", 1));
        Checker c = new Checker(s, Checker.Config.defaults().withAutoSerializability(false)
                .withAnalyses(EnumSet.of(Analysis.TSOSER)).withSerial(SerialConfig.defaults().withSearchSteps(steps)));
        int[][] run = {{t1, 0, Kinds.LOAD, head}, {t1, 0, Kinds.STORE, head}, {t2, 2, Kinds.LOAD, tail},
            {t2, 2, Kinds.STORE, tail}, {t1, 1, Kinds.LOAD, head}, {t1, 1, Kinds.LOAD, tail}, {t2, 3, Kinds.LOAD, head},
            {t2, 3, Kinds.LOAD, tail}};
        for (int i = 0; i < run.length; i += 2) {
            int t = run[i][0];
            c.event(Kinds.TX_BEGIN, t, -1, tx[run[i][1]]);
            c.event(run[i][2], t, run[i][3], line);
            c.event(run[i + 1][2], t, run[i + 1][3], line);
            c.event(Kinds.TX_END, t, -1, tx[run[i][1]]);
        }
        return c;
    }

    @Test
    void aSearchCutAtItsBoundIsSaidAndNotTakenForSerializable() {
        assertEquals(1, fig2Indices(1000).result().violationsOf(Analysis.TSOSER).size());
        CheckResult cut = fig2Indices(2).result();
        assertTrue(cut.violationsOf(Analysis.TSOSER).isEmpty());
        assertTrue(cut.notes().stream().anyMatch(n -> n.kind().equals("search-cut") && n.analysis().equals("tsoser")
                && n.text().contains("may not be TSO-serializable")), cut.notes().toString());
        String summary = String.join("\n", Summary.lines("cut", cut));
        assertTrue(summary.contains("may still not be serializable"), summary);
        assertFalse(summary.contains("are serializable"), summary);
    }

    @Test
    void reportsNameTheTransactionsEdgesAndLateWrites() throws Exception {
        Checker c = replay("16-task-pool-fig2.trace", Checker.Config.defaults());
        CheckResult r = c.result();
        String json = JsonReport.toString("fig2", true, r);
        assertTrue(json.contains("\"kind\" : \"tso-serializability\""), json);
        assertTrue(json.contains("\"transactions\" : ["), json);
        assertTrue(json.contains("\"kind\" : \"conflict-late\""), json);
        assertTrue(json.contains("\"late\" : \"target\""), json);
        assertTrue(json.contains("\"method\" : \"takeHeadIndex\""), json);
        assertTrue(json.contains("\"transactions\" : 4"), "stats count the transactions: " + json);
        List<String> summary = Summary.lines("fig2", r);
        String text = String.join("\n", summary);
        assertTrue(text.contains("TSO-serializability violation (tsoser)"), text);
        assertTrue(text.contains("Pool.takeHeadIndex (T1, Pool.java:10)"), text);
        assertTrue(text.contains("Late: store head by T1 at Pool.java:11"), text);
    }

    /**
     * A long run of small transactions that conflict in a serializable way (each a CAS on one counter
     * and a plain read of another, both threads alike): the graphs keep a bounded number of
     * transactions, so memory does not grow with the run.
     */
    @Test
    void finishedTransactionsAreCollected() {
        Symbols s = new Symbols();
        int t1 = s.thread("T1");
        int t2 = s.thread("T2");
        int a = s.address("counter");
        int b = s.address("other");
        int site = s.site(Site.at("Long.java", 1));
        Checker c = new Checker(s, Checker.Config.defaults().withAnalyses(
                EnumSet.of(Analysis.TSO, Analysis.SCSER, Analysis.TSOSER)));
        long maxSc = 0;
        long maxTso = 0;
        for (int i = 0; i < 200_000; i++) {
            int t = (i & 1) == 0 ? t1 : t2;
            c.event(Kinds.TX_BEGIN, t, -1, site);
            c.event(Kinds.LOAD, t, b, site);
            c.event(Kinds.INTERLOCKED, t, a, site);
            c.event(Kinds.TX_END, t, -1, site);
            if (i % 1000 == 0) {
                c.event(Kinds.STORE, t, b, site); // a plain store outside the transactions now and then
                c.event(Kinds.FULL_FENCE, t, -1, site);
            }
            maxSc = Math.max(maxSc, c.scSerializability().live());
            maxTso = Math.max(maxTso, c.tsoSerializability().live());
        }
        assertTrue(c.result().violations().isEmpty(), c.result().violations().toString());
        assertTrue(maxSc < 16, "SC graph holds " + maxSc);
        assertTrue(maxTso < 16, "TSO graph holds " + maxTso);
        assertEquals(List.of(), c.result().notes().stream().filter(n -> !n.kind().equals("fenced-shortcut")).toList());
    }

    /** Racy plain accesses never fenced: the TSO graph stays bounded by its drop bound and says so. */
    @Test
    void unfencedRacesStayWithinTheBound() {
        Symbols s = new Symbols();
        int t1 = s.thread("T1");
        int t2 = s.thread("T2");
        int site = s.site(Site.at("Race.java", 1));
        SerialConfig small = new SerialConfig(2_000, 1_000, 16, 64, 2, true);
        Checker c = new Checker(s, new Checker.Config(EnumSet.of(Analysis.SCSER, Analysis.TSOSER),
                MonitorConfig.defaults(), 1 << 10, 16, false, small, null));
        for (int i = 0; i < 100_000; i++) {
            int t = (i & 1) == 0 ? t1 : t2;
            int x = s.address("x" + (i % 7));
            c.event(Kinds.TX_BEGIN, t, -1, site);
            c.event(Kinds.LOAD, t, x, site);
            c.event(Kinds.STORE, t, s.address("x" + ((i + 3) % 7)), site);
            c.event(Kinds.TX_END, t, -1, site);
            assertTrue(c.tsoSerializability().live() <= 1_000, "live " + c.tsoSerializability().live());
            assertTrue(c.scSerializability().live() <= 1_000);
        }
        assertFalse(c.result().violationsOf(Analysis.TSOSER).isEmpty());
        assertTrue(c.result().notes().stream().anyMatch(n -> n.analysis().equals("tsoser")), c.result().notes().toString());
    }

    /**
     * S19's cycle (docs/serializability.md) around the owner's 512th store without a fence, its index store,
     * with 100 more stores of the owner before the thief's test: at the buffer bound (256) the oldest
     * stores commit and the index store, among the newest, stays buffered, so the cycle is found. Draining
     * the whole buffer each time it fills (tsoser before: at the 256th and 512th store) commits the index
     * store too and loses it, wherever in the window the drain falls.
     */
    @Test
    void theBufferBoundKeepsTheNewestStoreBuffered() {
        Symbols s = new Symbols();
        int owner = s.thread("owner");
        int thief = s.thread("thief");
        int bottom = s.address("bottom");
        int top = s.address("top");
        int site = s.site(Site.at("Pool.java", 1));
        int[] tx = new int[4];
        for (int i = 0; i < tx.length; i++) {
            tx[i] = s.site(new Site("Pool", "tx" + i, "Pool.java", 10 + i, -1));
        }
        Checker c = new Checker(s, Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSOSER)));
        assertEquals(256, SerialConfig.defaults().bufferBound());
        for (int i = 0; i < 511; i++) {
            c.event(Kinds.STORE, owner, s.address("work" + (i % 64)), site); // executing earlier tasks
        }
        c.event(Kinds.TX_BEGIN, owner, -1, tx[0]);
        c.event(Kinds.STORE, owner, bottom, site); // its 512th store
        c.event(Kinds.TX_END, owner, -1, tx[0]);
        c.event(Kinds.TX_BEGIN, thief, -1, tx[1]);
        c.event(Kinds.STORE, thief, top, site);
        c.event(Kinds.TX_END, thief, -1, tx[1]);
        c.event(Kinds.TX_BEGIN, owner, -1, tx[2]);
        c.event(Kinds.LOAD, owner, bottom, site);
        c.event(Kinds.LOAD, owner, top, site);
        c.event(Kinds.TX_END, owner, -1, tx[2]);
        for (int i = 0; i < 100; i++) {
            c.event(Kinds.STORE, owner, s.address("work" + (i % 64)), site); // executing the task it took
        }
        c.event(Kinds.TX_BEGIN, thief, -1, tx[3]);
        c.event(Kinds.LOAD, thief, top, site);
        c.event(Kinds.LOAD, thief, bottom, site);
        c.event(Kinds.TX_END, thief, -1, tx[3]);
        CheckResult r = c.result();
        assertEquals(1, r.violationsOf(Analysis.TSOSER).size(), r.violations().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.kind().equals("buffer-bound") && n.analysis().equals("tsoser")
                && n.count() == 612 - 256), r.notes().toString());
    }

    /**
     * A thread that never fences: as its bounded buffer commits its oldest stores, its transactions settle
     * and are collected, so the graph holds about a buffer's worth of them, far below the drop bound.
     */
    @Test
    void aThreadThatNeverFencesKeepsAboutABufferOfTransactions() {
        Symbols s = new Symbols();
        int t1 = s.thread("T1");
        int t2 = s.thread("T2");
        int a = s.address("a");
        int b = s.address("b");
        int site = s.site(Site.at("Run.java", 1));
        SerialConfig config = SerialConfig.defaults().withBufferBound(64);
        Checker c = new Checker(s, new Checker.Config(EnumSet.of(Analysis.TSOSER), MonitorConfig.defaults(), 1 << 10,
                16, false, config, null));
        long max = 0;
        for (int i = 0; i < 100_000; i++) {
            c.event(Kinds.TX_BEGIN, t1, -1, site);
            c.event(Kinds.STORE, t1, s.address("w" + (i % 100)), site);
            c.event(Kinds.LOAD, t1, a, site);
            c.event(Kinds.TX_END, t1, -1, site);
            if (i % 100 == 0) {
                c.event(Kinds.STORE, t2, a, site);
                c.event(Kinds.FULL_FENCE, t2, -1, site);
                c.event(Kinds.LOAD, t2, b, site);
            }
            max = Math.max(max, c.tsoSerializability().live());
        }
        assertTrue(max < 200, "live transactions " + max);
        assertTrue(c.result().notes().stream().noneMatch(n -> n.kind().equals("transactions-dropped")),
                c.result().notes().toString());
    }

    /** Reading back more than 64 addresses a thread stored to, with no store between: a drain, noted apart. */
    @Test
    void manyBufferedReadsDrainTheBufferAndSaySo() {
        Symbols s = new Symbols();
        int t1 = s.thread("T1");
        int site = s.site(Site.at("Back.java", 1));
        Checker c = new Checker(s, Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSOSER)));
        c.event(Kinds.TX_BEGIN, t1, -1, site);
        for (int i = 0; i < 70; i++) {
            c.event(Kinds.STORE, t1, s.address("x" + i), site);
        }
        for (int i = 0; i < 70; i++) {
            c.event(Kinds.LOAD, t1, s.address("x" + i), site);
        }
        c.event(Kinds.TX_END, t1, -1, site);
        List<String> kinds = c.result().notes().stream().map(n -> n.kind()).toList();
        assertEquals(List.of("buffer-drained"), kinds, c.result().notes().toString());
    }

    @Test
    void threadsEndingAndTheirSlotsReusedKeepTheChecksRunning() throws IOException {
        Symbols s = new Symbols();
        int site = s.site(Site.at("Many.java", 1));
        int a = s.address("a");
        Checker c = new Checker(s, Checker.Config.defaults().withMinSlotsBeforeReset(4)
                .withAnalyses(EnumSet.of(Analysis.TSO, Analysis.SCSER, Analysis.TSOSER)));
        int main = s.thread("main");
        for (int i = 0; i < 64; i++) {
            int t = s.thread("w" + i);
            c.event(Kinds.THREAD_START, main, t, site);
            c.event(Kinds.TX_BEGIN, t, -1, site);
            c.event(Kinds.LOAD, t, a, site);
            c.event(Kinds.STORE, t, a, site);
            c.event(Kinds.TX_END, t, -1, site);
            c.event(Kinds.THREAD_END, t, -1, site);
            c.event(Kinds.THREAD_JOIN, main, t, site);
        }
        CheckResult r = c.result();
        assertTrue(r.clockResets() > 0);
        assertTrue(r.violationsOf(Analysis.SCSER).isEmpty());
        assertTrue(r.violationsOf(Analysis.TSOSER).isEmpty(), r.violations().toString());
    }
}
