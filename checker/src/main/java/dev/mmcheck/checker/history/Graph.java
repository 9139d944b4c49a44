package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A directed graph over the operations of a history (nodes are operation ids), built once: edges
 * with a kind and a qualifier ({@link Edge#via()}), indexed both ways. An {@link Extra} adds edges on
 * top of it; {@link View} runs Kahn's algorithm and extracts short cycles on the union.
 */
final class Graph {

    private static final EdgeKind[] KINDS = EdgeKind.values();

    final int n;
    final int m;
    final int[] src;
    final int[] dst;
    final int[] via;
    final byte[] kind;
    final int[] inStart;
    final int[] inEdge;
    final int[] outStart;
    final int[] outEdge;

    private Graph(int n, int m, int[] src, int[] dst, int[] via, byte[] kind) {
        this.n = n;
        this.m = m;
        this.src = src;
        this.dst = dst;
        this.via = via;
        this.kind = kind;
        inStart = new int[n + 1];
        outStart = new int[n + 1];
        for (int e = 0; e < m; e++) {
            inStart[dst[e] + 1]++;
            outStart[src[e] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            inStart[v + 1] += inStart[v];
            outStart[v + 1] += outStart[v];
        }
        inEdge = new int[m];
        outEdge = new int[m];
        int[] fi = Arrays.copyOf(inStart, n);
        int[] fo = Arrays.copyOf(outStart, n);
        for (int e = 0; e < m; e++) {
            inEdge[fi[dst[e]]++] = e;
            outEdge[fo[src[e]]++] = e;
        }
    }

    static EdgeKind kind(byte k) {
        return KINDS[k];
    }

    /** Collects edges, then {@link #build()}s the graph. */
    static final class Builder {
        private final int n;
        private int m;
        private int[] src;
        private int[] dst;
        private int[] via;
        private byte[] kind;

        Builder(int n, int capacity) {
            this.n = n;
            int c = Math.max(16, capacity);
            src = new int[c];
            dst = new int[c];
            via = new int[c];
            kind = new byte[c];
        }

        void add(int s, int d, EdgeKind k, int v) {
            if (m == src.length) {
                int c = m * 2;
                src = Arrays.copyOf(src, c);
                dst = Arrays.copyOf(dst, c);
                via = Arrays.copyOf(via, c);
                kind = Arrays.copyOf(kind, c);
            }
            src[m] = s;
            dst[m] = d;
            via[m] = v;
            kind[m] = (byte) k.ordinal();
            m++;
        }

        int size() {
            return m;
        }

        Graph build() {
            return new Graph(n, m, Arrays.copyOf(src, m), Arrays.copyOf(dst, m), Arrays.copyOf(via, m),
                    Arrays.copyOf(kind, m));
        }
    }

    /** Edges added on top of a {@link Graph}, in per-node linked lists; cheap to add, clear and undo. */
    static final class Extra {
        final int n;
        int size;
        int[] src;
        int[] dst;
        int[] via;
        byte[] kind;
        int[] nextIn;
        int[] nextOut;
        final int[] inHead;
        final int[] outHead;

        Extra(int n) {
            this.n = n;
            inHead = new int[n];
            outHead = new int[n];
            Arrays.fill(inHead, -1);
            Arrays.fill(outHead, -1);
            int c = 64;
            src = new int[c];
            dst = new int[c];
            via = new int[c];
            kind = new byte[c];
            nextIn = new int[c];
            nextOut = new int[c];
        }

        int add(int s, int d, EdgeKind k, int v) {
            if (size == src.length) {
                int c = size * 2;
                src = Arrays.copyOf(src, c);
                dst = Arrays.copyOf(dst, c);
                via = Arrays.copyOf(via, c);
                kind = Arrays.copyOf(kind, c);
                nextIn = Arrays.copyOf(nextIn, c);
                nextOut = Arrays.copyOf(nextOut, c);
            }
            int e = size++;
            src[e] = s;
            dst[e] = d;
            via[e] = v;
            kind[e] = (byte) k.ordinal();
            nextIn[e] = inHead[d];
            inHead[d] = e;
            nextOut[e] = outHead[s];
            outHead[s] = e;
            return e;
        }

        /** Removes the edges added last until {@code newSize} remain (edges are undone in stack order). */
        void truncate(int newSize) {
            while (size > newSize) {
                int e = --size;
                inHead[dst[e]] = nextIn[e];
                outHead[src[e]] = nextOut[e];
            }
        }

        void clear() {
            truncate(0);
        }
    }

    /** A graph plus optional extra edges; edge references are base ids (>= 0) or ~extraId (< 0). */
    static final class View {
        final Graph g;
        final Extra x;
        final int n;
        private final int[] indeg;
        private final int[] mark;
        private int stamp;

        View(Graph g, Extra x) {
            this.g = g;
            this.x = x;
            this.n = g.n;
            indeg = new int[n];
            mark = new int[n];
        }

        int src(int ref) {
            return ref >= 0 ? g.src[ref] : x.src[~ref];
        }

        int dst(int ref) {
            return ref >= 0 ? g.dst[ref] : x.dst[~ref];
        }

        Edge edge(int ref) {
            return ref >= 0 ? new Edge(g.src[ref], g.dst[ref], kind(g.kind[ref]), g.via[ref])
                    : new Edge(x.src[~ref], x.dst[~ref], kind(x.kind[~ref]), x.via[~ref]);
        }

        /**
         * Kahn's algorithm on the nodes {@code nodes[0..count)} (all nodes when {@code nodes} is null),
         * edges between them only; fills {@code order} and returns how many nodes it sorted (fewer than
         * {@code count} means a cycle). Among the nodes ready at once, smaller {@code priority} goes first
         * when {@code priority} is given, otherwise first come first served.
         */
        int kahn(int[] nodes, int count, int[] order, long[] priority) {
            int s = ++stamp;
            if (nodes == null) {
                count = n;
            }
            for (int i = 0; i < count; i++) {
                int v = nodes == null ? i : nodes[i];
                mark[v] = s;
                indeg[v] = 0;
            }
            for (int i = 0; i < count; i++) {
                int v = nodes == null ? i : nodes[i];
                for (int k = g.inStart[v]; k < g.inStart[v + 1]; k++) {
                    if (mark[g.src[g.inEdge[k]]] == s) {
                        indeg[v]++;
                    }
                }
                if (x != null) {
                    for (int e = x.inHead[v]; e >= 0; e = x.nextIn[e]) {
                        if (mark[x.src[e]] == s) {
                            indeg[v]++;
                        }
                    }
                }
            }
            int head = 0;
            int tail = 0;
            LongHeap heap = priority == null ? null : new LongHeap(Math.max(16, count / 4));
            for (int i = 0; i < count; i++) {
                int v = nodes == null ? i : nodes[i];
                if (indeg[v] == 0) {
                    if (heap == null) {
                        order[tail++] = v;
                    } else {
                        heap.push(priority[v], v);
                    }
                }
            }
            int sorted = 0;
            while (true) {
                int v;
                if (heap == null) {
                    if (head == tail) {
                        break;
                    }
                    v = order[head++];
                } else {
                    if (heap.isEmpty()) {
                        break;
                    }
                    v = heap.pop();
                    order[tail++] = v;
                }
                sorted++;
                for (int k = g.outStart[v]; k < g.outStart[v + 1]; k++) {
                    int w = g.dst[g.outEdge[k]];
                    if (mark[w] == s && --indeg[w] == 0) {
                        if (heap == null) {
                            order[tail++] = w;
                        } else {
                            heap.push(priority[w], w);
                        }
                    }
                }
                if (x != null) {
                    for (int e = x.outHead[v]; e >= 0; e = x.nextOut[e]) {
                        int w = x.dst[e];
                        if (mark[w] == s && --indeg[w] == 0) {
                            if (heap == null) {
                                order[tail++] = w;
                            } else {
                                heap.push(priority[w], w);
                            }
                        }
                    }
                }
            }
            return sorted;
        }

        /**
         * A short cycle among the nodes Kahn's algorithm left unsorted in its last call (those with
         * {@code indeg > 0}); each of them has an incoming edge from another one, so one exists. Tries
         * breadth-first searches from the nodes of a first cycle found and keeps the shortest.
         */
        List<Edge> cycleAfterKahn(int[] nodes, int count) {
            int s = stamp;
            if (nodes == null) {
                count = n;
            }
            int start = -1;
            for (int i = 0; i < count && start < 0; i++) {
                int v = nodes == null ? i : nodes[i];
                if (mark[v] == s && indeg[v] > 0) {
                    start = v;
                }
            }
            if (start < 0) {
                throw new IllegalStateException("no cycle left by Kahn's algorithm");
            }
            int left = ++stamp;
            int[] leftMark = mark;
            for (int i = 0; i < count; i++) {
                int v = nodes == null ? i : nodes[i];
                if (leftMark[v] == s && indeg[v] > 0) {
                    leftMark[v] = left;
                }
            }
            // walk back along edges from unsorted nodes until a node repeats
            List<Integer> walk = new ArrayList<>();
            java.util.HashMap<Integer, Integer> pos = new java.util.HashMap<>();
            int v = start;
            List<Integer> refs = new ArrayList<>();
            while (!pos.containsKey(v)) {
                pos.put(v, walk.size());
                walk.add(v);
                int ref = inFrom(v, left);
                refs.add(ref);
                v = src(ref);
            }
            int from = pos.get(v);
            List<Integer> firstCycle = new ArrayList<>(walk.subList(from, walk.size()));
            List<Integer> best = new ArrayList<>();
            for (int i = refs.size() - 1; i >= from; i--) {
                best.add(refs.get(i));
            }
            int tries = 0;
            for (int u : firstCycle) {
                if (tries++ >= 64 || best.size() <= 2) {
                    break;
                }
                List<Integer> c = shortestCycleThrough(u, left, best.size());
                if (c != null && c.size() < best.size()) {
                    best = c;
                }
            }
            List<Edge> out = new ArrayList<>();
            for (int ref : best) {
                out.add(edge(ref));
            }
            return out;
        }

        private int inFrom(int v, int left) {
            for (int k = g.inStart[v]; k < g.inStart[v + 1]; k++) {
                int e = g.inEdge[k];
                if (mark[g.src[e]] == left) {
                    return e;
                }
            }
            if (x != null) {
                for (int e = x.inHead[v]; e >= 0; e = x.nextIn[e]) {
                    if (mark[x.src[e]] == left) {
                        return ~e;
                    }
                }
            }
            throw new IllegalStateException("unsorted node without an unsorted predecessor");
        }

        /** Breadth-first search from {@code u} back to {@code u} over nodes marked {@code left}. */
        private List<Integer> shortestCycleThrough(int u, int left, int bound) {
            java.util.HashMap<Integer, Integer> parentRef = new java.util.HashMap<>();
            IntList frontier = new IntList();
            frontier.add(u);
            int depth = 0;
            while (!frontier.isEmpty() && ++depth < bound) {
                IntList next = new IntList();
                for (int i = 0; i < frontier.size(); i++) {
                    int a = frontier.get(i);
                    for (int k = g.outStart[a]; k < g.outStart[a + 1]; k++) {
                        int e = g.outEdge[k];
                        int b = g.dst[e];
                        if (visit(u, a, b, e, left, parentRef, next)) {
                            return path(u, parentRef);
                        }
                    }
                    if (x != null) {
                        for (int e = x.outHead[a]; e >= 0; e = x.nextOut[e]) {
                            if (visit(u, a, x.dst[e], ~e, left, parentRef, next)) {
                                return path(u, parentRef);
                            }
                        }
                    }
                }
                frontier = next;
            }
            return null;
        }

        private boolean visit(int u, int a, int b, int ref, int left, java.util.HashMap<Integer, Integer> parentRef,
                IntList next) {
            if (mark[b] != left) {
                return false;
            }
            if (b == u) {
                parentRef.put(-1 - u, ref);
                return true;
            }
            if (!parentRef.containsKey(b)) {
                parentRef.put(b, ref);
                next.add(b);
            }
            return false;
        }

        private List<Integer> path(int u, java.util.HashMap<Integer, Integer> parentRef) {
            List<Integer> rev = new ArrayList<>();
            int ref = parentRef.get(-1 - u);
            while (true) {
                rev.add(ref);
                int a = src(ref);
                if (a == u) {
                    break;
                }
                ref = parentRef.get(a);
            }
            List<Integer> out = new ArrayList<>();
            for (int i = rev.size() - 1; i >= 0; i--) {
                out.add(rev.get(i));
            }
            return out;
        }

        /**
         * The shortest path from {@code a} to {@code b} (a list of edges, empty when {@code a == b}) over
         * nodes accepted by {@code allowed}, or null when there is none.
         */
        List<Edge> path(int a, int b, java.util.function.IntPredicate allowed) {
            if (a == b) {
                return new ArrayList<>();
            }
            java.util.HashMap<Integer, Integer> parentRef = new java.util.HashMap<>();
            IntList frontier = new IntList();
            frontier.add(a);
            parentRef.put(a, Integer.MIN_VALUE);
            while (!frontier.isEmpty()) {
                IntList next = new IntList();
                for (int i = 0; i < frontier.size(); i++) {
                    int u = frontier.get(i);
                    for (int k = g.outStart[u]; k < g.outStart[u + 1]; k++) {
                        int e = g.outEdge[k];
                        int w = g.dst[e];
                        if (!parentRef.containsKey(w) && (w == b || allowed.test(w))) {
                            parentRef.put(w, e);
                            next.add(w);
                        }
                    }
                    if (x != null) {
                        for (int e = x.outHead[u]; e >= 0; e = x.nextOut[e]) {
                            int w = x.dst[e];
                            if (!parentRef.containsKey(w) && (w == b || allowed.test(w))) {
                                parentRef.put(w, ~e);
                                next.add(w);
                            }
                        }
                    }
                }
                if (parentRef.containsKey(b)) {
                    List<Edge> rev = new ArrayList<>();
                    int w = b;
                    while (w != a) {
                        int ref = parentRef.get(w);
                        rev.add(edge(ref));
                        w = src(ref);
                    }
                    List<Edge> out = new ArrayList<>();
                    for (int i = rev.size() - 1; i >= 0; i--) {
                        out.add(rev.get(i));
                    }
                    return out;
                }
                frontier = next;
            }
            return null;
        }
    }

    /** A binary min-heap of (long key, int value), ties broken by value. */
    static final class LongHeap {
        private long[] keys;
        private int[] vals;
        private int size;

        LongHeap(int capacity) {
            keys = new long[capacity];
            vals = new int[capacity];
        }

        boolean isEmpty() {
            return size == 0;
        }

        void push(long k, int v) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                vals = Arrays.copyOf(vals, size * 2);
            }
            int i = size++;
            while (i > 0) {
                int p = (i - 1) >>> 1;
                if (less(k, v, keys[p], vals[p])) {
                    keys[i] = keys[p];
                    vals[i] = vals[p];
                    i = p;
                } else {
                    break;
                }
            }
            keys[i] = k;
            vals[i] = v;
        }

        int pop() {
            int top = vals[0];
            long k = keys[--size];
            int v = vals[size];
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= size) {
                    break;
                }
                if (c + 1 < size && less(keys[c + 1], vals[c + 1], keys[c], vals[c])) {
                    c++;
                }
                if (less(keys[c], vals[c], k, v)) {
                    keys[i] = keys[c];
                    vals[i] = vals[c];
                    i = c;
                } else {
                    break;
                }
            }
            keys[i] = k;
            vals[i] = v;
            return top;
        }

        private static boolean less(long k1, int v1, long k2, int v2) {
            return k1 < k2 || (k1 == k2 && v1 < v2);
        }
    }
}
