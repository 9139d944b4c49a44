package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.List;

/**
 * The relaxed time order of the MODV paper (Definition 1) for a timed history. The relaxed commit time
 * of a read is its complete time; that of a write is the least relaxed commit time of the operations
 * that must follow it: the reads of other threads that returned its value and the later operations of
 * its thread that the model keeps after it (all of them under SC; only writes under TSO, whose reads may
 * overtake earlier writes). A write nothing must follow never has to be visible: its relaxed commit time
 * is infinite. Operation u is before v in relaxed time order (u →RT v) when rc(u) <= issue(v).
 *
 * <p>Theorem 1 of the paper: if u is before v in the model's global order, v is not before u in relaxed
 * time order. With times, a history is consistent with a model when some witness makes the model's
 * graphs acyclic and its global graph G (po ∪ wr ∪ ww ∪ rw for SC, ppo ∪ wre ∪ ww ∪ rw for TSO) leaves
 * no u ⇝ v with v →RT u, i.e. issue(u) < rc(v) whenever u ⇝ v: G ∪ RT is then acyclic too (a cycle
 * through several RT edges would need issue times to increase all the way round).
 */
final class TimeOrder {

    static final long INFINITE = Long.MAX_VALUE;

    private TimeOrder() {
    }

    /** Relaxed commit times of every operation under SC ({@code tso} false) or TSO. */
    static long[] relaxedCommit(History h, boolean tso) {
        int n = h.size();
        long[] rc = new long[n];
        for (int t = 0; t < h.threads(); t++) {
            long laterAll = INFINITE;
            long laterWrite = INFINITE;
            for (int id = h.threadStart(t + 1) - 1; id >= h.threadStart(t); id--) {
                Op o = h.op(id);
                if (o.read()) {
                    rc[id] = o.complete();
                } else {
                    long m = tso ? laterWrite : laterAll;
                    for (int k = 0; k < h.readerCount(id); k++) {
                        Op r = h.op(h.reader(id, k));
                        if (r.thread() != t) {
                            m = Math.min(m, r.complete());
                        }
                    }
                    rc[id] = m;
                    laterWrite = Math.min(laterWrite, m);
                }
                laterAll = Math.min(laterAll, rc[id]);
            }
        }
        return rc;
    }

    /** Issue times of every operation. */
    static long[] issue(History h) {
        long[] e = new long[h.size()];
        for (int id = 0; id < e.length; id++) {
            e[id] = h.op(id).issue();
        }
        return e;
    }

    /**
     * Checks an acyclic graph given with a topological order: returns the cycle u ⇝ v →RT u with the
     * shortest path found if some u reaches v with rc(v) <= issue(u), else null. Also fills {@code maxIssue}
     * and {@code maxFrom} (the largest issue time reaching each node, and whose it is) when given.
     */
    static List<Edge> check(Graph.View view, int[] order, int count, long[] issue, long[] rc, long[] maxIssue,
            int[] maxFrom) {
        long[] mx = maxIssue != null ? maxIssue : new long[view.n];
        int[] from = maxFrom != null ? maxFrom : new int[view.n];
        Graph g = view.g;
        Graph.Extra x = view.x;
        for (int i = 0; i < count; i++) {
            int v = order[i];
            long best = issue[v];
            int bestFrom = v;
            for (int k = g.inStart[v]; k < g.inStart[v + 1]; k++) {
                int u = g.src[g.inEdge[k]];
                if (mx[u] > best) {
                    best = mx[u];
                    bestFrom = from[u];
                }
            }
            if (x != null) {
                for (int e = x.inHead[v]; e >= 0; e = x.nextIn[e]) {
                    int u = x.src[e];
                    if (mx[u] > best) {
                        best = mx[u];
                        bestFrom = from[u];
                    }
                }
            }
            mx[v] = best;
            from[v] = bestFrom;
        }
        for (int i = 0; i < count; i++) {
            int v = order[i];
            if (mx[v] >= rc[v]) {
                return cycle(view, from[v], v, issue);
            }
        }
        return null;
    }

    /** The cycle u ⇝ v →RT u through the shortest path from u to v among nodes reached by u in time. */
    static List<Edge> cycle(Graph.View view, int u, int v, long[] issue) {
        List<Edge> path = view.path(u, v, w -> true);
        if (path == null) {
            throw new IllegalStateException("no path for a time-order violation");
        }
        List<Edge> c = new ArrayList<>(path);
        c.add(new Edge(v, u, EdgeKind.RT, -1));
        return c;
    }

    /**
     * Adds the store-order pairs the relaxed time order forces, as {@link EdgeKind#WW_TIME} edges between
     * writes of one variable: w1 before w2 when w1 ends (relaxed) before w2 is issued (otherwise w2 ⇝ w1
     * with w1 →RT w2); and w2 before w1 when w2 ends before a read of w1 is issued (otherwise that read
     * would have to precede w2, rw, while w2 →RT read). Issue and relaxed commit times only grow along a
     * thread's writes, so one edge per thread and write (or read) stands for all.
     */
    static void addForcedWrites(Structure st, long[] issue, long[] rc, Graph.Builder b) {
        History h = st.h;
        for (int id = 0; id < st.n; id++) {
            int x = st.var[id];
            for (int s = 0; s < st.threads; s++) {
                int[] ws = h.writesOf(x, s);
                if (ws.length == 0) {
                    continue;
                }
                if (st.write[id]) {
                    // first write of thread s issued at or after rc(id)
                    int lo = 0;
                    int hi = ws.length - 1;
                    int found = -1;
                    while (lo <= hi) {
                        int mid = (lo + hi) >>> 1;
                        if (issue[ws[mid]] >= rc[id]) {
                            found = mid;
                            hi = mid - 1;
                        } else {
                            lo = mid + 1;
                        }
                    }
                    if (found >= 0 && ws[found] != id) {
                        b.add(id, ws[found], EdgeKind.WW_TIME, -1);
                    }
                } else {
                    int w1 = h.writer(id);
                    if (w1 == History.INIT) {
                        continue; // the read must precede every write: the rw edges and the time check cover it
                    }
                    // last write of thread s ending (relaxed) at or before the read is issued
                    int lo = 0;
                    int hi = ws.length - 1;
                    int found = -1;
                    while (lo <= hi) {
                        int mid = (lo + hi) >>> 1;
                        if (rc[ws[mid]] <= issue[id]) {
                            found = mid;
                            lo = mid + 1;
                        } else {
                            hi = mid - 1;
                        }
                    }
                    if (found >= 0 && ws[found] == w1) {
                        found--;
                    }
                    if (found >= 0) {
                        b.add(ws[found], w1, EdgeKind.WW_TIME, id);
                    }
                }
            }
        }
    }
}
