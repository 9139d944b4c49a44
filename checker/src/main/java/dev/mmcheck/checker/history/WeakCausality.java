package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The polynomial criterion on the TSO side (Sec. 4.1 of the gradual-consistency paper): weak convergent
 * causal memory, wCCM, and the weak partial store order wpww that every TSO witness extends.
 *
 * <p>For π ∈ {ppo, po-loc}: co^π = (π ∪ wre)+, hb^π_o by rules 1-2 of Sec. 4.1 (rule 2 with the full wr
 * and reads π*-before o), hb^π = (⋃ hb^π_o)+, whb = (hb^ppo ∪ hb^po-loc)+, and
 * wpww = (whb_WW ∪ cfe[hb^po-loc] ∪ cfe[hb^ppo])+ with cfe[R] = R_WR ∘ wre⁻¹. wCCM holds when
 * ppo ∪ wre ∪ wpww ∪ rw[wpww] and po-loc ∪ wr ∪ wpww ∪ rw[wpww] are acyclic. (The paper writes wre in the
 * second; with wr the two differ only for a read that returns a value its own thread writes later in
 * program order, which the paper's operational TSO forbids and its axioms would allow: see
 * docs/history.md.)
 *
 * <p>hb^π_o grows along π, so only π-maximal operations matter: the last operation and the last write of
 * each thread for ppo, the last operation on each variable of each thread for po-loc. All edges of co^po-loc
 * stay on one variable, so those fixpoints run variable by variable.
 */
final class WeakCausality {

    private final History h;
    private final Structure st;
    private final int n;
    private final int threads;

    boolean wccm;
    List<Edge> cycle;
    /** Which graph the cycle is in: "ppo" (ppo ∪ wre ∪ ...) or "po-loc" (po-loc ∪ wr ∪ ...). */
    String cycleGraph;
    /** Clocks of wpww over writes; valid when wCCM holds. */
    Clocks wpww;
    /** ppo ∪ wre ∪ wpww ∪ rw[wpww], valid when wCCM holds. */
    Graph ppoGraph;
    /** po-loc ∪ wr ∪ wpww ∪ rw[wpww], valid when wCCM holds. */
    Graph locGraph;
    /** The generating edges of the partial store order, between writes only (program order included). */
    Graph wpwwGraph;
    int rounds;
    long writePairs;
    long unordered;

    WeakCausality(Structure st) {
        this.st = st;
        this.h = st.h;
        this.n = st.n;
        this.threads = st.threads;
        List<Edge> c = run();
        wccm = c == null;
        cycle = c;
    }

    private List<Edge> fail(List<Edge> c, String graph) {
        cycleGraph = graph;
        return c;
    }

    private List<Edge> run() {
        Graph.Builder b = new Graph.Builder(n, 3 * n);
        st.addPpo(b);
        st.addWr(b, true);
        Graph gppo = b.build();
        b = new Graph.Builder(n, 2 * n);
        st.addPoLoc(b);
        st.addWr(b, true);
        Graph gloc = b.build();

        int[] order = new int[n];
        Graph.View v = new Graph.View(gppo, null);
        if (v.kahn(null, n, order, null) < n) {
            return fail(v.cycleAfterKahn(null, n), "ppo");
        }
        Clocks coppo = new Clocks(n, threads);
        coppo.sweep(h, v, order, n, st.pos, Clocks.PPO);
        v = new Graph.View(gloc, null);
        if (v.kahn(null, n, order, null) < n) {
            return fail(v.cycleAfterKahn(null, n), "po-loc");
        }
        Clocks coloc = new Clocks(n, threads);
        coloc.sweep(h, v, order, n, st.pos, Clocks.PO);

        List<long[]> dppo = new ArrayList<>();
        List<long[]> dloc = new ArrayList<>();
        Graph.Extra d = new Graph.Extra(n);
        Clocks clk = new Clocks(n, threads);
        int[] nodes = new int[n];
        Graph.View pv = new Graph.View(gppo, d);
        for (int t = 0; t < threads; t++) {
            if (h.threadLength(t) == 0) {
                continue;
            }
            int last = h.threadStart(t + 1) - 1;
            int lastWrite = st.write[last] ? last : st.prevWrite[last];
            for (int o : lastWrite >= 0 && lastWrite != last ? new int[] {last, lastWrite} : new int[] {last}) {
                int count = 0;
                for (int u = 0; u < n; u++) {
                    if (coppo.reaches(st.pos[u], h.op(u).thread(), st.write[u], o)) {
                        nodes[count++] = u;
                    }
                }
                List<Edge> c = fixpoint(pv, d, clk, nodes, count, order, h.threadStart(t), o, -1, Clocks.PPO, dppo);
                if (c != null) {
                    return fail(c, "ppo");
                }
            }
        }
        Graph.View lv = new Graph.View(gloc, d);
        for (int x = 0; x < h.vars(); x++) {
            int[] ops = h.varOps(x);
            for (int t = 0; t < threads; t++) {
                int o = -1;
                for (int u : ops) {
                    if (h.op(u).thread() == t) {
                        o = u;
                    }
                }
                if (o < 0) {
                    continue;
                }
                int count = 0;
                for (int u : ops) {
                    if (coloc.reaches(st.pos[u], h.op(u).thread(), st.write[u], o)) {
                        nodes[count++] = u;
                    }
                }
                List<Edge> c = fixpoint(lv, d, clk, nodes, count, order, h.threadStart(t), o, x, Clocks.PO, dloc);
                if (c != null) {
                    return fail(c, "po-loc");
                }
            }
        }

        Clocks hbppo = union(gppo, null, dppo, Clocks.PPO, "ppo");
        if (hbppo == null) {
            return failed;
        }
        Clocks hbloc = union(gloc, null, dloc, Clocks.PO, "po-loc");
        if (hbloc == null) {
            return failed;
        }
        Clocks whb = union(gppo, gloc, concat(dppo, dloc), Clocks.PPO, "ppo");
        if (whb == null) {
            return failed;
        }

        Graph.Builder pw = new Graph.Builder(n, 3 * h.writeCount() + n);
        Graph.Builder gen = new Graph.Builder(n, 3 * n);
        st.addWriteChains(pw);
        for (int w2 = 0; w2 < n; w2++) {
            if (!st.write[w2]) {
                continue;
            }
            int own = h.op(w2).thread();
            for (int s = 0; s < threads; s++) {
                int w1 = s == own ? -1 : st.latestWrite(st.var[w2], s, whb.writeReach(w2, s));
                if (w1 >= 0) {
                    pw.add(w1, w2, EdgeKind.WW_FORCED, -1);
                    gen.add(w1, w2, EdgeKind.WW_FORCED, -1);
                }
            }
        }
        for (int r = 0; r < n; r++) {
            if (st.write[r] || !st.external(r)) {
                continue;
            }
            int w2 = h.writer(r);
            for (Clocks c : new Clocks[] {hbloc, hbppo}) {
                for (int s = 0; s < threads; s++) {
                    int w1 = st.latestWrite(st.var[r], s, c.writeReach(r, s));
                    if (w1 >= 0 && w1 != w2) {
                        pw.add(w1, w2, EdgeKind.WW_FORCED, r);
                        gen.add(w1, w2, EdgeKind.WW_FORCED, r);
                    }
                }
            }
        }
        Graph pg = pw.build();
        wpwwGraph = pg;
        Graph.View wv = new Graph.View(pg, null);
        int[] writes = st.writes();
        if (wv.kahn(writes, writes.length, order, null) < writes.length) {
            return fail(wv.cycleAfterKahn(writes, writes.length), "ppo");
        }
        wpww = new Clocks(n, threads);
        wpww.sweep(h, wv, order, writes.length, st.chain, Clocks.PO);
        long[] pu = unordered(st, wpww);
        writePairs = pu[0];
        unordered = pu[1];

        Graph g = gen.build();
        Graph.Builder g1 = new Graph.Builder(n, gppo.m + g.m + threads * n);
        Causality.copy(gppo, g1);
        Causality.copy(g, g1);
        Causality.addRw(st, g1, wpww);
        ppoGraph = g1.build();
        List<Edge> c = Causality.acyclicOrCycle(ppoGraph);
        if (c != null) {
            return fail(c, "ppo");
        }
        Graph.Builder g2 = new Graph.Builder(n, 2 * n + g.m + threads * n);
        st.addPoLoc(g2);
        st.addWr(g2, false);
        Causality.copy(g, g2);
        Causality.addRw(st, g2, wpww);
        locGraph = g2.build();
        c = Causality.acyclicOrCycle(locGraph);
        if (c != null) {
            return fail(c, "po-loc");
        }
        return null;
    }

    private List<Edge> failed;

    /**
     * The least fixpoint of hb_o over {@code nodes[0..count)} (the co^π-past of {@code o}): adds, for
     * each read of {@code o}'s thread π*-before {@code o} (on variable {@code onlyVar} when >= 0), an edge
     * to its writer from the last write of each thread that reaches the read, until nothing changes.
     * Returns a cycle if hb_o has one, else null; the derived edges go to {@code derived}.
     */
    private List<Edge> fixpoint(Graph.View view, Graph.Extra d, Clocks clk, int[] nodes, int count, int[] order,
            int threadStart, int o, int onlyVar, boolean mode, List<long[]> derived) {
        d.clear();
        Set<Long> outside = new HashSet<>();
        java.util.BitSet in = new java.util.BitSet(n);
        for (int i = 0; i < count; i++) {
            in.set(nodes[i]);
        }
        while (true) {
            rounds++;
            int sorted = view.kahn(nodes, count, order, null);
            if (sorted < count) {
                return view.cycleAfterKahn(nodes, count);
            }
            clk.sweep(h, view, order, count, st.pos, mode);
            int added = 0;
            for (int r = threadStart; r <= o; r++) {
                if (st.write[r] || (onlyVar >= 0 && st.var[r] != onlyVar)) {
                    continue;
                }
                int x = st.var[r];
                int w2 = h.writer(r);
                for (int s = 0; s < threads; s++) {
                    int w1 = st.latestWrite(x, s, clk.writeReach(r, s));
                    if (w1 < 0 || w1 == w2) {
                        continue;
                    }
                    if (w2 == History.INIT) {
                        final int target = r;
                        List<Edge> path = view.path(w1, r, u -> in.get(u)
                                && clk.reaches(st.pos[u], h.op(u).thread(), st.write[u], target));
                        path.add(new Edge(r, w1, EdgeKind.RW, History.INIT));
                        return path;
                    }
                    if (!in.get(w2)) {
                        if (outside.add((long) w1 * n + w2)) {
                            derived.add(new long[] {w1, w2, r});
                        }
                        continue;
                    }
                    if (clk.reaches(st.pos[w1], s, true, w2)) {
                        continue;
                    }
                    d.add(w1, w2, EdgeKind.WW_FORCED, r);
                    added++;
                }
            }
            if (added == 0) {
                break;
            }
        }
        for (int e = 0; e < d.size; e++) {
            derived.add(new long[] {d.src[e], d.dst[e], d.via[e]});
        }
        return null;
    }

    /** Clocks of (base ∪ base2 ∪ derived)+, or null (with {@link #failed} set) when it is cyclic. */
    private Clocks union(Graph base, Graph base2, List<long[]> derived, boolean mode, String graph) {
        Graph.Builder b = new Graph.Builder(n, base.m + (base2 == null ? 0 : base2.m) + derived.size());
        Causality.copy(base, b);
        if (base2 != null) {
            Causality.copy(base2, b);
        }
        Set<Long> seen = new HashSet<>();
        for (long[] e : derived) {
            if (seen.add(e[0] * n + e[1])) {
                b.add((int) e[0], (int) e[1], EdgeKind.WW_FORCED, (int) e[2]);
            }
        }
        Graph g = b.build();
        Graph.View v = new Graph.View(g, null);
        int[] order = new int[n];
        if (v.kahn(null, n, order, null) < n) {
            failed = fail(v.cycleAfterKahn(null, n), graph);
            return null;
        }
        Clocks c = new Clocks(n, threads);
        c.sweep(h, v, order, n, st.pos, mode);
        return c;
    }

    private static List<long[]> concat(List<long[]> a, List<long[]> b) {
        List<long[]> c = new ArrayList<>(a);
        c.addAll(b);
        return c;
    }

    /** {pairs, unordered}: same-variable write pairs, and those the write order with clocks {@code c} leaves open. */
    static long[] unordered(Structure st, Clocks c) {
        History h = st.h;
        long pairs = 0;
        long ordered = 0;
        for (int x = 0; x < h.vars(); x++) {
            long nx = 0;
            for (int s = 0; s < st.threads; s++) {
                int[] ws = h.writesOf(x, s);
                nx += ws.length;
                for (int w : ws) {
                    for (int s2 = 0; s2 < st.threads; s2++) {
                        ordered += c.writeReach(w, s2) + 1;
                    }
                    ordered--;
                }
            }
            pairs += nx * (nx - 1) / 2;
        }
        return new long[] {pairs, pairs - ordered};
    }

    /** Whether wpww orders write {@code w1} before write {@code w2} (both on one variable); needs wCCM. */
    boolean wpwwOrders(int w1, int w2) {
        return w1 != w2 && wpww.reaches(st.chain[w1], h.op(w1).thread(), true, w2);
    }
}
