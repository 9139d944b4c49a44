package dev.mmcheck.checker.serial;

import dev.mmcheck.checker.finding.FindingSink;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;

/**
 * The data of {@link TsoSerializability}'s trace event graph (Enea-Farzan Def. 4): its events, directed
 * and undirected edges, transactions, the chains its vector clocks run over, and the per-thread and
 * per-address state the check keeps. Plain records and holders; the algorithms are in the check.
 */
final class TsoGraph {

    private TsoGraph() {
    }

    static final byte R = 0;
    static final byte W = 1;
    static final byte F = 2;
    static final byte X = 3; // a fenced access: interlocked (fence, read, write, fence) or volatile store (write, fence)

    static final byte NO_LANE = 0;
    static final byte W_LANE = 1;
    static final byte R_LANE = 2;

    /** An event of the trace event graph. */
    static final class Ev {
        final long seq;
        final int thread;
        final byte kind;
        final boolean writes;
        final int addr;
        final int code;
        final int site;
        final Tx tx;
        final int epoch; // fences of its thread before it (an X counts its own fence after it)
        final int po;    // its position in its thread's program order
        boolean buffered;
        int[] vc;
        byte lane;
        int pos;
        int nextWF;      // buffered read: the position of its thread's next write or fence
        Ev nextSame;     // buffered read: its thread's next read of the same address
        ArrayList<Ev> succ; // buffered read: writes of other threads it is fence-separated from
        boolean saturated; // forgotten by its address: taken to reach every later event

        Ev(long seq, int thread, byte kind, boolean writes, int addr, int code, int site, Tx tx, int epoch, int po) {
            this.seq = seq;
            this.thread = thread;
            this.kind = kind;
            this.writes = writes;
            this.addr = addr;
            this.code = code;
            this.site = site;
            this.tx = tx;
            this.epoch = epoch;
            this.po = po;
        }

        FindingSink.Ev info() {
            return new FindingSink.Ev(thread, code, addr, site);
        }
    }

    /** A directed edge of the conflict graph and the event edge it comes from. */
    record DEdge(Tx to, Ev from, Ev toEv) {
    }

    /** An undirected event edge between two transactions; {@code a} ran before {@code b}. */
    record UEdge(Ev a, Ev b) {
        Ev at(Tx x) {
            return a.tx == x ? a : b;
        }

        Ev other(Tx x) {
            return a.tx == x ? b : a;
        }
    }

    /** A transaction: an atomic method's invocation or a single event outside one. */
    static final class Tx extends TxPool.Node {
        /** Outgoing directed edges. */
        final ArrayList<DEdge> out = new ArrayList<>(2);
        /** Undirected edges (store-order pairs not yet oriented), null when none. */
        ArrayList<UEdge> und;
        /** Undirected conflicts counted per other transaction while it is built (bounded), null after. */
        HashMap<Tx, Integer> pairs;
        /** The chain of the directed graph it is on. */
        Chain chain;
        /** Its absolute position on {@link #chain}. */
        int chainPos;
        /** The directed edge from the previous transaction of its chain. */
        DEdge chainEdge;
        /** Whether it joined an existing chain (not the head of one it started). */
        boolean adopted;
        /** Its thread's previous transaction. */
        Tx prevInThread;
        /** Its last event so far. */
        Ev lastEv;
        /** The directed edge a search reached it by. */
        DEdge via;
        /** The transaction a search reached it from. */
        Tx viaFrom;

        Tx(int thread, int site, boolean atomic) {
            super(thread, site, atomic);
        }

        boolean sealedBy(Th th) {
            return lastEv == null || th.settled(lastEv);
        }
    }

    /**
     * A chain of the directed conflict graph: transactions of one thread, each with a directed edge
     * from the one before, so each is ordered before the later ones in every execution (<τ). Positions
     * are absolute; the dead prefix (collected from the front) is dropped now and then.
     */
    static final class Chain {
        final ArrayList<Tx> txs = new ArrayList<>(4);
        int base;
        int mark;

        Tx at(int pos) {
            return txs.get(pos - base);
        }

        int end() {
            return base + txs.size();
        }

        void add(Tx x) {
            x.chain = this;
            x.chainPos = end();
            txs.add(x);
            if (txs.size() >= 64 && !txs.get(0).alive && !txs.get(31).alive) {
                int k = 0;
                while (k < txs.size() - 1 && !txs.get(k).alive) {
                    k++;
                }
                txs.subList(0, k).clear();
                base += k;
            }
        }
    }

    /** Per thread. */
    static final class Th {
        /** Its fences so far: what decides whether a read is buffered (Enea-Farzan's definition). */
        int epoch;
        /** The program-order position its next event gets. */
        int po;
        /**
         * Its events before this position are settled: every store among them has committed (a fence, or
         * the bounded buffer committing its oldest stores), so each is ordered before every later
         * conflicting event of another thread, in every execution the check considers.
         */
        int settledPo;
        /** The program-order positions of its stores since its last fence still in its buffer, oldest first. */
        final IntRing pending = new IntRing();
        int wPos;
        int rPos;
        int[] all = new int[0];
        int[] fxVc = new int[0];
        int[] unbufVc = new int[0];
        Ev lastFX;
        Ev lastUnbufR;
        final ArrayList<Ev> frontier = new ArrayList<>(4);
        Tx cur;
        int depth;
        Tx newest;
        /** Its finished transactions not yet settled, in program order. */
        final ArrayDeque<Tx> unsealed = new ArrayDeque<>();
        int done;
        int pruneMark;
        int pruneBits;

        /** Whether its event {@code e} is settled (fence-separated from every event still to come). */
        boolean settled(Ev e) {
            return e.po < settledPo;
        }
    }

    /** A growable ring of ints: a thread's buffered stores, bounded by the check. */
    static final class IntRing {
        private int[] items = new int[8];
        private int head;
        private int size;

        int size() {
            return size;
        }

        void add(int x) {
            if (size == items.length) {
                int[] bigger = new int[2 * items.length];
                for (int i = 0; i < size; i++) {
                    bigger[i] = items[(head + i) & (items.length - 1)];
                }
                items = bigger;
                head = 0;
            }
            items[(head + size++) & (items.length - 1)] = x;
        }

        int first() {
            return items[head];
        }

        void removeFirst() {
            head = (head + 1) & (items.length - 1);
            size--;
        }

        void clear() {
            head = 0;
            size = 0;
        }
    }

    /** Per address: its recent accesses, oldest first, and what forgotten ones contributed. */
    static final class Addr {
        final ArrayList<Ev> entries = new ArrayList<>(4);
        int[] summary;
        long prunedAt = -1; // fences when prune last decided what to keep
        int writers; // entries that write
    }
}
