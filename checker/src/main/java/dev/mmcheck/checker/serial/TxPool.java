package dev.mmcheck.checker.serial;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;

/**
 * The live transactions of a conflict graph and their collection, shared by {@link ScSerializability}
 * and {@link TsoSerializability}: both keep a transaction only while a cycle can still run through it.
 * A finished transaction that no edge can enter any more is collected, and its outgoing edges with it,
 * which may make its successors collectible in turn (Velodrome's scheme). At a bound of live
 * transactions the oldest finished ones are dropped, which can only hide cycles (counted, and said in
 * a note by the check). What "no edge can enter" means, and what a transaction's outgoing edges are,
 * differs between the two graphs and is the {@link Graph} strategy's. Checker thread only.
 */
final class TxPool<T extends TxPool.Node> {

    /** The fields of a transaction node the pool and both checks' edge bookkeeping rely on. */
    abstract static class Node {
        /** Thread slot that ran it. */
        final int thread;
        /** Site of the atomic method's entry (or of its single event outside one). */
        final int site;
        /** Whether it is an atomic method's invocation (not a single event outside one). */
        final boolean atomic;
        /** Whether its thread is still inside it: it can still get edges out and in. */
        boolean active;
        /** Whether it is still in the graph. */
        boolean alive = true;
        /** Live incoming directed edges. */
        int in;
        /** Transactions with an edge into this one, while it is being built (dedups edges); null after. */
        HashSet<Node> inFrom;
        /** Source of the last edge added into this one (a one-entry dedup before {@link #inFrom}). */
        Node lastFrom;
        /** Visit mark of the check's last graph search. */
        int mark;

        Node(int thread, int site, boolean atomic) {
            this.thread = thread;
            this.site = site;
            this.atomic = atomic;
        }
    }

    /** What the pool needs to know of a check's graph. */
    interface Graph<T extends Node> {

        /** Whether {@code x} can never be on a cycle again (it is alive, finished, and nothing can enter it). */
        boolean collectible(T x);

        /** Removes {@code x}'s outgoing edges, pushing onto {@code work} each successor that may now be collectible. */
        void release(T x, ArrayDeque<T> work);
    }

    private final Graph<T> graph;
    private final int bound;
    private final ArrayDeque<T> created = new ArrayDeque<>();
    private final ArrayList<T> pending = new ArrayList<>();
    private final ArrayDeque<T> work = new ArrayDeque<>();
    private long live;
    private long dropped;

    /** A pool over {@code graph} that keeps at most {@code bound} live transactions. */
    TxPool(Graph<T> graph, int bound) {
        this.graph = graph;
        this.bound = bound;
    }

    /** Adds a new transaction; drops the oldest finished ones when that passes the bound. */
    void add(T x) {
        live++;
        created.add(x);
        if (live > bound) {
            dropOldest();
        }
    }

    /** Notes that {@code x} may have become collectible; the next {@link #sweep} looks at it. */
    void maybeCollectible(T x) {
        pending.add(x);
    }

    /** Collects the transactions noted since the last sweep that are collectible, and their successors in turn. */
    void sweep() {
        if (pending.isEmpty()) {
            return;
        }
        for (int i = 0; i < pending.size(); i++) {
            work.addLast(pending.get(i));
        }
        pending.clear();
        drain();
    }

    private void drain() {
        while (!work.isEmpty()) {
            T x = work.pop();
            if (graph.collectible(x)) {
                collect(x);
            }
        }
    }

    private void collect(T x) {
        x.alive = false;
        live--;
        graph.release(x, work);
        if (created.size() > 4 * Math.max(16, live)) {
            created.removeIf(y -> !y.alive);
        }
    }

    /** At the bound: drops the oldest finished transactions until half the bound is live (cycles through them are missed). */
    private void dropOldest() {
        int skipped = 0;
        while (live > bound / 2 && !created.isEmpty() && skipped < created.size()) {
            T x = created.poll();
            if (!x.alive) {
                continue;
            }
            if (x.active) {
                created.add(x);
                skipped++;
                continue;
            }
            dropped++;
            collect(x);
            drain();
        }
    }

    /** Forgets every transaction (a clock reset). */
    void clear() {
        for (T x : created) {
            x.alive = false;
        }
        created.clear();
        pending.clear();
        work.clear();
        live = 0;
    }

    /** Transactions in the graph now. */
    long live() {
        return live;
    }

    /** Finished transactions dropped at the bound so far. */
    long dropped() {
        return dropped;
    }
}
