package dev.mmcheck.checker.serial;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The serializability checks on their own, driven by hand: the cycle they put into their FindingSink,
 * in ids, for a lost update (two check-then-act transactions interleaved), and none for the same
 * transactions run one after the other.
 */
class SerializabilityChecksTest {

    private static final int X = 0;

    /** Records cycles; a serializability check reports no store-buffer finding. */
    private static final class Cycles implements FindingSink {
        final List<List<Edge>> found = new ArrayList<>();
        final List<List<Tx>> txs = new ArrayList<>();

        @Override
        public void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
                long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq) {
            throw new AssertionError("a serializability check reports cycles only");
        }

        @Override
        public void cycle(Analysis analysis, List<Tx> transactions, List<Edge> edges, String advice, long seq) {
            found.add(edges);
            txs.add(transactions);
        }
    }

    private static void run(Analyzer a, int[][] events) {
        long seq = 0;
        for (int[] e : events) {
            a.event(e[0], e[1], e[2], e[3], seq++);
        }
    }

    private static final int[][] INTERLEAVED = {
        {Kinds.TX_BEGIN, 0, -1, 1}, {Kinds.TX_BEGIN, 1, -1, 1},
        {Kinds.LOAD, 0, X, 2}, {Kinds.LOAD, 1, X, 2},
        {Kinds.STORE, 0, X, 3}, {Kinds.STORE, 1, X, 3},
        {Kinds.TX_END, 0, -1, 1}, {Kinds.TX_END, 1, -1, 1},
    };

    // one after the other, each ending with a full fence: without it, under TSO the first store may commit
    // after the second transaction's load, a cycle even in this order (Enea-Farzan's store-buffer delay)
    private static final int[][] SERIAL = {
        {Kinds.TX_BEGIN, 0, -1, 1}, {Kinds.LOAD, 0, X, 2}, {Kinds.STORE, 0, X, 3}, {Kinds.FULL_FENCE, 0, -1, 4},
        {Kinds.TX_END, 0, -1, 1},
        {Kinds.TX_BEGIN, 1, -1, 1}, {Kinds.LOAD, 1, X, 2}, {Kinds.STORE, 1, X, 3}, {Kinds.FULL_FENCE, 1, -1, 4},
        {Kinds.TX_END, 1, -1, 1},
    };

    private static final int[][] SERIAL_UNFENCED = {
        {Kinds.TX_BEGIN, 0, -1, 1}, {Kinds.LOAD, 0, X, 2}, {Kinds.STORE, 0, X, 3}, {Kinds.TX_END, 0, -1, 1},
        {Kinds.TX_BEGIN, 1, -1, 1}, {Kinds.LOAD, 1, X, 2}, {Kinds.STORE, 1, X, 3}, {Kinds.TX_END, 1, -1, 1},
    };

    @Test
    void aLostUpdateIsACycleOfTwoTransactions() {
        for (boolean tso : new boolean[] {false, true}) {
            Cycles sink = new Cycles();
            Analyzer check = tso ? new TsoSerializability(sink, SerialConfig.exact(), false)
                    : new ScSerializability(sink, SerialConfig.exact());
            run(check, INTERLEAVED);
            assertTrue(sink.found.size() >= 1, check.analysis() + " found no cycle");
            List<FindingSink.Edge> edges = sink.found.get(0);
            assertEquals(2, edges.size(), "two transactions, two edges");
            assertEquals(2, sink.txs.get(0).size());
            for (FindingSink.Edge e : edges) {
                assertEquals(X, e.source().operand());
                assertEquals(X, e.target().operand());
            }
            assertEquals(2, check.transactions());
        }
    }

    @Test
    void theSameTransactionsOneAfterTheOtherAreSerializable() {
        for (boolean tso : new boolean[] {false, true}) {
            Cycles sink = new Cycles();
            Analyzer check = tso ? new TsoSerializability(sink, SerialConfig.exact(), false)
                    : new ScSerializability(sink, SerialConfig.exact());
            run(check, SERIAL);
            assertEquals(List.of(), sink.found, check.analysis().option());
        }
    }

    @Test
    void withoutFencesTsoCanStillBreakASerialRun() {
        Cycles sc = new Cycles();
        run(new ScSerializability(sc, SerialConfig.exact()), SERIAL_UNFENCED);
        assertEquals(List.of(), sc.found, "serial as observed");
        Cycles tso = new Cycles();
        run(new TsoSerializability(tso, SerialConfig.exact(), false), SERIAL_UNFENCED);
        assertTrue(!tso.found.isEmpty(), "the first store may commit after the second transaction's load");
        assertTrue(tso.found.get(0).stream().anyMatch(e -> e.kind().equals("conflict-late")), tso.found.toString());
    }
}
