package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The enumeration step of Algorithms 1 (SC) and 2 (TSO) of the gradual-consistency paper: a depth-first
 * search over store orders that extend a given partial store order (pww, wpww, or only program order for
 * the plain enumeration), building each variable's store order write by write.
 *
 * <p>Placing write c right after write L (the last one placed on its variable) adds the edges L →ww c and
 * r →rw c for the reads r of L (the latest such read of each thread suffices: program order gives the
 * rest). Acyclicity is checked incrementally with a dynamic topological order; a refused edge ends the
 * branch with the cycle it would close. Under TSO the edges go to both of its graphs.
 *
 * <p>With times, the branch also ends when (MODV, Function 4) a read of L was issued after c's relaxed
 * commit time (c cannot follow it), when the largest issue time reaching a node reaches its relaxed commit
 * time (a path u ⇝ v with v →RT u, Function 5's timed cycle, found exactly by propagating issue times), or
 * when the variable's frontier would stop being active (Definitions 3-4: each placed write's active period
 * must overlap the others', i.e. it must be issued before the relaxed commit of every write still to come).
 *
 * <p>Writes of different variables never need ordering, so only the candidates of one variable are
 * branched on at a time (the one whose ready candidate comes first in the base graph's topological order,
 * which follows issue times when there are times); which variable goes next is not a choice point.
 */
final class StoreOrderSearch {

    enum Outcome { CONSISTENT, INCONSISTENT, UNKNOWN }

    private static final int EXPLAIN_DEPTH = 8;
    private static final int EXPLAIN_CASES = 48;

    private final Structure st;
    private final History h;
    private final Clocks order;
    private final DynamicTopo main;
    private final DynamicTopo loc;
    private final boolean timed;
    private final long[] issue;
    private final long[] rc;
    private final long maxSteps;

    private final int threads;
    private final int[][] placed;
    private final int[] last;
    private final int[][] sequence;
    private final int[] seqLen;
    private int remaining;
    private final int[] latestReader;
    private final int[] key;

    private final long[] maxE;
    private final int[] maxFrom;
    private final IntList trailNode = new IntList();
    private final List<long[]> trailOld = new ArrayList<>();
    private final IntList work = new IntList();
    private int propagateFrom;

    private IndexedHeap heap;

    long placements;
    long tried;
    long prunedCycle;
    long prunedTime;
    long prunedInactive;
    long backtracks;
    long decisions;
    int maxDepth;
    private int explainedCases;
    Explanation explanation;

    /**
     * {@code main} is the (acyclic) base graph of the model, with a topological order; {@code loc} the
     * TSO coherence graph (null for SC); {@code order} the clocks of the partial store order to extend;
     * {@code rc} the model's relaxed commit times (null without times).
     */
    StoreOrderSearch(Structure st, Clocks order, Graph mainGraph, int[] mainOrder, Graph locGraph, int[] locOrder,
            long[] rc, long maxSteps) {
        this.st = st;
        this.h = st.h;
        this.order = order;
        this.main = new DynamicTopo(mainGraph, mainOrder);
        this.loc = locGraph == null ? null : new DynamicTopo(locGraph, locOrder);
        this.timed = rc != null;
        this.issue = timed ? TimeOrder.issue(h) : null;
        this.rc = rc;
        this.maxSteps = maxSteps;
        this.threads = st.threads;
        int vars = h.vars();
        placed = new int[vars][threads];
        last = new int[vars];
        Arrays.fill(last, History.INIT);
        sequence = new int[vars][];
        seqLen = new int[vars];
        for (int x = 0; x < vars; x++) {
            int c = 0;
            for (int s = 0; s < threads; s++) {
                c += h.writeCount(x, s);
            }
            sequence[x] = new int[c];
            remaining += c;
        }
        latestReader = new int[st.n * threads];
        Arrays.fill(latestReader, -1);
        for (int r = 0; r < st.n; r++) {
            int w = h.writer(r);
            if (!st.write[r] && w >= 0) {
                latestReader[w * threads + h.op(r).thread()] = r; // ids grow along program order
            }
        }
        key = new int[st.n];
        for (int i = 0; i < mainOrder.length; i++) {
            key[mainOrder[i]] = i;
        }
        if (timed) {
            maxE = new long[st.n];
            maxFrom = new int[st.n];
            Graph.View v = new Graph.View(mainGraph, null);
            if (TimeOrder.check(v, mainOrder, st.n, issue, rc, maxE, maxFrom) != null) {
                throw new IllegalArgumentException("the base graph must satisfy the time order");
            }
        } else {
            maxE = null;
            maxFrom = null;
        }
    }

    /** The store order found, per variable (valid after {@link Outcome#CONSISTENT}). */
    int[][] storeOrder() {
        int[][] out = new int[sequence.length][];
        for (int x = 0; x < sequence.length; x++) {
            out[x] = Arrays.copyOf(sequence[x], seqLen[x]);
        }
        return out;
    }

    private final class Frame {
        final int var;
        final int[] cands;
        final int depth;
        final boolean explain;
        final List<Explanation> cases;
        final int lastBefore;
        int next;
        boolean placed;
        int mainMark;
        int locMark;
        int trailMark;

        /** Whether this frame had no choice: one candidate and none ruled out by time. */
        boolean forced() {
            return cands.length == 1 && (cases == null || cases.isEmpty());
        }

        Frame(int var, int[] cands, int depth, boolean explain) {
            this.var = var;
            this.cands = cands;
            this.depth = depth;
            this.explain = explain;
            this.cases = explain ? new ArrayList<>() : null;
            this.lastBefore = last[var];
        }
    }

    Outcome run() {
        if (remaining == 0) {
            return Outcome.CONSISTENT;
        }
        heap = new IndexedHeap(h.vars());
        for (int x = 0; x < h.vars(); x++) {
            pushVar(x);
        }
        List<Frame> stack = new ArrayList<>();
        stack.add(newFrame(0, true));
        while (true) {
            Frame f = stack.get(stack.size() - 1);
            if (f.placed) {
                undo(f);
            }
            if (f.next == f.cands.length) {
                stack.remove(stack.size() - 1);
                backtracks++;
                Explanation ex = f.explain ? summarize(f) : null;
                if (stack.isEmpty()) {
                    explanation = ex;
                    return Outcome.INCONSISTENT;
                }
                Frame p = stack.get(stack.size() - 1);
                if (p.explain) {
                    int c = p.cands[p.next - 1];
                    if (ex == null) {
                        p.cases.add(new Explanation(claim(p, c) + ": no way to continue (found by further search)",
                                null, List.of()));
                    } else if (p.forced()) {
                        p.cases.add(ex); // a forced placement is no assumption worth naming
                    } else {
                        p.cases.add(new Explanation(claim(p, c) + ", then " + ex.claim(), ex.cycle(), ex.cases()));
                    }
                }
                continue;
            }
            int c = f.cands[f.next++];
            if (maxSteps >= 0 && tried >= maxSteps) {
                return Outcome.UNKNOWN;
            }
            tried++;
            List<Edge> refuted = place(f, c);
            if (refuted == null) {
                if (remaining == 0) {
                    return Outcome.CONSISTENT;
                }
                boolean explain = f.explain && f.depth + 1 < EXPLAIN_DEPTH && explainedCases < EXPLAIN_CASES;
                Frame child = newFrame(f.depth + 1, explain);
                stack.add(child);
                maxDepth = Math.max(maxDepth, stack.size());
            } else if (f.explain) {
                explainedCases++;
                f.cases.add(new Explanation(claim(f, c), refuted, List.of()));
            }
        }
    }

    private Explanation summarize(Frame f) {
        String what = h.varName(f.var);
        if (f.cases.size() == 1) {
            return f.cases.get(0);
        }
        String claim = f.cases.isEmpty() ? "no write can come next in the store order of " + what
                : "each possible next write to " + what + " fails";
        return new Explanation(claim, null, List.copyOf(f.cases));
    }

    private String claim(Frame f, int c) {
        String x = h.varName(f.var);
        return f.lastBefore == History.INIT ? h.name(c) + " is the first write to " + x + " in the store order"
                : h.name(c) + " comes right after " + h.name(f.lastBefore) + " in the store order of " + x;
    }

    /** Puts {@code x} on the variable heap at the key of its best ready candidate (off it when none). */
    private void pushVar(int x) {
        long best = Long.MAX_VALUE;
        for (int s = 0; s < threads; s++) {
            int c = candidate(x, s);
            if (c >= 0 && ready(x, c)) {
                best = Math.min(best, key[c]);
            }
        }
        heap.set(x, best);
    }

    private int candidate(int x, int s) {
        int[] ws = h.writesOf(x, s);
        return placed[x][s] < ws.length ? ws[placed[x][s]] : -1;
    }

    /** All writes that the partial store order puts before {@code c} are placed. */
    private boolean ready(int x, int c) {
        for (int s = 0; s < threads; s++) {
            if (order.writeReach(c, s) >= placed[x][s] && s != h.op(c).thread()) {
                return false;
            }
        }
        return true;
    }

    private Frame newFrame(int depth, boolean explain) {
        int x = heap.min();
        if (x < 0) {
            throw new IllegalStateException("writes remain but no variable has a ready write");
        }
        IntList cands = new IntList(threads);
        List<Explanation> inactive = explain ? new ArrayList<>() : null;
        for (int s = 0; s < threads; s++) {
            int c = candidate(x, s);
            if (c < 0 || !ready(x, c)) {
                continue;
            }
            List<Edge> why = timed ? inactive(x, c) : null;
            if (why != null) {
                prunedInactive++;
                if (inactive != null) {
                    inactive.add(new Explanation(claimFor(x, c), why, List.of()));
                }
                continue;
            }
            cands.add(c);
        }
        int[] cs = cands.toArray();
        long[] keyed = new long[cs.length];
        for (int i = 0; i < cs.length; i++) {
            keyed[i] = ((long) main.ord(cs[i]) << 32) | cs[i];
        }
        Arrays.sort(keyed);
        for (int i = 0; i < cs.length; i++) {
            cs[i] = (int) keyed[i];
        }
        if (cs.length > 1) {
            decisions++;
        }
        Frame f = new Frame(x, cs, depth, explain);
        if (inactive != null) {
            f.cases.addAll(inactive);
        }
        return f;
    }

    private String claimFor(int x, int c) {
        return last[x] == History.INIT ? h.name(c) + " is the first write to " + h.varName(x) + " in the store order"
                : h.name(c) + " comes right after " + h.name(last[x]) + " in the store order of " + h.varName(x);
    }

    /**
     * Whether placing {@code c} next on {@code x} leaves the frontier of {@code x} active (MODV Def. 4):
     * null if so, else the two-edge cycle (a write placed before one still to come, which ends before the
     * first is issued) that rules it out.
     */
    private List<Edge> inactive(int x, int c) {
        int i = h.op(c).thread();
        int[] mine = h.writesOf(x, i);
        int cNext = placed[x][i] + 1 < mine.length ? mine[placed[x][i] + 1] : -1;
        long cEnd = cNext < 0 ? TimeOrder.INFINITE : rc[cNext];
        for (int j = 0; j < threads; j++) {
            if (j == i) {
                continue;
            }
            int[] ws = h.writesOf(x, j);
            if (ws.length == 0) {
                continue;
            }
            int k = placed[x][j];
            int nextJ = k < ws.length ? ws[k] : -1;
            if (nextJ >= 0 && rc[nextJ] <= issue[c]) {
                return List.of(new Edge(c, nextJ, EdgeKind.WW, -1), new Edge(nextJ, c, EdgeKind.RT, -1));
            }
            int lastJ = k > 0 ? ws[k - 1] : -1;
            if (lastJ >= 0 && cNext >= 0 && cEnd <= issue[lastJ]) {
                return List.of(new Edge(lastJ, cNext, EdgeKind.WW, -1), new Edge(cNext, lastJ, EdgeKind.RT, -1));
            }
        }
        return null;
    }

    /** Places {@code c} next on its variable; null on success, else the cycle that refutes it. */
    private List<Edge> place(Frame f, int c) {
        int x = f.var;
        int l = last[x];
        f.mainMark = main.mark();
        propagateFrom = f.mainMark;
        f.locMark = loc == null ? 0 : loc.mark();
        f.trailMark = trailNode.size();
        if (l != History.INIT) {
            if (timed) {
                for (int s = 0; s < threads; s++) {
                    int r = latestReader[l * threads + s];
                    if (r >= 0 && rc[c] <= issue[r]) {
                        prunedTime++;
                        return List.of(new Edge(r, c, EdgeKind.RW, l), new Edge(c, r, EdgeKind.RT, -1));
                    }
                }
            }
            List<Edge> cyc = addEverywhere(l, c, EdgeKind.WW, -1);
            for (int s = 0; cyc == null && s < threads; s++) {
                int r = latestReader[l * threads + s];
                if (r >= 0) {
                    cyc = addEverywhere(r, c, EdgeKind.RW, l);
                }
            }
            if (cyc != null) {
                prunedCycle++;
                rollback(f);
                return cyc;
            }
        }
        placed[x][h.op(c).thread()]++;
        List<Edge> cyc = null;
        for (int s = 0; cyc == null && s < threads; s++) {
            int next = candidate(x, s);
            if (next < 0) {
                continue;
            }
            cyc = addEverywhere(c, next, EdgeKind.WW, -1);
            for (int s2 = 0; cyc == null && s2 < threads; s2++) {
                int r = latestReader[c * threads + s2];
                if (r >= 0) {
                    cyc = addEverywhere(r, next, EdgeKind.RW, c);
                }
            }
        }
        if (cyc == null && timed) {
            cyc = propagate();
            if (cyc != null) {
                prunedTime++;
                placed[x][h.op(c).thread()]--;
                rollback(f);
                return cyc;
            }
        }
        if (cyc != null) {
            prunedCycle++;
            placed[x][h.op(c).thread()]--;
            rollback(f);
            return cyc;
        }
        last[x] = c;
        sequence[x][seqLen[x]++] = c;
        remaining--;
        placements++;
        f.placed = true;
        pushVar(x);
        return null;
    }

    private List<Edge> addEverywhere(int u, int v, EdgeKind kind, int via) {
        if (!main.add(u, v, kind, via)) {
            return main.lastCycle();
        }
        if (loc != null && !loc.add(u, v, kind, via)) {
            return loc.lastCycle();
        }
        return null;
    }

    private void rollback(Frame f) {
        main.truncate(f.mainMark);
        if (loc != null) {
            loc.truncate(f.locMark);
        }
        while (trailNode.size() > f.trailMark) {
            int v = trailNode.removeLast();
            long[] old = trailOld.remove(trailOld.size() - 1);
            maxE[v] = old[0];
            maxFrom[v] = (int) old[1];
        }
    }

    private void undo(Frame f) {
        int c = f.cands[f.next - 1];
        int x = f.var;
        rollback(f);
        last[x] = f.lastBefore;
        placed[x][h.op(c).thread()]--;
        seqLen[x]--;
        remaining++;
        f.placed = false;
        pushVar(x);
    }

    /**
     * Pushes the largest issue time reaching each node forward along the edges added since the current
     * frame's mark; returns a cycle u ⇝ v →RT u as soon as some node v is reached by an issue time at or
     * after its relaxed commit time.
     */
    private List<Edge> propagate() {
        Graph.Extra x = main.x;
        Graph g = main.g;
        work.clear();
        for (int e = propagateFrom; e < x.size; e++) {
            int u = x.src[e];
            int v = x.dst[e];
            if (maxE[u] > maxE[v]) {
                set(v, maxE[u], maxFrom[u]);
                if (maxE[v] >= rc[v]) {
                    return TimeOrder.cycle(main.view, maxFrom[v], v, issue);
                }
                work.add(v);
            }
        }
        while (!work.isEmpty()) {
            int u = work.removeLast();
            long m = maxE[u];
            int from = maxFrom[u];
            for (int k = g.outStart[u]; k < g.outStart[u + 1]; k++) {
                int v = g.dst[g.outEdge[k]];
                if (m > maxE[v]) {
                    set(v, m, from);
                    if (m >= rc[v]) {
                        return TimeOrder.cycle(main.view, from, v, issue);
                    }
                    work.add(v);
                }
            }
            for (int e = x.outHead[u]; e >= 0; e = x.nextOut[e]) {
                int v = x.dst[e];
                if (m > maxE[v]) {
                    set(v, m, from);
                    if (m >= rc[v]) {
                        return TimeOrder.cycle(main.view, from, v, issue);
                    }
                    work.add(v);
                }
            }
        }
        return null;
    }

    private void set(int v, long m, int from) {
        trailNode.add(v);
        trailOld.add(new long[] {maxE[v], maxFrom[v]});
        maxE[v] = m;
        maxFrom[v] = from;
    }
}
