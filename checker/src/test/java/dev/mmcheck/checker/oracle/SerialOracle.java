package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.event.EventKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Brute-force serializability, straight from the definitions of Enea and Farzan (2016).
 *
 * <p>The trace's Java events are first spelled as the paper's events (docs/serializability.md): a
 * load is rd(x), a store or release store wr(x), a volatile store wr(x) fn, an interlocked operation
 * fn rmw(x) fn, a full fence fn; each inherits its Java event's transaction (an event outside atomic
 * blocks is a transaction of its own). The paper has no read-modify-write; rmw(x) is one event that
 * reads and writes x, so that no other write to x can fall between its read and its write (spelled
 * rd(x) wr(x), a write of another thread could commit in between, which a locked instruction forbids).
 *
 * <ul>
 *   <li>SC: the trace is SC-serializable iff some serial order of its transactions keeps every pair of
 *       ⊙SC-conflicting events in the order the trace ran them (Sec. 3: a ⊙SC-preserving serial
 *       permutation). Serial orders are enumerated by backtracking.</li>
 *   <li>TSO: the trace event graph EG_τ of Def. 4 (⊙→ directed, ⊙↔ undirected, buffered reads as the
 *       paper defines them); the trace is TSO-serializable iff every acyclic orientation of EG_τ
 *       induces an acyclic conflict graph (Theorem 5). Every orientation is enumerated.</li>
 *   <li>TSO with store buffers of capacity B (the check's bound, {@code SerialConfig.bufferBound}): the
 *       executions of the trace in which each thread's buffer holds at most B stores, so that issuing a
 *       store commits the thread's store B stores older (FIFO). In those, an event e of thread t is
 *       ordered before every conflicting event e' of another thread issued after t's B-th store
 *       following e (then every store of t up to e has committed): EG_τ with those undirected edges
 *       directed, buffered reads as in EG_τ. Its valid orientations are valid orientations of EG_τ, so a
 *       cycle found with the bound is one without it.</li>
 * </ul>
 */
public final class SerialOracle {

    private static final int RD = 0;
    private static final int WR = 1;
    private static final int FN = 2;
    private static final int RMW = 3;

    /** A paper event: thread, kind (rd, wr, fn), variable, transaction (dense over the whole trace). */
    record P(int thread, int kind, int var, int tx) {
    }

    private final List<P> ev = new ArrayList<>();
    private final int transactions;

    private SerialOracle(SerialTrace trace) {
        int next = trace.atomicBlocks();
        for (SerialTrace.Event e : trace.events()) {
            int tx = e.tx() >= 0 ? e.tx() : next++;
            int t = e.thread();
            int x = e.address();
            switch (e.kind()) {
                case LOAD -> ev.add(new P(t, RD, x, tx));
                case STORE, RELEASE_STORE -> ev.add(new P(t, WR, x, tx));
                case VOLATILE_STORE -> {
                    ev.add(new P(t, WR, x, tx));
                    ev.add(new P(t, FN, -1, tx));
                }
                case INTERLOCKED, MONITOR_ENTER, MONITOR_EXIT -> {
                    ev.add(new P(t, FN, -1, tx));
                    ev.add(new P(t, RMW, x, tx));
                    ev.add(new P(t, FN, -1, tx));
                }
                case FULL_FENCE, THREAD_END -> ev.add(new P(t, FN, -1, tx));
                case STORE_STORE_FENCE, LOAD_FENCE -> {
                }
                default -> throw new IllegalArgumentException("not in oracle traces: " + e.kind());
            }
        }
        transactions = next;
    }

    private static boolean conflictSc(P a, P b) {
        if (a.thread == b.thread) {
            return true;
        }
        return a.kind != FN && b.kind != FN && a.var == b.var && (writes(a) || writes(b));
    }

    private static boolean writes(P p) {
        return p.kind == WR || p.kind == RMW;
    }

    // ------------------------------------------------------------------------------------------ SC

    /** Whether the trace is SC-serializable: some serial order of its transactions preserves ⊙SC. */
    public static boolean scSerializable(SerialTrace trace) {
        SerialOracle o = new SerialOracle(trace);
        int n = o.transactions;
        boolean[][] before = new boolean[n][n]; // before[a][b]: some conflict needs a before b
        for (int i = 0; i < o.ev.size(); i++) {
            for (int j = i + 1; j < o.ev.size(); j++) {
                P a = o.ev.get(i);
                P b = o.ev.get(j);
                if (a.tx != b.tx && conflictSc(a, b)) {
                    before[a.tx][b.tx] = true;
                }
            }
        }
        return serialOrder(before, new boolean[n], 0);
    }

    /** Backtracking over serial orders: places a transaction whose required predecessors are all placed. */
    private static boolean serialOrder(boolean[][] before, boolean[] placed, int count) {
        int n = placed.length;
        if (count == n) {
            return true;
        }
        for (int x = 0; x < n; x++) {
            if (placed[x]) {
                continue;
            }
            boolean ready = true;
            for (int y = 0; y < n && ready; y++) {
                ready = placed[y] || !before[y][x];
            }
            if (ready) {
                placed[x] = true;
                if (serialOrder(before, placed, count + 1)) {
                    return true;
                }
                placed[x] = false;
            }
        }
        return false;
    }

    // ----------------------------------------------------------------------------------------- TSO

    /** The trace event graph: directed and undirected edges (i before j in the trace for both). */
    static final class Graph {
        final List<int[]> directed = new ArrayList<>();
        final List<int[]> undirected = new ArrayList<>();
    }

    private boolean buffered(int i) {
        P r = ev.get(i);
        for (int k = i - 1; k >= 0; k--) {
            P e = ev.get(k);
            if (e.thread != r.thread) {
                continue;
            }
            if (e.kind == FN) {
                return false;
            }
            if (writes(e) && e.var == r.var) {
                return true; // (an rmw is always followed by a fence, so never the one found)
            }
        }
        return false;
    }

    /**
     * Whether thread {@code ev(i).thread} issued at least {@code bound} stores between events i and j: in
     * a buffer of capacity {@code bound}, every store of its up to i has then committed before j.
     */
    private boolean committedBetween(int i, int j, int bound) {
        int t = ev.get(i).thread;
        int stores = 0;
        for (int k = i + 1; k < j; k++) {
            if (ev.get(k).thread == t && ev.get(k).kind == WR) {
                stores++;
            }
        }
        return stores >= bound;
    }

    private boolean fenceBetween(int i, int j) {
        int t = ev.get(i).thread;
        for (int k = i + 1; k < j; k++) {
            if (ev.get(k).thread == t && ev.get(k).kind == FN) {
                return true;
            }
        }
        return false;
    }

    Graph graph() {
        return graph(Integer.MAX_VALUE);
    }

    /** The trace event graph with store buffers of capacity {@code bound} (see the class comment). */
    Graph graph(int bound) {
        Graph g = new Graph();
        int n = ev.size();
        boolean[] buf = new boolean[n];
        for (int i = 0; i < n; i++) {
            buf[i] = ev.get(i).kind == RD && buffered(i);
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                P e = ev.get(i);
                P f = ev.get(j);
                if (e.thread == f.thread) {
                    boolean exempt = (e.kind == WR && f.kind == RD && e.var != f.var)
                            || (e.kind == RD && buf[i] && f.kind == RD && e.var != f.var);
                    if (!exempt) {
                        g.directed.add(new int[] {i, j});
                    }
                } else if (conflictSc(e, f)) {
                    if (fenceBetween(i, j) || (e.kind == RD && !buf[i] && writes(f))
                            || (bound < Integer.MAX_VALUE && committedBetween(i, j, bound))) {
                        g.directed.add(new int[] {i, j});
                    } else {
                        g.undirected.add(new int[] {i, j});
                    }
                }
            }
        }
        return g;
    }

    /** Undirected edges of the trace's event graph (to keep generated traces small enough to enumerate). */
    public static int undirectedEdges(SerialTrace trace) {
        return new SerialOracle(trace).graph().undirected.size();
    }

    /**
     * Whether the trace is TSO-serializable (Theorem 5): every acyclic orientation of EG_τ induces an
     * acyclic conflict graph. Null when it has more than {@code maxUndirected} undirected edges.
     */
    public static Boolean tsoSerializable(SerialTrace trace, int maxUndirected) {
        return tsoSerializable(trace, maxUndirected, Integer.MAX_VALUE);
    }

    /**
     * Whether every TSO execution of the trace whose store buffers hold at most {@code bound} stores
     * (FIFO: a store issued to a full buffer commits its oldest first) is serializable: as
     * {@link #tsoSerializable(SerialTrace, int)} on the event graph with that bound. Null when it has more
     * than {@code maxUndirected} undirected edges.
     */
    public static Boolean tsoSerializable(SerialTrace trace, int maxUndirected, int bound) {
        SerialOracle o = new SerialOracle(trace);
        Graph g = o.graph(bound);
        int u = g.undirected.size();
        if (u > maxUndirected) {
            return null;
        }
        int n = o.ev.size();
        for (long mask = 0; mask < (1L << u); mask++) {
            List<int[]> edges = new ArrayList<>(g.directed);
            for (int k = 0; k < u; k++) {
                int[] e = g.undirected.get(k);
                edges.add((mask >> k & 1) == 0 ? e : new int[] {e[1], e[0]});
            }
            if (cyclic(n, edges)) {
                continue; // not a valid orientation
            }
            List<int[]> txEdges = new ArrayList<>();
            for (int[] e : edges) {
                int a = o.ev.get(e[0]).tx;
                int b = o.ev.get(e[1]).tx;
                if (a != b) {
                    txEdges.add(new int[] {a, b});
                }
            }
            if (cyclic(o.transactions, txEdges)) {
                return false;
            }
        }
        return true;
    }

    /** For messages: a valid orientation inducing a conflict-graph cycle (its backward edges), or "". */
    static String witness(SerialTrace trace) {
        SerialOracle o = new SerialOracle(trace);
        Graph g = o.graph();
        int u = g.undirected.size();
        int n = o.ev.size();
        for (long mask = 0; mask < (1L << u); mask++) {
            List<int[]> edges = new ArrayList<>(g.directed);
            StringBuilder back = new StringBuilder();
            for (int k = 0; k < u; k++) {
                int[] e = g.undirected.get(k);
                if ((mask >> k & 1) != 0) {
                    back.append(" ").append(e[1]).append("->").append(e[0]);
                }
                edges.add((mask >> k & 1) == 0 ? e : new int[] {e[1], e[0]});
            }
            if (cyclic(n, edges)) {
                continue;
            }
            List<int[]> txEdges = new ArrayList<>();
            StringBuilder all = new StringBuilder();
            for (int[] e : edges) {
                int a = o.ev.get(e[0]).tx;
                int b = o.ev.get(e[1]).tx;
                if (a != b) {
                    txEdges.add(new int[] {a, b});
                    all.append(" ").append(a).append(">").append(b).append("(").append(e[0]).append("->")
                            .append(e[1]).append(")");
                }
            }
            if (cyclic(o.transactions, txEdges)) {
                return "backward:" + back + " | tx edges:" + all + " | directed:"
                        + g.directed.stream().map(d -> d[0] + "->" + d[1]).toList() + " undirected:"
                        + g.undirected.stream().map(d -> d[0] + "-" + d[1]).toList();
            }
        }
        return "";
    }

    private static boolean cyclic(int n, List<int[]> edges) {
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>());
        }
        int[] in = new int[n];
        for (int[] e : edges) {
            out.get(e[0]).add(e[1]);
            in[e[1]]++;
        }
        int[] stack = new int[n];
        int sp = 0;
        for (int i = 0; i < n; i++) {
            if (in[i] == 0) {
                stack[sp++] = i;
            }
        }
        int seen = 0;
        while (sp > 0) {
            int x = stack[--sp];
            seen++;
            for (int y : out.get(x)) {
                if (--in[y] == 0) {
                    stack[sp++] = y;
                }
            }
        }
        return seen < n;
    }

    /** For messages: the paper events of a trace. */
    static String spell(SerialTrace trace) {
        SerialOracle o = new SerialOracle(trace);
        StringBuilder b = new StringBuilder();
        String[] names = {"rd", "wr", "fn", "rmw"};
        for (P p : o.ev) {
            b.append(b.length() == 0 ? "" : " ").append(names[p.kind]).append(p.thread)
                    .append(p.var >= 0 ? "(a" + p.var + ")" : "").append("@").append(p.tx);
        }
        return b.toString() + " " + Arrays.toString(new int[] {o.transactions});
    }

    /** The kinds a trace may use in this oracle. */
    static boolean supports(EventKind k) {
        return switch (k) {
            case LOAD, STORE, RELEASE_STORE, VOLATILE_STORE, INTERLOCKED, FULL_FENCE, STORE_STORE_FENCE, LOAD_FENCE -> true;
            default -> false;
        };
    }
}
