package dev.mmcheck.checker.serial;

import dev.mmcheck.checker.event.Codes;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.runtime.Kinds;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

/**
 * SC-serializability of the observed execution, on the fly (Enea-Farzan Sec. 3: Def. 1-2, Theorem 1
 * after Papadimitriou; the monitoring scheme of Velodrome): a conflict graph whose nodes are
 * transactions and whose edges are the SC conflict relation ⊙SC (two events of one thread, or two
 * accesses of one address at least one of which writes) in the order the execution ran them. The run is
 * conflict serializable iff the graph is acyclic, and a cycle is reported when the edge that closes it
 * arrives; that edge is then left out, so the graph stays acyclic and one cycle is reported once per
 * closing.
 *
 * <p>Every new edge ends in the transaction of the current event, so a finished transaction with no
 * incoming edge can never be on a cycle: it is collected, and its outgoing edges with it (which may
 * collect its successors in turn). An event outside atomic methods is a transaction of its own; when
 * its only incoming edge would be from its thread's previous transaction it is merged into that one
 * (exact: every cycle through it also runs through the previous transaction), and when it has no live
 * incoming edge at all it gets no node. So memory is bounded by the transactions still running and
 * those reachable from them. Checker thread only; thread and address ids are dense slots.
 */
public final class ScSerializability extends Analyzer {

    /** A transaction: an atomic method's invocation or a single event outside one. */
    private static final class Tx extends TxPool.Node {
        /** Its outgoing conflict and program-order edges. */
        final ArrayList<Edge> out = new ArrayList<>(2);
        /** The edge a search reached it by. */
        Edge via;

        Tx(int thread, int site, boolean atomic) {
            super(thread, site, atomic);
        }
    }

    private record Edge(Tx from, Tx to, String kind, FindingSink.Ev source, FindingSink.Ev target) {
    }

    /** An event and the transaction it was attributed to (null: none that can be on a cycle). */
    private record Ref(Tx tx, FindingSink.Ev ev) {
    }

    private static final class Addr {
        Ref write;
        final ArrayList<Ref> reads = new ArrayList<>(2);
    }

    private final FindingSink sink;
    private final SerialConfig config;
    private final TxPool<Tx> pool;

    private Tx[] current = new Tx[8];
    private int[] depth = new int[8];
    private Ref[] last = new Ref[8];      // the thread's last event and its transaction
    private Ref[] startedBy = new Ref[8]; // the start of a thread that has not run yet
    private Addr[] addresses = new Addr[64];

    private long transactions;
    private long cycles;
    private long searchesCut;
    private long resets;
    private int searchMark;
    private long seq;

    /** A check reporting its cycles to {@code sink}. */
    public ScSerializability(FindingSink sink, SerialConfig config) {
        this.sink = sink;
        this.config = config;
        this.pool = new TxPool<>(new TxPool.Graph<>() {
            @Override
            public boolean collectible(Tx x) {
                return x.alive && !x.active && x.in == 0;
            }

            @Override
            public void release(Tx x, ArrayDeque<Tx> work) {
                for (Edge e : x.out) {
                    if (e.to.alive) {
                        e.to.in--;
                        if (e.to.in == 0) {
                            work.push(e.to);
                        }
                    }
                }
                x.out.clear();
            }
        }, config.maxLiveTransactions());
    }

    /** Processes one event of the stream (a {@link Codes} kind; thread and address ids are slots). */
    public void event(int kind, int t, int operand, int site, long seq) {
        this.seq = seq;
        growThreads(Math.max(t, kind == Kinds.THREAD_START || kind == Kinds.THREAD_JOIN ? operand : 0) + 1);
        switch (kind) {
            case Kinds.TX_BEGIN -> {
                if (depth[t]++ == 0) {
                    Tx x = newTx(t, site, true);
                    x.active = true;
                    x.inFrom = new HashSet<>();
                    current[t] = x;
                    transactions++;
                    FindingSink.Ev ev = new FindingSink.Ev(t, kind, -1, site);
                    programOrder(t, x, ev);
                    last[t] = new Ref(x, ev);
                }
                return;
            }
            case Kinds.TX_END -> {
                if (depth[t] > 0 && --depth[t] == 0) {
                    finish(t);
                }
                return;
            }
            case Kinds.ADDRESS_DEAD -> {
                if (operand >= 0 && operand < addresses.length) {
                    addresses[operand] = null;
                }
                return;
            }
            default -> {
            }
        }
        FindingSink.Ev ev = new FindingSink.Ev(t, kind, operand, site);
        List<Ref> sources = new ArrayList<>(2);
        boolean access = Codes.isAccess(kind);
        Addr a = null;
        if (access) {
            a = address(operand);
            if (a.write != null && a.write.ev.thread() != t) {
                sources.add(a.write);
            }
            if (Codes.writes(kind)) {
                for (Ref r : a.reads) {
                    if (r.ev.thread() != t) {
                        sources.add(r);
                    }
                }
            }
        } else if (kind == Kinds.THREAD_JOIN && operand >= 0 && last[operand] != null) {
            sources.add(last[operand]);
        }
        if (startedBy[t] != null) {
            sources.add(startedBy[t]);
            startedBy[t] = null;
        }
        Tx target = current[t];
        if (target == null) {
            target = single(t, ev, sources);
        } else {
            for (Ref s : sources) {
                edge(s.tx, target, "conflict", s.ev, ev);
            }
        }
        Ref me = new Ref(target, ev);
        last[t] = me;
        if (access) {
            if (Codes.writes(kind)) {
                a.write = me;
                a.reads.clear();
            }
            if (kind == Kinds.LOAD) {
                // an earlier read of this thread reaches this one by program order: keep the last
                a.reads.removeIf(r -> r.ev.thread() == t);
                a.reads.add(me);
            }
        } else if (kind == Kinds.THREAD_START && operand >= 0) {
            startedBy[operand] = me;
        } else if (kind == Kinds.THREAD_END) {
            if (depth[t] > 0) {
                depth[t] = 0;
                finish(t);
            }
        }
        pool.sweep();
    }

    /** An event outside atomic methods: a transaction of its own, merged or left out when that is exact. */
    private Tx single(int t, FindingSink.Ev ev, List<Ref> sources) {
        Ref prev = last[t];
        Tx p = prev != null && prev.tx != null && prev.tx.alive ? prev.tx : null;
        boolean others = false;
        for (Ref s : sources) {
            if (s.tx != null && s.tx.alive && s.tx != p) {
                others = true;
                break;
            }
        }
        if (!others) {
            return p; // only its own thread's previous transaction leads here: part of it (or of nothing)
        }
        Tx x = newTx(t, ev.site(), false);
        x.inFrom = new HashSet<>();
        if (p != null) {
            edge(p, x, "program-order", prev.ev, ev);
        }
        for (Ref s : sources) {
            edge(s.tx, x, "conflict", s.ev, ev);
        }
        x.inFrom = null;
        pool.maybeCollectible(x);
        return x;
    }

    private Tx newTx(int t, int site, boolean atomic) {
        Tx x = new Tx(t, site, atomic);
        pool.add(x);
        return x;
    }

    private void programOrder(int t, Tx x, FindingSink.Ev ev) {
        Ref prev = last[t];
        if (prev != null && prev.tx != null) {
            edge(prev.tx, x, "program-order", prev.ev, ev);
        }
        if (startedBy[t] != null) {
            Ref s = startedBy[t];
            startedBy[t] = null;
            edge(s.tx, x, "conflict", s.ev, ev);
        }
    }

    private void finish(int t) {
        Tx x = current[t];
        current[t] = null;
        if (x != null) {
            x.active = false;
            x.inFrom = null;
            pool.maybeCollectible(x);
        }
    }

    /** Adds edge {@code from -> to} unless it closes a cycle, which is then reported instead. */
    private void edge(Tx from, Tx to, String kind, FindingSink.Ev source, FindingSink.Ev target) {
        if (from == null || to == null || from == to || !from.alive) {
            return;
        }
        if (to.lastFrom == from || (to.inFrom != null && !to.inFrom.add(from))) {
            return;
        }
        to.lastFrom = from;
        if (!to.out.isEmpty() && reaches(to, from)) {
            report(from, to, new Edge(from, to, kind, source, target));
            return;
        }
        from.out.add(new Edge(from, to, kind, source, target));
        to.in++;
    }

    /** Whether {@code from} reaches {@code goal} along live edges; leaves the path in the nodes' {@code via}. */
    private boolean reaches(Tx from, Tx goal) {
        int m = ++searchMark;
        ArrayDeque<Tx> stack = new ArrayDeque<>();
        from.mark = m;
        from.via = null;
        stack.push(from);
        long steps = 0;
        while (!stack.isEmpty()) {
            Tx x = stack.pop();
            for (Edge e : x.out) {
                if (++steps > config.searchSteps()) {
                    searchesCut++;
                    return false;
                }
                Tx y = e.to;
                if (!y.alive || y.mark == m) {
                    continue;
                }
                y.mark = m;
                y.via = e;
                if (y == goal) {
                    return true;
                }
                stack.push(y);
            }
        }
        return false;
    }

    private void report(Tx from, Tx to, Edge closing) {
        cycles++;
        List<Edge> path = new ArrayList<>();
        for (Tx x = from; x != to; x = x.via.from) {
            path.add(x.via);
        }
        java.util.Collections.reverse(path); // to -> ... -> from
        List<Tx> order = new ArrayList<>();
        order.add(to);
        for (Edge e : path) {
            order.add(e.to);
        }
        List<FindingSink.Tx> txs = new ArrayList<>();
        for (Tx x : order) {
            txs.add(new FindingSink.Tx(x.thread, x.site, x.atomic));
        }
        List<FindingSink.Edge> edges = new ArrayList<>();
        int n = order.size();
        for (int i = 0; i < path.size(); i++) {
            Edge e = path.get(i);
            edges.add(new FindingSink.Edge(i, i + 1, e.kind, e.source, e.target, ""));
        }
        edges.add(new FindingSink.Edge(n - 1, 0, closing.kind, closing.source, closing.target, ""));
        sink.cycle(Analysis.SCSER, txs, edges, "in the observed run these transactions interleave so that none can "
                + "go first: each conflicts with the next in the order shown, and the last with the first; no "
                + "serial run of them orders their conflicts the same way. Make them one atomic step (a common "
                + "lock, or one CAS over their shared state)", seq);
    }

    private Addr address(int a) {
        if (a >= addresses.length) {
            addresses = Arrays.copyOf(addresses, Math.max(a + 1, addresses.length * 2));
        }
        Addr x = addresses[a];
        if (x == null) {
            x = new Addr();
            addresses[a] = x;
        }
        return x;
    }

    private void growThreads(int n) {
        if (n > current.length) {
            int m = Math.max(n, current.length * 2);
            current = Arrays.copyOf(current, m);
            depth = Arrays.copyOf(depth, m);
            last = Arrays.copyOf(last, m);
            startedBy = Arrays.copyOf(startedBy, m);
        }
    }

    /**
     * Forgets every transaction (the checker renumbers its thread slots: {@code slotOf[old]} is the new
     * slot of old slot {@code old}, or -1 for an ended thread). A transaction running across the reset
     * continues as a new one, which can only hide cycles.
     */
    public void reset(int[] slotOf) {
        resets++;
        pool.clear();
        Arrays.fill(addresses, null);
        int[] d = depth;
        Tx[] open = current;
        current = new Tx[current.length];
        depth = new int[d.length];
        last = new Ref[last.length];
        startedBy = new Ref[startedBy.length];
        for (int old = 0; old < slotOf.length && old < d.length; old++) {
            int s = slotOf[old];
            if (s >= 0 && d[old] > 0) {
                growThreads(s + 1);
                depth[s] = d[old];
                Tx x = newTx(s, open[old] == null ? -1 : open[old].site, true);
                x.active = true;
                x.inFrom = new HashSet<>();
                current[s] = x;
            }
        }
    }

    /** Atomic-method transactions seen. */
    public long transactions() {
        return transactions;
    }

    /** Cycles found (before deduplication). */
    public long cycles() {
        return cycles;
    }

    /** Transactions in the graph now (for tests of bounded memory). */
    public long live() {
        return pool.live();
    }

    /** Things the user should know: bounds reached. */
    public List<Note> notes() {
        List<Note> notes = new ArrayList<>();
        if (searchesCut > 0) {
            notes.add(Note.degraded("search-cut", "scser", searchesCut, "scser: " + searchesCut
                    + " cycle searches stopped after " + config.searchSteps()
                    + " steps; cycles they would have closed are not reported"));
        }
        long dropped = pool.dropped();
        if (dropped > 0) {
            notes.add(Note.degraded("transactions-dropped", "scser", dropped, "scser: " + dropped
                    + " finished transactions dropped at the bound of " + config.maxLiveTransactions()
                    + " live ones; cycles through them are not reported"));
        }
        if (resets > 0) {
            notes.add(Note.degraded("clock-reset", "scser", resets, "scser: the conflict graph was forgotten at "
                    + resets + " clock resets"));
        }
        return notes;
    }

    /** The current event's number (for tests). */
    long seq() {
        return seq;
    }

    @Override
    public Analysis analysis() {
        return Analysis.SCSER;
    }
}
