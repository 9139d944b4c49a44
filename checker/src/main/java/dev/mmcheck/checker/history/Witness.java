package dev.mmcheck.checker.history;

import java.util.List;

/**
 * Independent checks of a witness, straight from the definitions: given a store order per variable,
 * builds po ∪ wr ∪ ww ∪ rw (SC) or ppo ∪ wre ∪ ww ∪ rw and po-loc ∪ wr ∪ ww ∪ rw (TSO), with ww as a chain
 * and each read before the write following the one it read, and tests acyclicity and, with times, the
 * relaxed time order. The checker runs it on every witness it reports; a failure is a bug.
 */
final class Witness {

    private Witness() {
    }

    /** Null when {@code order} is a witness, else what is wrong with it. */
    static String problem(Structure st, int[][] order, boolean tso, long[] rc) {
        History h = st.h;
        int[] at = new int[st.n];
        java.util.Arrays.fill(at, -1);
        for (int x = 0; x < h.vars(); x++) {
            int expected = 0;
            for (int s = 0; s < st.threads; s++) {
                expected += h.writeCount(x, s);
            }
            if (order[x].length != expected) {
                return "store order of " + h.varName(x) + " has " + order[x].length + " writes, not " + expected;
            }
            for (int i = 0; i < order[x].length; i++) {
                int w = order[x][i];
                if (w < 0 || w >= st.n || !st.write[w] || st.var[w] != x || at[w] >= 0) {
                    return "store order of " + h.varName(x) + " is not a permutation of its writes";
                }
                at[w] = i;
            }
        }
        Graph.Builder g1 = new Graph.Builder(st.n, 4 * st.n);
        Graph.Builder g2 = tso ? new Graph.Builder(st.n, 4 * st.n) : null;
        if (tso) {
            st.addPpo(g1);
            st.addWr(g1, true);
            st.addPoLoc(g2);
            st.addWr(g2, false);
        } else {
            st.addPo(g1);
            st.addWr(g1, false);
        }
        for (Graph.Builder g : tso ? List.of(g1, g2) : List.of(g1)) {
            addStoreOrder(st, order, at, g);
        }
        Graph main = g1.build();
        Graph.View v = new Graph.View(main, null);
        int[] topo = new int[st.n];
        if (v.kahn(null, st.n, topo, null) < st.n) {
            return "cycle " + v.cycleAfterKahn(null, st.n);
        }
        if (tso) {
            Graph loc = g2.build();
            Graph.View lv = new Graph.View(loc, null);
            if (lv.kahn(null, st.n, new int[st.n], null) < st.n) {
                return "coherence cycle " + lv.cycleAfterKahn(null, st.n);
            }
        }
        if (rc != null && TimeOrder.check(v, topo, st.n, TimeOrder.issue(h), rc, null, null) != null) {
            return "time order violated";
        }
        return null;
    }

    private static void addStoreOrder(Structure st, int[][] order, int[] at, Graph.Builder g) {
        History h = st.h;
        for (int[] seq : order) {
            for (int i = 1; i < seq.length; i++) {
                g.add(seq[i - 1], seq[i], EdgeKind.WW, -1);
            }
        }
        for (int r = 0; r < st.n; r++) {
            if (st.write[r]) {
                continue;
            }
            int w = h.writer(r);
            int[] seq = order[st.var[r]];
            int next = w == History.INIT ? 0 : at[w] + 1;
            if (next < seq.length) {
                g.add(r, seq[next], EdgeKind.RW, w);
            }
        }
    }

    /**
     * A total order of all operations that is an SC execution with store order {@code order}: a
     * topological order of po ∪ wr ∪ ww ∪ rw; with times, one that also respects the relaxed time order
     * (ready operations go by the least relaxed commit time they lead to).
     */
    static int[] totalOrder(Structure st, int[][] order, long[] rc) {
        int[] at = new int[st.n];
        for (int[] seq : order) {
            for (int i = 0; i < seq.length; i++) {
                at[seq[i]] = i;
            }
        }
        Graph.Builder b = new Graph.Builder(st.n, 4 * st.n);
        st.addPo(b);
        st.addWr(b, false);
        addStoreOrder(st, order, at, b);
        Graph g = b.build();
        Graph.View v = new Graph.View(g, null);
        int[] topo = new int[st.n];
        if (v.kahn(null, st.n, topo, null) < st.n) {
            throw new IllegalStateException("total order of an invalid witness");
        }
        if (rc == null) {
            return topo;
        }
        long[] minRc = new long[st.n];
        for (int i = st.n - 1; i >= 0; i--) {
            int u = topo[i];
            long m = rc[u];
            for (int k = g.outStart[u]; k < g.outStart[u + 1]; k++) {
                m = Math.min(m, minRc[g.dst[g.outEdge[k]]]);
            }
            minRc[u] = m;
        }
        int[] out = new int[st.n];
        v.kahn(null, st.n, out, minRc);
        return out;
    }
}
