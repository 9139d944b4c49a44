package dev.mmcheck.checker.result;

import dev.mmcheck.checker.event.EventWindow;
import dev.mmcheck.checker.event.LastEvents;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report side on its own: findings in ids become named violations the first time, are counted
 * after that (keyed by the sites of store, prev and access; cycles by their transactions' and late
 * writes' sites), and are kept under raw ids when naming fails.
 */
class FindingsTest {

    private final Symbols symbols = new Symbols();
    private final LastEvents last = new LastEvents();
    private final EventWindow window = new EventWindow(64);
    private final int t0 = symbols.thread("T0");
    private final int t1 = symbols.thread("T1");
    private final int x = symbols.address("x");
    private final int store = symbols.site(Site.at("D.java", 10));
    private final int prev = symbols.site(Site.at("D.java", 20));
    private final int access = symbols.site(Site.at("D.java", 21));

    private Findings findings() {
        last.ensureSlots(2);
        return new Findings(symbols, last, window, 64, s -> s == 0 ? t0 : s == 1 ? t1 : -1);
    }

    @Test
    void aFindingIsNamedOnceAndCountedAfter() {
        Findings f = findings();
        window.record(0, Kinds.STORE, 0, x, store);
        window.record(1, Kinds.STORE, 1, symbols.address("y"), prev);
        last.remember(1, 1, Kinds.STORE, symbols.address("y"), prev);
        f.storeBuffered(Analysis.TSO, 0, Kinds.STORE, x, store, 0, 1, Kinds.LOAD, x, access, 2);
        f.storeBuffered(Analysis.TSO, 0, Kinds.STORE, x, store, 0, 1, Kinds.LOAD, x, access, 5);
        f.storeBuffered(Analysis.PSO, 0, Kinds.STORE, x, store, 0, 1, Kinds.LOAD, x, access, 6);
        assertEquals(2, f.violations().size(), "one per analysis and sites");
        Violation v = f.violations().get(0);
        assertEquals(2, v.count());
        assertEquals("store x by T0 at D.java:10", v.store().describe());
        assertEquals("store y by T1 at D.java:20", v.prev().describe());
        assertEquals("load x by T1 at D.java:21", v.access().describe());
        assertEquals(2, v.firstSeq());
        assertTrue(v.advice().contains("D.java:10"), v.advice());
        assertEquals(0, f.namingFailures());
        assertNull(f.namingFailure());
    }

    @Test
    void anotherPrevSiteIsAnotherViolation() {
        Findings f = findings();
        last.remember(1, 1, Kinds.STORE, x, prev);
        f.storeBuffered(Analysis.TSO, 0, Kinds.STORE, x, store, 0, 1, Kinds.LOAD, x, access, 2);
        last.remember(1, 3, Kinds.LOAD, x, symbols.site(Site.at("D.java", 30)));
        f.storeBuffered(Analysis.TSO, 0, Kinds.STORE, x, store, 0, 1, Kinds.LOAD, x, access, 4);
        assertEquals(2, f.violations().size());
    }

    @Test
    void whenNamingFailsTheFindingIsKeptUnderRawIds() {
        Findings f = findings();
        f.failNamingFrom(0);
        last.remember(1, 1, Kinds.STORE, x, prev);
        f.storeBuffered(Analysis.TSO, 0, Kinds.STORE, x, store, 0, 1, Kinds.LOAD, x, access, 2);
        f.storeBuffered(Analysis.TSO, 0, Kinds.STORE, x, store, 0, 1, Kinds.LOAD, x, access, 3);
        assertEquals(1, f.violations().size());
        assertEquals(2, f.violations().get(0).count());
        assertEquals("address#" + x, f.violations().get(0).store().field());
        assertEquals(1, f.namingFailures());
        assertNotNull(f.namingFailure());
        assertEquals("names", f.namingFailure().stage());
    }

    @Test
    void cyclesAreKeyedByTheirTransactionsAndLateWrites() {
        Findings f = findings();
        List<FindingSink.Tx> txs = List.of(new FindingSink.Tx(0, store, true), new FindingSink.Tx(1, prev, true));
        FindingSink.Ev a = new FindingSink.Ev(0, Kinds.LOAD, x, store);
        FindingSink.Ev b = new FindingSink.Ev(1, Kinds.STORE, x, prev);
        List<FindingSink.Edge> edges = List.of(new FindingSink.Edge(0, 1, "conflict", a, b, ""),
                new FindingSink.Edge(1, 0, "conflict", b, a, ""));
        f.cycle(Analysis.SCSER, txs, edges, "advice", 7);
        f.cycle(Analysis.SCSER, txs, edges, "advice", 9);
        List<FindingSink.Edge> late = List.of(new FindingSink.Edge(0, 1, "conflict-late", a, b, "target"),
                new FindingSink.Edge(1, 0, "conflict", b, a, ""));
        f.cycle(Analysis.TSOSER, txs, late, "advice", 11);
        assertEquals(2, f.violations().size());
        assertEquals(2, f.violations().get(0).count());
        assertEquals("sc-serializability", f.violations().get(0).kind());
        assertEquals("T0", f.violations().get(0).transactions().get(0).thread());
        assertTrue(f.violations().get(1).advice().contains("Late: store x by T1"), f.violations().get(1).advice());
    }
}
