package dev.mmcheck.checker.result;

import dev.mmcheck.checker.finding.Analysis;

import java.util.List;

/**
 * One distinct violation: its events as first seen, and how many times it was seen.
 *
 * <p>A store-buffer violation ({@code sc-violation}) has a store, prev and access event; distinct
 * means distinct sites of these (Burnim et al., Table 1). A serializability violation
 * ({@code sc-serializability}, {@code tso-serializability}) has a cycle of transactions instead, with
 * the two conflicting events of each edge; distinct means the same sites on the cycle. Mutable only
 * through {@link #seenAgain()}, by the checker thread.
 */
public final class Violation {

    private final String kind;
    private final Analysis analysis;
    private final List<EventInfo> events;
    private final List<EventInfo> path;
    private final String pathNote;
    private final String advice;
    private final long firstSeq;
    private final List<TxInfo> transactions;
    private final List<CycleEdge> edges;
    private long count = 1;

    /**
     * A violation first seen at event {@code firstSeq}.
     *
     * @param events   the store, prev and access events
     * @param path     a happens-before path from the store to prev, or null when not retained
     * @param pathNote why there is no path, when there is none
     * @param advice   which fence would remove it, in a sentence
     */
    public Violation(String kind, Analysis analysis, List<EventInfo> events, List<EventInfo> path,
            String pathNote, String advice, long firstSeq) {
        this.kind = kind;
        this.analysis = analysis;
        this.events = List.copyOf(events);
        this.path = path == null ? null : List.copyOf(path);
        this.pathNote = pathNote;
        this.advice = advice;
        this.firstSeq = firstSeq;
        this.transactions = List.of();
        this.edges = List.of();
    }

    /**
     * A serializability violation first seen at event {@code firstSeq}: the cycle's transactions in
     * cycle order and its edges (edge i runs from transaction i to transaction i + 1, the last back to
     * the first).
     *
     * @param advice what the cycle means and what would remove it, in a sentence
     */
    public Violation(String kind, Analysis analysis, List<TxInfo> transactions, List<CycleEdge> edges,
            String advice, long firstSeq) {
        this.kind = kind;
        this.analysis = analysis;
        this.events = List.of();
        this.path = null;
        this.pathNote = "";
        this.advice = advice;
        this.firstSeq = firstSeq;
        this.transactions = List.copyOf(transactions);
        this.edges = List.copyOf(edges);
    }

    /** Counts {@code n} more occurrences (reports merged, docs/build.md). */
    public void seenMore(long n) {
        count += Math.max(0, n);
    }

    /** Counts one more occurrence. */
    public void seenAgain() {
        count++;
    }

    /** "sc-violation" for the store-buffer monitors, "sc-serializability" or "tso-serializability". */
    public String kind() {
        return kind;
    }

    /** Which analysis found it. */
    public Analysis analysis() {
        return analysis;
    }

    /** The memory model under which the run could go wrong: "TSO", "PSO" or (SC-serializability) "SC". */
    public String model() {
        return analysis.model();
    }

    /** How many times it was seen. */
    public long count() {
        return count;
    }

    /** The store, prev and access events, in that order (empty for a serializability violation). */
    public List<EventInfo> events() {
        return events;
    }

    /** The buffered store e. */
    public EventInfo store() {
        return events.get(0);
    }

    /** The other thread's event prev that e happens before. */
    public EventInfo prev() {
        return events.get(1);
    }

    /** The access e_i that would miss e. */
    public EventInfo access() {
        return events.get(2);
    }

    /** The happens-before path from the store to prev, or null (always for a serializability violation). */
    public List<EventInfo> path() {
        return path;
    }

    /**
     * A store-buffer violation's events in the run's order, as the HTML timeline and SARIF's code flow show them:
     * the happens-before path from the store to prev (or the store and prev when no path was kept), then the access.
     */
    public List<EventInfo> runOrder() {
        List<EventInfo> order = new java.util.ArrayList<>();
        if (path != null && !path.isEmpty()) {
            order.addAll(path);
        } else {
            order.add(store());
            order.add(prev());
        }
        order.add(access());
        return order;
    }

    /** Why {@link #path()} is null; empty otherwise. */
    public String pathNote() {
        return pathNote;
    }

    /** Which fence or volatile would remove the violation. */
    public String advice() {
        return advice;
    }

    /** Whether this is a serializability violation (a cycle of transactions) rather than a store-buffer one. */
    public boolean isCycle() {
        return !transactions.isEmpty();
    }

    /** The transactions of the cycle, in cycle order; empty for store-buffer violations. */
    public List<TxInfo> transactions() {
        return transactions;
    }

    /** The edges of the cycle; empty for store-buffer violations. */
    public List<CycleEdge> edges() {
        return edges;
    }

    /** The event number at which it was first seen. */
    public long firstSeq() {
        return firstSeq;
    }
}
