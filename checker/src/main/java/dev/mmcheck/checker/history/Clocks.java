package dev.mmcheck.checker.history;

import java.util.Arrays;

/**
 * Reachability of an acyclic graph whose edges include (at least) a per-thread order, kept as one pair
 * of numbers per node and thread: node {@code v} is reached from the operations of thread {@code s} up
 * to position {@code a(v,s)}, and from its reads up to position {@code b(v,s)}. With {@link #PO} every
 * operation counts as reaching everything before it in its thread (program order is in the graph);
 * with {@link #PPO} only writes do, and a read only reaches later operations through reads (TSO's
 * preserved program order, where a write does not precede the reads after it).
 */
final class Clocks {

    /** Every operation orders everything after it in its thread. */
    static final boolean PO = false;
    /** Reads order everything after them, writes only writes (ppo). */
    static final boolean PPO = true;

    final int threads;
    final int[] a;
    final int[] b;
    private final int[] done;
    private int stamp;

    Clocks(int n, int threads) {
        this.threads = threads;
        a = new int[n * threads];
        b = new int[n * threads];
        done = new int[n];
    }

    /**
     * Computes the clocks of {@code order[0..count)}, a topological order of the nodes that matter, from
     * the edges of {@code view} between them. {@code pos} gives each node's position on its thread.
     */
    void sweep(History h, Graph.View view, int[] order, int count, int[] pos, boolean mode) {
        int s = ++stamp;
        int t = threads;
        Graph g = view.g;
        Graph.Extra x = view.x;
        for (int i = 0; i < count; i++) {
            int v = order[i];
            int base = v * t;
            Arrays.fill(a, base, base + t, -1);
            Arrays.fill(b, base, base + t, -1);
            for (int k = g.inStart[v]; k < g.inStart[v + 1]; k++) {
                int u = g.src[g.inEdge[k]];
                if (done[u] == s) {
                    join(base, u * t);
                }
            }
            if (x != null) {
                for (int e = x.inHead[v]; e >= 0; e = x.nextIn[e]) {
                    int u = x.src[e];
                    if (done[u] == s) {
                        join(base, u * t);
                    }
                }
            }
            Op o = h.op(v);
            int c = base + o.thread();
            if (mode == PO || o.write()) {
                a[c] = Math.max(a[c], pos[v]);
            } else {
                b[c] = Math.max(b[c], pos[v]);
            }
            done[v] = s;
        }
    }

    private void join(int to, int from) {
        for (int k = 0; k < threads; k++) {
            if (a[from + k] > a[to + k]) {
                a[to + k] = a[from + k];
            }
            if (b[from + k] > b[to + k]) {
                b[to + k] = b[from + k];
            }
        }
    }

    /** Whether the node at position {@code p} of thread {@code s} (a write if {@code write}) reaches {@code v}. */
    boolean reaches(int p, int s, boolean write, int v) {
        int i = v * threads + s;
        return p <= a[i] || (!write && p <= b[i]);
    }

    /** How far the writes (and with {@link #PO} all operations) of thread {@code s} reach {@code v}. */
    int writeReach(int v, int s) {
        return a[v * threads + s];
    }
}
