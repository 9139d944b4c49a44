package dev.mmcheck.checker.serial;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.checker.serial.TsoGraph.Chain;
import dev.mmcheck.checker.serial.TsoGraph.DEdge;
import dev.mmcheck.checker.serial.TsoGraph.Ev;
import dev.mmcheck.checker.serial.TsoGraph.Tx;
import dev.mmcheck.checker.serial.TsoGraph.UEdge;

import static dev.mmcheck.checker.serial.TsoGraph.R_LANE;
import static dev.mmcheck.checker.serial.TsoGraph.W_LANE;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * {@link TsoSerializability}'s search for cycles through a new edge of the transaction conflict graph
 * (Enea-Farzan Sec. 6.2, Fig. 3-4): along directed edges alone first, then the simple-cycle witness
 * search over chains of the directed graph, each orientation of an undirected edge checked against the
 * directed edges by reachability on the trace event graph's vector clocks. Reports each cycle found to
 * the sink. Every search is bounded by {@link SerialConfig#searchSteps()} per event; cut searches are
 * counted. Checker thread only.
 */
final class WitnessSearch {

    private final FindingSink sink;
    private final SerialConfig config;
    /** Whether only observed orientations need searching now (Theorem 3's shortcut, decided by the check). */
    private final BooleanSupplier shortcut;

    private int mark;
    private long seq;
    private long stepsThisEvent;
    private long searches;
    private long searchesCut;
    private long cycles;
    private long budgetLeft;
    private boolean hitLimit;

    /** A search reporting to {@code sink}; {@code shortcut} says when Theorem 3's shortcut applies. */
    WitnessSearch(FindingSink sink, SerialConfig config, BooleanSupplier shortcut) {
        this.sink = sink;
        this.config = config;
        this.shortcut = shortcut;
    }

    /** Starts the searches of the event at {@code seq}: the step bound is per event. */
    void startEvent(long seq) {
        this.seq = seq;
        this.stepsThisEvent = 0;
    }

    /** Witness searches run. */
    long searches() {
        return searches;
    }

    /** Searches cut at the bound. */
    long searchesCut() {
        return searchesCut;
    }

    /** Cycles found (before deduplication). */
    long cycles() {
        return cycles;
    }

    private static int comp(int[] vc, int i) {
        return i < vc.length ? vc[i] : 0;
    }

    // ---------------------------------------------------------------------------- reachability

    /** Whether e ⇝ f along the directed edges of EG_τ (e before f, or equal). */
    static boolean reach(Ev e, Ev f) {
        while (true) {
            if (e == f) {
                return true;
            }
            if (e.seq > f.seq) {
                return false;
            }
            if (e.saturated) {
                return true;
            }
            if (e.lane == W_LANE) {
                return comp(f.vc, 2 * e.thread) >= e.pos;
            }
            if (e.lane == R_LANE) {
                return comp(f.vc, 2 * e.thread + 1) >= e.pos;
            }
            // a buffered read: its thread's next write or fence, its fence-separated writes of other
            // threads, its thread's next read of the address; nothing else has an edge from it
            if (comp(f.vc, 2 * e.thread) >= e.nextWF) {
                return true;
            }
            if (e.succ != null) {
                for (Ev w : e.succ) {
                    if (reach(w, f)) {
                        return true;
                    }
                }
            }
            if (e.nextSame == null) {
                return false;
            }
            e = e.nextSame;
        }
    }

    /** Whether f ⇝ g along the directed edges plus the chosen orientations {@code c} (pairs from, to). */
    private static boolean reach(Ev f, Ev g, List<Ev> c) {
        if (reach(f, g)) {
            return true;
        }
        if (c.isEmpty()) {
            return false;
        }
        int k = c.size() / 2;
        boolean[] used = new boolean[k];
        List<Ev> at = new ArrayList<>();
        at.add(f);
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = 0; i < k; i++) {
                if (used[i]) {
                    continue;
                }
                Ev p = c.get(2 * i);
                for (Ev s : at) {
                    if (reach(s, p)) {
                        used[i] = true;
                        Ev q = c.get(2 * i + 1);
                        if (reach(q, g)) {
                            return true;
                        }
                        at.add(q);
                        progress = true;
                        break;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Whether the new directed edge {@code e} from {@code from} to {@code to} closes a cycle of directed
     * edges alone (the cheap case of Sec. 6.2); the cycle is then reported.
     */
    boolean closesDirectedCycle(DEdge e, Tx from, Tx to) {
        if (!to.out.isEmpty() && directedPath(to, from)) {
            reportDirected(e, from, to);
            return true;
        }
        return false;
    }

    private boolean directedPath(Tx from, Tx goal) {
        int m = ++mark;
        ArrayDeque<Tx> stack = new ArrayDeque<>();
        from.mark = m;
        stack.push(from);
        while (!stack.isEmpty()) {
            Tx x = stack.pop();
            for (DEdge e : x.out) {
                if (++stepsThisEvent > config.searchSteps()) {
                    searchesCut++;
                    return false;
                }
                Tx y = e.to();
                if (y.alive && y.mark != m) {
                    y.mark = m;
                    y.via = e;
                    y.viaFrom = x;
                    if (y == goal) {
                        return true;
                    }
                    stack.push(y);
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------- witness search

    /** One step of a search path: from a transaction over a directed or an oriented undirected edge. */
    private record Step(Tx tx, DEdge d, UEdge u, Ev src, Ev dst) {
    }

    /** Searches for a witness through the new directed edge {@code e}: a path from its target back to its source. */
    void searchFrom(DEdge e) {
        Tx to = e.to();
        Tx from = e.from().tx;
        if (!from.alive || !to.alive || !hasWay(to, null)) {
            return;
        }
        List<Step> path = witness(to, from, new ArrayList<>(), null);
        if (path != null) {
            report(path, new Step(from, e, null, e.from(), e.toEv()));
        }
    }

    /** Searches for witnesses through the new undirected edge {@code u}, in both orientations. */
    void searchFrom(UEdge u) {
        Tx a = u.a().tx;
        Tx b = u.b().tx;
        if (!a.alive || !b.alive) {
            return;
        }
        // observed orientation a -> b: a path from b back to a
        if (hasWay(b, u)) {
            List<Ev> c = new ArrayList<>(List.of(u.a(), u.b()));
            List<Step> path = witness(b, a, c, u);
            if (path != null) {
                report(path, new Step(a, null, u, u.a(), u.b()));
                return;
            }
        }
        // the other orientation b -> a (a's write commits late): valid unless a reaches b already
        if (!shortcut() && hasWay(a, u) && !reach(u.a(), u.b())) {
            List<Ev> c = new ArrayList<>(List.of(u.b(), u.a()));
            List<Step> path = witness(a, b, c, u);
            if (path != null) {
                report(path, new Step(b, null, u, u.b(), u.a()));
            }
        }
    }

    private boolean shortcut() {
        return shortcut.getAsBoolean();
    }

    private static boolean hasWay(Tx x, UEdge except) {
        if (!x.out.isEmpty()) {
            return true;
        }
        if (x.und != null) {
            for (UEdge u : x.und) {
                if (u != except) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A path of the conflict graph from {@code start} to {@code goal} whose orientations, with those in
     * {@code c}, keep the directed edges acyclic; null when there is none (or the search was cut).
     *
     * <p>The simple-cycle witness search of Fig. 3-4: a simple cycle is a sequence of segments, each a
     * stretch of one chain of the directed graph entered at a transaction and left at the same or a
     * later one of the chain (the directed path between them is free: a profile (a, b), b in pair(a)),
     * each chain visited once (Prop. 5). So the search goes from segment to segment over the edges that
     * leave a chain (directed, or undirected with an orientation checked for validity), never into a
     * chain already on the path, and ends when it enters the goal's chain at or before the goal.
     * Iterative deepening on the number of segments reports the cycles with fewest first.
     */
    private List<Step> witness(Tx start, Tx goal, List<Ev> c, UEdge closing) {
        searches++;
        budgetLeft = config.searchSteps();
        if (start.chain == goal.chain && start.chainPos <= goal.chainPos) {
            return walk(start, goal, new ArrayList<>());
        }
        for (int limit = 2; ; limit++) {
            hitLimit = false;
            List<Step> p = segments(start, goal, c, closing, limit);
            if (p != null || budgetLeft < 0 || !hitLimit) {
                if (budgetLeft < 0) {
                    searchesCut++;
                }
                return p;
            }
        }
    }

    /** The directed steps along a chain from {@code from} to {@code to} (same chain, not after it), appended. */
    private static List<Step> walk(Tx from, Tx to, List<Step> out) {
        Chain ch = from.chain;
        for (int p = from.chainPos + 1; p <= to.chainPos; p++) {
            Tx x = ch.at(p);
            DEdge e = x.chainEdge;
            out.add(new Step(e.from().tx, e, null, e.from(), e.toEv()));
        }
        return out;
    }

    /** One segment on the search stack: a chain entered at {@code entry}; the next exit to try. */
    private static final class Segment {
        final Tx entry;
        int pos;     // the transaction of the chain whose exits are being tried
        int option;  // the next of its edges to try
        Step exit;   // the edge taken out of this segment, when a later segment is on the stack

        Segment(Tx entry) {
            this.entry = entry;
            this.pos = entry.chainPos;
        }
    }

    private List<Step> segments(Tx start, Tx goal, List<Ev> c, UEdge closing, int limit) {
        boolean forwardOnly = shortcut();
        int m = ++mark;
        ArrayList<Segment> stack = new ArrayList<>();
        stack.add(new Segment(start));
        start.chain.mark = m;
        while (!stack.isEmpty()) {
            Segment seg = stack.get(stack.size() - 1);
            Chain ch = seg.entry.chain;
            if (seg.pos >= ch.end()) {
                stack.remove(stack.size() - 1);
                ch.mark = 0;
                if (!stack.isEmpty()) {
                    Segment below = stack.get(stack.size() - 1);
                    if (below.exit.u() != null) {
                        c.remove(c.size() - 1);
                        c.remove(c.size() - 1);
                    }
                    below.exit = null;
                }
                continue;
            }
            Tx y = ch.at(seg.pos);
            int nd = y.alive ? y.out.size() : 0;
            int nu = y.alive && y.und != null ? y.und.size() : 0;
            if (seg.option >= nd + nu) {
                seg.pos++;
                seg.option = 0;
                continue;
            }
            int i = seg.option++;
            if (--budgetLeft < 0 || ++stepsThisEvent > config.searchSteps()) {
                budgetLeft = -1;
                return null;
            }
            Tx z;
            Step step;
            if (i < nd) {
                DEdge d = y.out.get(i);
                z = d.to();
                step = new Step(y, d, null, d.from(), d.toEv());
            } else {
                UEdge u = y.und.get(i - nd);
                if (u == closing) {
                    continue;
                }
                Ev a = u.at(y);
                Ev b = u.other(y);
                if (forwardOnly && a.seq > b.seq) {
                    continue;
                }
                z = b.tx;
                step = new Step(y, null, u, a, b);
            }
            if (!z.alive || z.chain == ch) {
                continue; // along the chain is free; nothing leads back up a chain
            }
            boolean reachesGoal = z.chain == goal.chain && z.chainPos <= goal.chainPos;
            if (z.chain.mark == m && !reachesGoal) {
                continue; // each chain once (Prop. 5); the start's chain again only to close the cycle
            }
            if (!reachesGoal && stack.size() + 1 >= limit) {
                hitLimit = true;
                continue;
            }
            if (step.u() != null) {
                if (!forwardOnly && reach(step.dst(), step.src(), c)) {
                    continue; // this orientation would close a cycle of the directed edges
                }
                c.add(step.src());
                c.add(step.dst());
            }
            if (reachesGoal && (closing == null || forwardOnly || !reach(c.get(1), c.get(0), c.subList(2, c.size())))) {
                seg.exit = step;
                List<Step> path = new ArrayList<>();
                for (int k = 0; k < stack.size(); k++) {
                    Segment s2 = stack.get(k);
                    walk(s2.entry, s2.exit.tx(), path);
                    path.add(s2.exit);
                }
                return walk(z, goal, path);
            }
            if (reachesGoal) {
                if (step.u() != null) {
                    c.remove(c.size() - 1);
                    c.remove(c.size() - 1);
                }
                continue;
            }
            seg.exit = step;
            z.chain.mark = m;
            stack.add(new Segment(z));
        }
        return null;
    }

    /** Reports the cycle of directed edges closed by {@code e}, with the path {@link #directedPath} left. */
    private void reportDirected(DEdge e, Tx from, Tx to) {
        List<Step> path = new ArrayList<>();
        for (Tx x = from; x != to; x = x.viaFrom) {
            path.add(new Step(x.viaFrom, x.via, null, x.via.from(), x.via.toEv()));
        }
        Collections.reverse(path);
        report(path, new Step(from, e, null, e.from(), e.toEv()));
    }

    private void report(List<Step> path, Step closing) {
        cycles++;
        List<Step> steps = new ArrayList<>(path);
        steps.add(closing);
        List<FindingSink.Tx> txs = new ArrayList<>();
        List<FindingSink.Edge> edges = new ArrayList<>();
        int n = steps.size();
        StringBuilder late = new StringBuilder();
        for (int i = 0; i < n; i++) {
            Step s = steps.get(i);
            txs.add(new FindingSink.Tx(s.tx().thread, s.tx().site, s.tx().atomic));
            String kind;
            String which = "";
            if (s.d() != null) {
                kind = s.src().thread == s.dst().thread ? "program-order" : "conflict";
            } else if (s.src().seq < s.dst().seq) {
                kind = "conflict-observed";
            } else {
                kind = "conflict-late";
                which = "target";
                late.append('x');
            }
            edges.add(new FindingSink.Edge(i, (i + 1) % n, kind, s.src().info(), s.dst().info(), which));
        }
        String advice;
        if (late.length() == 0) {
            advice = "these transactions interleave so that none can go first, in every TSO execution of this "
                    + "trace (the observed one included): make them one atomic step (a common lock, or one CAS "
                    + "over their shared state)";
        } else {
            advice = "on TSO a write can commit after later accesses of its own thread: with the late commits "
                    + "shown, each transaction conflicts with the next and the last with the first, so no serial "
                    + "order explains the execution. A full fence (VarHandle.fullFence()) right after each late "
                    + "write, or making its field volatile, makes it visible before its transaction goes on";
        }
        sink.cycle(Analysis.TSOSER, txs, edges, advice, seq);
    }
}
