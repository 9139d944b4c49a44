package dev.mmcheck.checker.finding;

import java.util.List;

/**
 * Where the analyses put what they find, in ids only (thread slots, event kinds, address ids, site ids,
 * event numbers): no names, no report values. The report side ({@code report.Findings}) deduplicates,
 * counts and names them; the analyses never see it. Called on the checker thread, synchronously, while
 * the analysis processes the event that exposes the finding.
 */
public interface FindingSink {

    /** One event as the stream gave it: thread slot, kind code, operand (address or thread) and site. */
    record Ev(int thread, int kind, int operand, int site) {
    }

    /** One transaction: its thread slot, the site it begins at, and whether it is an atomic method's invocation. */
    record Tx(int thread, int site, boolean atomic) {
    }

    /**
     * Edge from transaction {@code from} to {@code to} of a cycle (indices): why {@code from} must precede
     * {@code to} ({@code kind}: program-order, conflict, conflict-observed, conflict-late), the two events,
     * and for conflict-late which of them ({@code source} or {@code target}) is the write that commits late.
     */
    record Edge(int from, int to, String kind, Ev source, Ev target, String late) {
    }

    /**
     * A store-buffer finding of {@code analysis}: the store (event {@code storeSeq} of thread
     * {@code storeThread}, of kind {@code storeKind} to {@code storeAddress} at {@code storeSite}) can still
     * be buffered when the access, the current event of thread {@code thread}, runs, although it happens
     * before that thread's previous event (the report's prev, which the sink knows from the stream).
     */
    void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
            long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq);

    /** An event of a thread (its number in the stream, kind, operand and site), kept as a later finding's prev. */
    record Prev(long seq, int kind, int operand, int site) {
    }

    /** {@code thread}'s event before its current one, for a finding reported after later events; null if not kept. */
    default Prev prevOf(int thread) {
        return null;
    }

    /**
     * {@link #storeBuffered(Analysis, int, int, int, int, long, int, int, int, int, long)} for an access that is an
     * earlier event of its thread (an analysis held it back): {@code prev} as {@link #prevOf} gave it then.
     */
    default void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
            long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq, Prev prev) {
        storeBuffered(analysis, storeThread, storeKind, storeAddress, storeSite, storeSeq, thread, accessKind,
                accessAddress, accessSite, accessSeq);
    }

    /**
     * A cycle of transactions found by {@code analysis}: transactions in cycle order, edge i from
     * transaction i to i + 1 (the last back to the first), and what the cycle means, in a sentence; the
     * cycle closed at event {@code seq}.
     */
    void cycle(Analysis analysis, List<Tx> transactions, List<Edge> edges, String advice, long seq);
}
