package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.List;

/**
 * The polynomial criteria on the SC side (Sec. 3 of the gradual-consistency paper): CC, CCv, CM and
 * CCM, and the partial store order pww that every SC witness extends.
 *
 * <p>Definitions, with co = (po ∪ wr)+ and the initial writes before everything in po:
 * <ul>
 * <li>CC (the bad patterns of Bouajjani et al. [6], which Sec. 3.1 recalls): co is acyclic and no read
 *     has a write of its variable causally between the write it read and itself (a cycle of co with one
 *     rw[co] edge; this covers reading the initial value after a causally earlier write).</li>
 * <li>CCv: CC, and po ∪ wr ∪ cf is acyclic, cf = co_WR ∘ wr⁻¹ (two different writes).</li>
 * <li>CM: CC, and every hb_o is acyclic (hb_o: rules 1-2 of Sec. 3.1).</li>
 * <li>CCM: po ∪ wr ∪ pww ∪ rw[pww] is acyclic, pww = (hb_WW ∪ cf[hb])+, hb = (⋃ hb_o)+.</li>
 * </ul>
 * hb_o only grows along program order, so the hb_o of the last operation of each thread stand for all.
 * Each is a least fixpoint: rule 2 adds write-write edges until no new one follows. CCM implies CC, CCv
 * and CM (Lemma 1), so once one of those fails, its cycle also shows CCM and SC fail.
 */
final class Causality {

    private final History h;
    private final Structure st;
    private final int n;
    private final int threads;

    boolean cc;
    boolean ccv;
    boolean cm;
    boolean ccm;
    List<Edge> ccCycle;
    List<Edge> ccvCycle;
    List<Edge> cmCycle;
    List<Edge> ccmCycle;

    /** Clocks of co = (po ∪ wr)+ (valid when co is acyclic). */
    Clocks co;
    /** Clocks of pww over writes (positions among a thread's writes to one variable); valid when CCM holds. */
    Clocks pww;
    /** The graph po ∪ wr ∪ pww ∪ rw[pww] (pww by generating edges); valid when CCM holds. */
    Graph ccmGraph;
    /** Rounds of the hb_o fixpoints, summed over threads. */
    /** The generating edges of the partial store order, between writes only (program order included). */
    Graph pwwGraph;
    int rounds;
    long writePairs;
    long unordered;

    Causality(Structure st) {
        this.st = st;
        this.h = st.h;
        this.n = st.n;
        this.threads = st.threads;
        run();
    }

    private void run() {
        Graph.Builder b = new Graph.Builder(n, 2 * n);
        st.addPo(b);
        st.addWr(b, false);
        Graph gco = b.build();
        Graph.View view = new Graph.View(gco, null);
        int[] order = new int[n];
        if (view.kahn(null, n, order, null) < n) {
            List<Edge> c = view.cycleAfterKahn(null, n);
            failAll(c);
            return;
        }
        co = new Clocks(n, threads);
        co.sweep(h, view, order, n, st.pos, Clocks.PO);

        List<Edge> c = ccViolation(view);
        if (c != null) {
            failAll(c);
            return;
        }
        cc = true;

        c = ccvViolation(gco);
        ccv = c == null;
        ccvCycle = c;

        List<long[]> derived = new ArrayList<>();
        c = cmViolation(gco, derived);
        cm = c == null;
        cmCycle = c;
        if (!ccv || !cm) {
            ccm = false;
            ccmCycle = ccv ? cmCycle : ccvCycle;
            return;
        }
        ccmCycle = ccmViolation(gco, derived);
        ccm = ccmCycle == null;
    }

    private void failAll(List<Edge> cycle) {
        cc = false;
        ccv = false;
        cm = false;
        ccm = false;
        ccCycle = cycle;
        ccvCycle = cycle;
        cmCycle = cycle;
        ccmCycle = cycle;
    }

    /** A read with a write of its variable causally between its writer and itself: the shortest such cycle. */
    private List<Edge> ccViolation(Graph.View view) {
        List<Edge> best = null;
        int found = 0;
        for (int r = 0; r < n && found < 16; r++) {
            if (st.write[r]) {
                continue;
            }
            int x = st.var[r];
            int w = h.writer(r);
            for (int s = 0; s < threads; s++) {
                int w2 = st.latestWrite(x, s, co.writeReach(r, s));
                if (w2 < 0 || w2 == w) {
                    continue;
                }
                if (w == History.INIT || co.reaches(st.pos[w], h.op(w).thread(), true, w2)) {
                    final int target = r;
                    List<Edge> path = view.path(w2, r, v -> co.reaches(st.pos[v], h.op(v).thread(), st.write[v],
                            target));
                    path.add(new Edge(r, w2, EdgeKind.RW, w));
                    if (best == null || path.size() < best.size()) {
                        best = path;
                    }
                    found++;
                }
            }
        }
        return best;
    }

    /** A cycle of po ∪ wr ∪ cf, or null. */
    private List<Edge> ccvViolation(Graph gco) {
        Graph.Builder b = new Graph.Builder(n, gco.m + n);
        copy(gco, b);
        for (int r = 0; r < n; r++) {
            if (st.write[r] || h.writer(r) == History.INIT) {
                continue;
            }
            int w2 = h.writer(r);
            int x = st.var[r];
            for (int s = 0; s < threads; s++) {
                int w1 = st.latestWrite(x, s, co.writeReach(r, s));
                if (w1 >= 0 && w1 != w2) {
                    b.add(w1, w2, EdgeKind.WW_FORCED, r);
                }
            }
        }
        return acyclicOrCycle(b.build());
    }

    /**
     * Runs the hb_o fixpoint of the last operation of each thread; returns the first cycle found (or a
     * write forced before the initial write it would have to follow), else null, collecting the derived
     * write-write edges as {from, to, read} in {@code derived}.
     */
    private List<Edge> cmViolation(Graph gco, List<long[]> derived) {
        Graph.Extra d = new Graph.Extra(n);
        Graph.View view = new Graph.View(gco, d);
        Clocks clk = new Clocks(n, threads);
        int[] nodes = new int[n];
        int[] order = new int[n];
        for (int t = 0; t < threads; t++) {
            if (h.threadLength(t) == 0) {
                continue;
            }
            int last = h.threadStart(t + 1) - 1;
            int count = 0;
            for (int v = 0; v < n; v++) {
                if (co.reaches(st.pos[v], h.op(v).thread(), st.write[v], last)) {
                    nodes[count++] = v;
                }
            }
            d.clear();
            while (true) {
                rounds++;
                int sorted = view.kahn(nodes, count, order, null);
                if (sorted < count) {
                    return view.cycleAfterKahn(nodes, count);
                }
                clk.sweep(h, view, order, count, st.pos, Clocks.PO);
                int added = 0;
                for (int r = h.threadStart(t); r <= last; r++) {
                    if (st.write[r]) {
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
                            final Clocks c = clk;
                            final int target = r;
                            List<Edge> path = view.path(w1, r, v -> inSubset(c, v, target));
                            path.add(new Edge(r, w1, EdgeKind.RW, History.INIT));
                            return path;
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
        }
        return null;
    }

    private boolean inSubset(Clocks c, int v, int target) {
        return c.reaches(st.pos[v], h.op(v).thread(), st.write[v], target);
    }

    /** Computes hb, pww and the CCM graph; returns a cycle showing CCM fails, or null. */
    private List<Edge> ccmViolation(Graph gco, List<long[]> derived) {
        Graph.Builder hbB = new Graph.Builder(n, gco.m + derived.size());
        copy(gco, hbB);
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        for (long[] e : derived) {
            if (seen.add(e[0] * n + e[1])) {
                hbB.add((int) e[0], (int) e[1], EdgeKind.WW_FORCED, (int) e[2]);
            }
        }
        Graph hb = hbB.build();
        Graph.View hv = new Graph.View(hb, null);
        int[] order = new int[n];
        if (hv.kahn(null, n, order, null) < n) {
            return hv.cycleAfterKahn(null, n);
        }
        Clocks hbc = new Clocks(n, threads);
        hbc.sweep(h, hv, order, n, st.pos, Clocks.PO);

        // generating edges of pww: hb_WW (latest write of each other thread before each write) and cf[hb]
        Graph.Builder pw = new Graph.Builder(n, 2 * h.writeCount() + n);
        Graph.Builder gen = new Graph.Builder(n, 2 * n);
        st.addWriteChains(pw);
        for (int w2 = 0; w2 < n; w2++) {
            if (!st.write[w2]) {
                continue;
            }
            int x = st.var[w2];
            int own = h.op(w2).thread();
            for (int s = 0; s < threads; s++) {
                if (s == own) {
                    continue;
                }
                int w1 = st.latestWrite(x, s, hbc.writeReach(w2, s));
                if (w1 >= 0) {
                    pw.add(w1, w2, EdgeKind.WW_FORCED, -1);
                    gen.add(w1, w2, EdgeKind.WW_FORCED, -1);
                }
            }
        }
        for (int r = 0; r < n; r++) {
            if (st.write[r]) {
                continue;
            }
            int w2 = h.writer(r);
            if (w2 == History.INIT) {
                continue; // a write hb-before a read of the initial value: the rw edge below closes the cycle
            }
            int x = st.var[r];
            for (int s = 0; s < threads; s++) {
                int w1 = st.latestWrite(x, s, hbc.writeReach(r, s));
                if (w1 >= 0 && w1 != w2) {
                    pw.add(w1, w2, EdgeKind.WW_FORCED, r);
                    gen.add(w1, w2, EdgeKind.WW_FORCED, r);
                }
            }
        }
        Graph pg = pw.build();
        pwwGraph = pg;
        Graph.View pv = new Graph.View(pg, null);
        int[] writes = st.writes();
        if (pv.kahn(writes, writes.length, order, null) < writes.length) {
            return pv.cycleAfterKahn(writes, writes.length);
        }
        pww = new Clocks(n, threads);
        pww.sweep(h, pv, order, writes.length, st.chain, Clocks.PO);
        countUnordered(pww);

        Graph.Builder cg = new Graph.Builder(n, gco.m + gen.size() + threads * n);
        copy(gco, cg);
        Graph g = gen.build();
        copy(g, cg);
        addRw(cg, pww);
        ccmGraph = cg.build();
        return acyclicOrCycle(ccmGraph);
    }

    /** rw[R] for the write order R with clocks {@code c}: each read before the writes R puts after its writer. */
    void addRw(Graph.Builder b, Clocks c) {
        addRw(st, b, c);
    }

    static void addRw(Structure st, Graph.Builder b, Clocks c) {
        History h = st.h;
        for (int r = 0; r < st.n; r++) {
            if (st.write[r]) {
                continue;
            }
            int x = st.var[r];
            int w = h.writer(r);
            for (int s = 0; s < st.threads; s++) {
                int[] ws = h.writesOf(x, s);
                if (ws.length == 0) {
                    continue;
                }
                int w2 = w == History.INIT ? ws[0] : st.firstWriteAfter(c, x, s, w);
                if (w2 >= 0) {
                    b.add(r, w2, EdgeKind.RW, w);
                }
            }
        }
    }

    private void countUnordered(Clocks c) {
        long[] pu = WeakCausality.unordered(st, c);
        writePairs = pu[0];
        unordered = pu[1];
    }

    static void copy(Graph from, Graph.Builder to) {
        for (int e = 0; e < from.m; e++) {
            to.add(from.src[e], from.dst[e], Graph.kind(from.kind[e]), from.via[e]);
        }
    }

    static List<Edge> acyclicOrCycle(Graph g) {
        Graph.View v = new Graph.View(g, null);
        int[] order = new int[g.n];
        if (v.kahn(null, g.n, order, null) < g.n) {
            return v.cycleAfterKahn(null, g.n);
        }
        return null;
    }

    /** Whether pww orders write {@code w1} before write {@code w2} (both on one variable); needs CCM. */
    boolean pwwOrders(int w1, int w2) {
        return w1 != w2 && pww.reaches(st.chain[w1], h.op(w1).thread(), true, w2);
    }
}
