package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.jmm.AccessMode;
import dev.mmcheck.checker.jmm.FenceKind;
import dev.mmcheck.checker.jmm.RobustnessViolation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Brute force from the model's definitions (docs/jmm-model.md; the RC20 axioms, Lahav et al. PLDI 2017
 * with the C++20 release sequence): execution graphs of a {@link JmmProgram}, their consistency, and
 * whether they are sequentially consistent.
 *
 * <p>Events. Each operation is one event, preceded by an SC fence event when it is volatile. A read R, a
 * write W, a read-modify-write U (reads and writes in one event; a compare-and-set is a U when it reads
 * its expected value and an R otherwise; monitorenter is an acquire U that may read only an unlocked
 * value, monitorexit a release W), a fence F with an acquire and/or release part, and the SC fence as the
 * model encodes it (RSAN's encoding: fence(acq); U_acq_rel on one pseudo-location F; fence(rel), here one
 * event that is all three). Each location has an initial write of 0, before everything.
 *
 * <p>Relations. po (per thread), rf (each read one write of its location, with the value a compare-and-set
 * or a lock needs), mo (per location a total order of its writes, the initial one first), rb = rf⁻¹;mo;
 * eco = (rf ∪ mo ∪ rb)⁺; rs = [W];(rf;[U])* (C++20: only read-modify-writes continue a release
 * sequence); sw = [E⊒rel];([F];po)?;rs;rf;[R];(po;[F])?;[E⊒acq]; hb = (po ∪ sw)⁺, the initial writes
 * before everything.
 *
 * <p>Consistent: irreflexive(hb;eco?) (coherence), a U reads the write immediately before it in mo
 * (atomicity), acyclic(po ∪ rf) (no thin air: graphs are built along po ∪ rf, so it holds by
 * construction). Sequentially consistent: acyclic(po ∪ rf ∪ mo ∪ rb) on every location but F (the SC
 * fences' location is the encoding's, not the program's).
 *
 * <p>Two questions: {@link #nonRobust} enumerates every consistent graph of the program (built an event at
 * a time along po ∪ rf, pruning inconsistent prefixes: consistency of a po ∪ rf-closed prefix is implied
 * by the whole graph's) and returns one that is not SC; {@link #alternatives} takes the graph of an SC
 * run's prefix and the next operation and lists every other read source or write placement for it that is
 * consistent and not SC (Prop. 1 in docs/jmm-model.md: exactly what the monitor must report there).
 */
public final class RaOracle {

    private static final int INIT = 0;
    private static final int R = 1;
    private static final int W = 2;
    private static final int U = 3;
    private static final int CAS = 4;
    private static final int F = 5;
    private static final int FSC = 6;
    private static final int LOCK = 7;
    private static final int UNLOCK = 8;

    private final JmmProgram program;
    private final int locations;    // the program's; the SC fences' location is number `locations`
    private final int fenceLoc;
    private final int n;            // events: the initial writes first, one per location (F's too)
    private final int[] kind;
    private final int[] thread;
    private final int[] loc;
    private final boolean[] acq;
    private final boolean[] rel;
    private final boolean[] fAcq;
    private final boolean[] fRel;
    private final long[] value;
    private final long[] expected;
    private final int[] opOf;       // the operation of each event (-1: an initial write)
    private final int[] accessOf;   // the event of each operation that the monitor checks (its last)
    private final int[][] seq;      // per thread, its events in po order
    private final long[] poAfter;   // events po-after each event
    private final long[] relFencesBefore;  // fences with a release part po-before each event
    private final long[] acqFencesAfter;   // fences with an acquire part po-after each event

    private final Set<String> seen = new HashSet<>();
    private long graphs;

    /** How a volatile access is read. */
    public enum Volatile {
        /** As the monitor reads it: an SC fence (RSAN's encoding), then the access in acquire/release mode. */
        LEADING_SC_FENCE,
        /**
         * As C11's seq_cst access (Lea: volatile is compatible with memory_order_seq_cst), by RC11's axiom
         * (Lahav et al. PLDI 2017): an acquire/release access, and acyclic(psc) where psc = [SC];scb;[SC],
         * scb = po ∪ po|≠loc;hb;po|≠loc ∪ hb|loc ∪ mo ∪ rb (the reference the monitor's reading is measured by)
         */
        RC11_SC
    }

    private final boolean rc11;
    private final boolean[] sc;     // a volatile access (RC11_SC only)

    /** The oracle for {@code program}, volatile read as the monitor reads it. */
    public RaOracle(JmmProgram program) {
        this(program, Volatile.LEADING_SC_FENCE);
    }

    /** The oracle for {@code program}, volatile read as {@code v} says. */
    public RaOracle(JmmProgram program, Volatile v) {
        this.program = program;
        this.rc11 = v == Volatile.RC11_SC;
        this.locations = program.locations();
        this.fenceLoc = locations;
        int ops = program.size();
        int max = locations + 1 + 2 * ops;
        if (max > 64) {
            throw new IllegalArgumentException("too large for the oracle's bit sets");
        }
        kind = new int[max];
        thread = new int[max];
        loc = new int[max];
        acq = new boolean[max];
        rel = new boolean[max];
        fAcq = new boolean[max];
        fRel = new boolean[max];
        value = new long[max];
        expected = new long[max];
        opOf = new int[max];
        sc = new boolean[max];
        accessOf = new int[ops];
        int e = 0;
        for (int l = 0; l <= locations; l++, e++) {
            kind[e] = INIT;
            loc[e] = l;
            thread[e] = -1;
            opOf[e] = -1;
        }
        seq = new int[program.threads().size()][];
        int g = 0;
        for (int t = 0; t < seq.length; t++) {
            List<Integer> mine = new ArrayList<>();
            for (JmmProgram.Op op : program.threads().get(t)) {
                boolean vol = op.mode() == AccessMode.VOLATILE;
                if ((vol && !rc11) || (op.kind() == JmmProgram.Kind.FENCE && op.fence() == FenceKind.FULL)) {
                    scFence(e, t, g);
                    mine.add(e++);
                }
                if (op.kind() != JmmProgram.Kind.FENCE || op.fence() != FenceKind.FULL) {
                    thread[e] = t;
                    opOf[e] = g;
                    loc[e] = op.loc();
                    value[e] = op.value();
                    expected[e] = op.expected();
                    switch (op.kind()) {
                        case LOAD -> kind[e] = R;
                        case STORE -> kind[e] = W;
                        case RMW -> kind[e] = U;
                        case CAS -> kind[e] = CAS;
                        case FENCE -> {
                            kind[e] = F;
                            fAcq[e] = op.fence().acquires();
                            fRel[e] = op.fence().releases();
                        }
                        case LOCK -> {
                            kind[e] = LOCK;
                            acq[e] = true;
                        }
                        case UNLOCK -> {
                            kind[e] = UNLOCK;
                            rel[e] = true;
                        }
                    }
                    if (op.mode() != null) {
                        acq[e] = op.mode().acquires();
                        rel[e] = op.mode().releases();
                    }
                    sc[e] = vol && rc11;
                    mine.add(e++);
                }
                accessOf[g] = e - 1;
                g++;
            }
            seq[t] = mine.stream().mapToInt(Integer::intValue).toArray();
        }
        n = e;
        poAfter = new long[n];
        relFencesBefore = new long[n];
        acqFencesAfter = new long[n];
        for (int[] s : seq) {
            for (int i = 0; i < s.length; i++) {
                for (int j = i + 1; j < s.length; j++) {
                    poAfter[s[i]] |= 1L << s[j];
                    if (fRel[s[i]]) {
                        relFencesBefore[s[j]] |= 1L << s[i];
                    }
                    if (fAcq[s[j]]) {
                        acqFencesAfter[s[i]] |= 1L << s[j];
                    }
                }
            }
        }
    }

    private void scFence(int e, int t, int g) {
        kind[e] = FSC;
        thread[e] = t;
        opOf[e] = g;
        loc[e] = fenceLoc;
        acq[e] = rel[e] = fAcq[e] = fRel[e] = true;
    }

    /** The program. */
    public JmmProgram program() {
        return program;
    }

    /** Graphs the last {@link #nonRobust()} built (for tuning). */
    public long graphs() {
        return graphs;
    }

    // ---- graphs ----

    /** An execution graph (a po ∪ rf-closed prefix of one). Shared arrays are never written after a copy. */
    public final class Graph {
        final int[] added;     // per thread, how many of its events are in the graph
        final int[] rf;        // per event, its source (-1: none, or not in the graph)
        final boolean[] ok;    // per compare-and-set event: it read its expected value and wrote
        final int[][] mo;      // per location (F's included), its writes in order, the initial one first
        final long present;

        Graph(int[] added, int[] rf, boolean[] ok, int[][] mo, long present) {
            this.added = added;
            this.rf = rf;
            this.ok = ok;
            this.mo = mo;
            this.present = present;
        }

        /** The compact text that identifies this graph (for memoizing). */
        String key() {
            StringBuilder b = new StringBuilder(64);
            for (int a : added) {
                b.append(a).append(',');
            }
            b.append('|');
            for (int e = 0; e < n; e++) {
                if ((present >>> e & 1) != 0 && rf[e] >= 0) {
                    b.append(e).append(':').append(rf[e]).append(ok[e] ? "+" : "").append(',');
                }
            }
            for (int[] order : mo) {
                b.append('|');
                for (int w : order) {
                    b.append(w).append(',');
                }
            }
            return b.toString();
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (int e = locations + 1; e < n; e++) {
                if ((present >>> e & 1) != 0) {
                    b.append(describe(e));
                    if (rf[e] >= 0) {
                        b.append(" reads ").append(describe(rf[e]));
                    }
                    b.append('\n');
                }
            }
            for (int l = 0; l < mo.length; l++) {
                b.append("mo ").append(l == fenceLoc ? "F" : JmmProgram.locationName(l)).append(':');
                for (int w : mo[l]) {
                    b.append(' ').append(describe(w));
                }
                b.append('\n');
            }
            return b.toString();
        }
    }

    private String describe(int e) {
        if (kind[e] == INIT) {
            return "init(" + (loc[e] == fenceLoc ? "F" : JmmProgram.locationName(loc[e])) + ")";
        }
        return "T" + thread[e] + "#" + opOf[e] + (kind[e] == FSC ? "(F_sc)" : "(" + program.op(opOf[e]) + ")");
    }

    /** The empty graph: only the initial writes. */
    Graph empty() {
        int[][] mo = new int[locations + 1][];
        long present = 0;
        for (int l = 0; l <= locations; l++) {
            mo[l] = new int[] {l};
            present |= 1L << l;
        }
        int[] rf = new int[n];
        Arrays.fill(rf, -1);
        return new Graph(new int[seq.length], rf, new boolean[n], mo, present);
    }

    private boolean reads(int e) {
        int k = kind[e];
        return k == R || k == U || k == CAS || k == FSC || k == LOCK;
    }

    private boolean writesIn(Graph g, int e) {
        int k = kind[e];
        return k == INIT || k == W || k == U || k == FSC || k == LOCK || k == UNLOCK || (k == CAS && g.ok[e]);
    }

    private boolean isUpdateIn(Graph g, int e) {
        int k = kind[e];
        return k == U || k == FSC || k == LOCK || (k == CAS && g.ok[e]);
    }

    private long valueOf(int w) {
        return switch (kind[w]) {
            case INIT, FSC, UNLOCK -> 0;
            case LOCK -> 1;
            default -> value[w];
        };
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code w} has been read by a read-modify-write (which then follows it in mo). */
    private boolean taken(Graph g, int w) {
        int[] order = g.mo[loc[w]];
        int i = indexOf(order, w);
        if (i + 1 >= order.length) {
            return false;
        }
        int next = order[i + 1];
        return isUpdateIn(g, next) && g.rf[next] == w;
    }

    /** The writes event {@code e} (not yet in {@code g}) may read, or be placed right after. */
    List<Integer> candidates(Graph g, int e) {
        List<Integer> out = new ArrayList<>();
        if (kind[e] == F) {
            out.add(-1);
            return out;
        }
        for (int w : g.mo[loc[e]]) {
            switch (kind[e]) {
                case R -> out.add(w);
                case W, UNLOCK, U, FSC -> {
                    if (!taken(g, w)) {
                        out.add(w);
                    }
                }
                case LOCK -> {
                    if (valueOf(w) == 0 && !taken(g, w)) {
                        out.add(w);
                    }
                }
                case CAS -> {
                    if (valueOf(w) != expected[e] || !taken(g, w)) {
                        out.add(w);
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
        return out;
    }

    /** {@code g} with event {@code e} added, reading {@code w} or placed right after it (for a write). */
    Graph add(Graph g, int e, int w) {
        int[] added = g.added.clone();
        added[thread[e]]++;
        long present = g.present | 1L << e;
        if (kind[e] == F) {
            return new Graph(added, g.rf, g.ok, g.mo, present);
        }
        int[] rf = g.rf;
        boolean[] ok = g.ok;
        boolean writes;
        boolean readsIt = reads(e);
        if (kind[e] == CAS) {
            ok = g.ok.clone();
            ok[e] = valueOf(w) == expected[e];
            writes = ok[e];
        } else {
            writes = kind[e] != R;
        }
        if (readsIt) {
            rf = g.rf.clone();
            rf[e] = w;
        }
        int[][] mo = g.mo;
        if (writes) {
            mo = g.mo.clone();
            int[] old = g.mo[loc[e]];
            int at = indexOf(old, w) + 1;
            int[] order = new int[old.length + 1];
            System.arraycopy(old, 0, order, 0, at);
            order[at] = e;
            System.arraycopy(old, at, order, at + 1, old.length - at);
            mo[loc[e]] = order;
        }
        return new Graph(added, rf, ok, mo, present);
    }

    // ---- the axioms ----

    /** Whether {@code g} is consistent: coherence and atomicity (po ∪ rf is acyclic by construction). */
    boolean consistent(Graph g) {
        long[] eco = new long[n];
        long[] hb = new long[n];
        long present = g.present;
        // rf, mo, rb
        for (int[] order : g.mo) {
            for (int i = 0; i < order.length; i++) {
                for (int j = i + 1; j < order.length; j++) {
                    eco[order[i]] |= 1L << order[j];
                }
            }
        }
        for (int e = 0; e < n; e++) {
            int w = g.rf[e];
            if ((present >>> e & 1) == 0 || w < 0) {
                continue;
            }
            eco[w] |= 1L << e;
            int[] order = g.mo[loc[e]];
            for (int i = indexOf(order, w) + 1; i < order.length; i++) {
                if (order[i] != e) {
                    eco[e] |= 1L << order[i];
                }
            }
            if (isUpdateIn(g, e) && indexOf(order, e) != indexOf(order, w) + 1) {
                return false; // atomicity
            }
        }
        long[] moRb = rc11 ? eco.clone() : null; // mo and rb (rf is added below)
        if (rc11) {
            for (int e = 0; e < n; e++) {
                if ((present >>> e & 1) != 0 && g.rf[e] >= 0 && !isUpdateIn(g, e)) {
                    moRb[g.rf[e]] &= ~(1L << e); // rf only: a read-modify-write's source is also mo-before it
                }
            }
        }
        closure(eco);
        // po, the initial writes before everything, and sw
        long inits = (1L << (locations + 1)) - 1;
        for (int e = 0; e < n; e++) {
            if ((present >>> e & 1) == 0) {
                continue;
            }
            hb[e] = kind[e] == INIT ? present & ~inits : poAfter[e] & present;
        }
        // sw: what the readers of each write synchronize (the read if acquire, acquire fences po-after it)
        long[] readerTails = new long[n];
        for (int r = 0; r < n; r++) {
            if ((present >>> r & 1) != 0 && g.rf[r] >= 0) {
                readerTails[g.rf[r]] |= (acq[r] ? 1L << r : 0) | (acqFencesAfter[r] & present);
            }
        }
        for (int[] order : g.mo) {
            for (int i = 1; i < order.length; i++) {
                int w = order[i];
                long heads = (rel[w] ? 1L << w : 0) | (relFencesBefore[w] & present);
                if (heads == 0) {
                    continue;
                }
                // the release sequence: w, then the read-modify-writes that follow it in mo, each reading the one before
                long tails = readerTails[w];
                for (int j = i + 1; j < order.length && isUpdateIn(g, order[j]) && g.rf[order[j]] == order[j - 1]; j++) {
                    tails |= readerTails[order[j]];
                }
                while (heads != 0) {
                    int h = Long.numberOfTrailingZeros(heads);
                    heads &= heads - 1;
                    hb[h] |= tails;
                }
            }
        }
        closure(hb);
        for (int a = 0; a < n; a++) {
            if ((present >>> a & 1) == 0) {
                continue;
            }
            if ((hb[a] >>> a & 1) != 0) {
                return false;
            }
            long later = hb[a];
            while (later != 0) {
                int b = Long.numberOfTrailingZeros(later);
                later &= later - 1;
                if ((eco[b] >>> a & 1) != 0) {
                    return false; // coherence: hb(a,b) and eco(b,a)
                }
            }
        }
        return !rc11 || pscAcyclic(g, hb, moRb);
    }

    /** RC11's SC axiom over the volatile accesses: acyclic([SC];scb;[SC]). */
    private boolean pscAcyclic(Graph g, long[] hb, long[] moRb) {
        long present = g.present;
        long scs = 0;
        for (int e = 0; e < n; e++) {
            if ((present >>> e & 1) != 0 && sc[e]) {
                scs |= 1L << e;
            }
        }
        if (Long.bitCount(scs) < 2) {
            return true;
        }
        long[] psc = new long[n];
        for (int a = 0; a < n; a++) {
            if ((scs >>> a & 1) == 0) {
                continue;
            }
            long out = (poAfter[a] | moRb[a]) & present;
            // hb|loc
            long h = hb[a];
            while (h != 0) {
                int b = Long.numberOfTrailingZeros(h);
                h &= h - 1;
                if (loc[b] == loc[a]) {
                    out |= 1L << b;
                }
            }
            // po|≠loc ; hb ; po|≠loc
            long cs = poAfter[a] & present;
            long mid = 0;
            while (cs != 0) {
                int c = Long.numberOfTrailingZeros(cs);
                cs &= cs - 1;
                if (loc[c] != loc[a]) {
                    mid |= hb[c];
                }
            }
            while (mid != 0) {
                int d = Long.numberOfTrailingZeros(mid);
                mid &= mid - 1;
                long bs = poAfter[d] & present;
                while (bs != 0) {
                    int b = Long.numberOfTrailingZeros(bs);
                    bs &= bs - 1;
                    if (loc[b] != loc[d]) {
                        out |= 1L << b;
                    }
                }
            }
            psc[a] = out & scs;
        }
        closure(psc);
        for (int a = 0; a < n; a++) {
            if ((psc[a] >>> a & 1) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code g} is sequentially consistent: acyclic(po ∪ rf ∪ mo ∪ rb) off the SC fences' location. */
    boolean sequentiallyConsistent(Graph g) {
        long[] r = new long[n];
        long present = g.present;
        for (int e = 0; e < n; e++) {
            if ((present >>> e & 1) != 0) {
                r[e] = poAfter[e] & present;
            }
        }
        for (int l = 0; l < locations; l++) {
            int[] order = g.mo[l];
            for (int i = 0; i + 1 < order.length; i++) {
                r[order[i]] |= 1L << order[i + 1];
            }
        }
        for (int e = 0; e < n; e++) {
            int w = g.rf[e];
            if ((present >>> e & 1) == 0 || w < 0 || loc[e] == fenceLoc) {
                continue;
            }
            r[w] |= 1L << e;
            int[] order = g.mo[loc[e]];
            int i = indexOf(order, w) + 1;
            if (i < order.length && order[i] == e) {
                i++; // a read-modify-write is not rb-before itself
            }
            if (i < order.length) {
                r[e] |= 1L << order[i];
            }
        }
        closure(r);
        for (int e = 0; e < n; e++) {
            if ((r[e] >>> e & 1) != 0) {
                return false;
            }
        }
        return true;
    }

    private void closure(long[] rel) {
        for (int k = 0; k < n; k++) {
            long bit = 1L << k;
            long rk = rel[k];
            for (int i = 0; i < n; i++) {
                if ((rel[i] & bit) != 0) {
                    rel[i] |= rk;
                }
            }
        }
    }

    // ---- question 1: is the program robust? ----

    /** A consistent graph of the program that is not SC (possibly a prefix, which extends to a whole one), or null. */
    public Graph nonRobust() {
        seen.clear();
        graphs = 0;
        return explore(empty());
    }

    private Graph explore(Graph g) {
        if (!seen.add(g.key())) {
            return null;
        }
        graphs++;
        if (!sequentiallyConsistent(g)) {
            return g;
        }
        for (int t = 0; t < seq.length; t++) {
            if (g.added[t] == seq[t].length) {
                continue;
            }
            int e = seq[t][g.added[t]];
            for (int w : candidates(g, e)) {
                Graph h = add(g, e, w);
                if (consistent(h)) {
                    Graph found = explore(h);
                    if (found != null) {
                        return found;
                    }
                }
            }
        }
        return null;
    }

    // ---- question 2: what may the next operation of an SC run do instead? ----

    /**
     * The graph of the SC run that executes the operations of the threads in {@code order} (a thread
     * number per operation), its first {@code steps} operations; null if a lock operation would block.
     */
    public Graph scPrefix(int[] order, int steps) {
        Graph g = empty();
        for (int s = 0; s < steps && g != null; s++) {
            g = scStep(g, order[s]);
        }
        return g;
    }

    /**
     * {@code g} (an SC run's graph) after thread {@code t}'s next operation, as SC runs it: each event reads
     * its location's last write, each write goes last; null if a lock operation would block.
     */
    public Graph scStep(Graph g, int t) {
        int stop = accessOf[opNumber(t, g)];
        while (true) {
            int e = seq[t][g.added[t]];
            int[] m = kind[e] == F ? null : g.mo[loc[e]];
            int last = m == null ? -1 : m[m.length - 1];
            if (kind[e] == LOCK && valueOf(last) != 0) {
                return null;
            }
            g = add(g, e, last);
            if (e == stop) {
                return g;
            }
        }
    }

    /** The number of thread {@code t}'s next operation in {@code g}. */
    private int opNumber(int t, Graph g) {
        return opOf[seq[t][g.added[t]]];
    }

    /**
     * For the SC prefix {@code g}, whose next operation of thread {@code t} is {@code op} (with its SC fence,
     * if volatile, taken as in the SC run): each write (an operation number, {@link
     * RobustnessViolation#INITIAL} for the initial value) that the operation's access may instead read or
     * follow such that the graph is consistent and not SC.
     */
    public List<Long> alternatives(Graph g, int t) {
        g = withLeadingFence(g, t);
        int e = seq[t][g.added[t]];
        List<Long> out = new ArrayList<>();
        if (kind[e] == F) {
            return out;
        }
        int[] m = g.mo[loc[e]];
        int last = m[m.length - 1];
        for (int w : candidates(g, e)) {
            if (w == last) {
                continue; // the SC run's choice
            }
            Graph h = add(g, e, w);
            if (consistent(h) && !sequentiallyConsistent(h)) {
                out.add(kind[w] == INIT ? RobustnessViolation.INITIAL : opOf[w]);
            }
        }
        return out;
    }

    /** {@code g} with thread {@code t}'s next operation's leading SC fence (a volatile one's) added as the SC run takes it. */
    private Graph withLeadingFence(Graph g, int t) {
        int e = seq[t][g.added[t]];
        if (e == accessOf[opOf[e]]) {
            return g;
        }
        int[] m = g.mo[fenceLoc];
        return add(g, e, m[m.length - 1]);
    }

    /** Whether {@code g} (an SC prefix) is consistent and SC, as every SC run's graph must be. */
    public boolean scAndConsistent(Graph g) {
        return consistent(g) && sequentiallyConsistent(g);
    }

    // ---- question 3: does a re-read validate a stale read? ----

    /**
     * For the SC prefix {@code g}, whose next operation of thread {@code t} is a read the monitor reports as stale:
     * whether in every graph made of {@code g}, that read reading another write than the SC run's such that the graph is
     * consistent and not SC (each alternative of {@link #alternatives}), and {@code t}'s operations after it up to
     * operation {@code second} (each reading any write that keeps the graph consistent), {@code second} reads another
     * write than operation {@code first} (an earlier read of {@code t}, in {@code g}) read. Other threads' later
     * operations are left out: they only add constraints, and a consistent graph without them extends to a whole one.
     */
    public boolean validated(Graph g, int t, int first, int second) {
        g = withLeadingFence(g, t);
        int e = seq[t][g.added[t]];
        int[] m = g.mo[loc[e]];
        int last = m[m.length - 1];
        int source = g.rf[accessOf[first]];
        for (int w : candidates(g, e)) {
            if (w == last) {
                continue;
            }
            Graph h = add(g, e, w);
            if (consistent(h) && !sequentiallyConsistent(h) && !differs(h, t, accessOf[second], source)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every consistent way to add {@code t}'s events up to {@code second} has it read another write than {@code source}. */
    private boolean differs(Graph g, int t, int second, int source) {
        int e = seq[t][g.added[t]];
        for (int w : candidates(g, e)) {
            Graph h = add(g, e, w);
            if (!consistent(h)) {
                continue;
            }
            if (e == second ? h.rf[e] == source : !differs(h, t, second, source)) {
                return false;
            }
        }
        return true;
    }
}
