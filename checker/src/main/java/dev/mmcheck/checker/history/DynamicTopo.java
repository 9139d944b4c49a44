package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A topological order kept up to date while edges are added to a graph (Pearce and Kelly's dynamic
 * topological sort): adding u → v when u is already before v costs nothing; otherwise only the nodes
 * ordered between v and u are searched and reordered, and a path from v back to u is a cycle, in which
 * case the edge is not added. Edges are removed in the reverse order they were added (backtracking), which
 * keeps the order valid.
 */
final class DynamicTopo {

    final Graph g;
    final Graph.Extra x;
    final Graph.View view;
    private final int[] ord;
    private final int[] at;
    private final int[] seen;
    private final int[] parent;
    private int stamp;
    private final IntList forward = new IntList();
    private final IntList backward = new IntList();
    private final IntList queue = new IntList();
    private List<Edge> lastCycle;
    long searched;

    /** {@code order} is a topological order of all nodes of {@code g}. */
    DynamicTopo(Graph g, int[] order) {
        this.g = g;
        this.x = new Graph.Extra(g.n);
        this.view = new Graph.View(g, x);
        ord = new int[g.n];
        at = new int[g.n];
        for (int i = 0; i < g.n; i++) {
            at[i] = order[i];
            ord[order[i]] = i;
        }
        seen = new int[g.n];
        parent = new int[g.n];
    }

    int ord(int v) {
        return ord[v];
    }

    /** Number of extra edges, for {@link #truncate(int)}. */
    int mark() {
        return x.size;
    }

    void truncate(int mark) {
        x.truncate(mark);
    }

    /** Adds u → v unless it closes a cycle; then returns false and {@link #lastCycle()} is that cycle. */
    boolean add(int u, int v, EdgeKind kind, int via) {
        if (u == v) {
            lastCycle = List.of(new Edge(u, v, kind, via));
            return false;
        }
        int lb = ord[v];
        int ub = ord[u];
        if (lb > ub) {
            x.add(u, v, kind, via);
            return true;
        }
        int s = ++stamp;
        forward.clear();
        queue.clear();
        queue.add(v);
        seen[v] = s;
        parent[v] = Integer.MIN_VALUE;
        for (int qi = 0; qi < queue.size(); qi++) {
            int a = queue.get(qi);
            forward.add(a);
            for (int k = g.outStart[a]; k < g.outStart[a + 1]; k++) {
                int e = g.outEdge[k];
                int b = g.dst[e];
                if (b == u) {
                    parent[b] = e;
                    lastCycle = cycle(u, v, kind, via);
                    return false;
                }
                if (seen[b] != s && ord[b] < ub) {
                    seen[b] = s;
                    parent[b] = e;
                    queue.add(b);
                }
            }
            for (int e = x.outHead[a]; e >= 0; e = x.nextOut[e]) {
                int b = x.dst[e];
                if (b == u) {
                    parent[b] = ~e;
                    lastCycle = cycle(u, v, kind, via);
                    return false;
                }
                if (seen[b] != s && ord[b] < ub) {
                    seen[b] = s;
                    parent[b] = ~e;
                    queue.add(b);
                }
            }
        }
        searched += queue.size();
        backward.clear();
        queue.clear();
        queue.add(u);
        seen[u] = s;
        for (int qi = 0; qi < queue.size(); qi++) {
            int a = queue.get(qi);
            backward.add(a);
            for (int k = g.inStart[a]; k < g.inStart[a + 1]; k++) {
                int b = g.src[g.inEdge[k]];
                if (seen[b] != s && ord[b] > lb) {
                    seen[b] = s;
                    queue.add(b);
                }
            }
            for (int e = x.inHead[a]; e >= 0; e = x.nextIn[e]) {
                int b = x.src[e];
                if (seen[b] != s && ord[b] > lb) {
                    seen[b] = s;
                    queue.add(b);
                }
            }
        }
        searched += queue.size();
        reorder();
        x.add(u, v, kind, via);
        return true;
    }

    private void reorder() {
        int[] f = forward.toArray();
        int[] b = backward.toArray();
        sortByOrd(f);
        sortByOrd(b);
        int[] slots = new int[f.length + b.length];
        int k = 0;
        for (int v : b) {
            slots[k++] = ord[v];
        }
        for (int v : f) {
            slots[k++] = ord[v];
        }
        Arrays.sort(slots);
        k = 0;
        for (int v : b) {
            ord[v] = slots[k];
            at[slots[k++]] = v;
        }
        for (int v : f) {
            ord[v] = slots[k];
            at[slots[k++]] = v;
        }
    }

    private void sortByOrd(int[] nodes) {
        long[] keyed = new long[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            keyed[i] = ((long) ord[nodes[i]] << 32) | nodes[i];
        }
        Arrays.sort(keyed);
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = (int) keyed[i];
        }
    }

    private List<Edge> cycle(int u, int v, EdgeKind kind, int via) {
        List<Edge> rev = new ArrayList<>();
        int w = u;
        while (w != v) {
            int ref = parent[w];
            rev.add(view.edge(ref));
            w = view.src(ref);
        }
        List<Edge> c = new ArrayList<>();
        c.add(new Edge(u, v, kind, via));
        for (int i = rev.size() - 1; i >= 0; i--) {
            c.add(rev.get(i));
        }
        return c;
    }

    /** The cycle the last refused edge would have closed: that edge first, then the path back. */
    List<Edge> lastCycle() {
        return lastCycle;
    }
}
