package dev.mmcheck.checker.serial;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.serial.TsoGraph.Addr;
import dev.mmcheck.checker.serial.TsoGraph.Chain;
import dev.mmcheck.checker.serial.TsoGraph.DEdge;
import dev.mmcheck.checker.serial.TsoGraph.Ev;
import dev.mmcheck.checker.serial.TsoGraph.Th;
import dev.mmcheck.checker.serial.TsoGraph.Tx;
import dev.mmcheck.checker.serial.TsoGraph.UEdge;
import dev.mmcheck.runtime.Kinds;

import static dev.mmcheck.checker.serial.TsoGraph.F;
import static dev.mmcheck.checker.serial.TsoGraph.NO_LANE;
import static dev.mmcheck.checker.serial.TsoGraph.R;
import static dev.mmcheck.checker.serial.TsoGraph.R_LANE;
import static dev.mmcheck.checker.serial.TsoGraph.W;
import static dev.mmcheck.checker.serial.TsoGraph.W_LANE;
import static dev.mmcheck.checker.serial.TsoGraph.X;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;

/**
 * TSO-serializability of the observed trace, on the fly (Enea-Farzan Sec. 5-6; docs/serializability.md).
 *
 * <p>The trace event graph EG_τ of Def. 4: a directed edge for the conflicts every TSO execution of
 * the trace orders the same way (⊙→: two events of one thread, except a write before a read of another
 * address and a buffered read before a read of another address; two conflicting events of two threads
 * separated by a fence of the first one's thread; an unbuffered read before a later write of the same
 * address), an undirected edge for the other conflicts of two threads (⊙↔). The trace is not
 * TSO-serializable iff some cycle of the transaction conflict graph CG_τ (Def. 5) orients its
 * undirected edges so that the directed edges plus those orientations stay acyclic (Corollary 1): then
 * a valid orientation of EG_τ induces it, and it is an execution whose writes commit at those points.
 *
 * <p>Both graphs grow with the stream; a new violation must use an edge of the newest event, so each
 * new edge between two transactions starts a search for a cycle through it: first along directed
 * edges alone (the cheap case of Sec. 6.2; such a closing edge is then left out, keeping the directed
 * graph acyclic as the paper's search assumes), then the simple-cycle witness search: directed
 * stretches joined by undirected edges, each chain of the directed graph visited at most once
 * (Prop. 3-5), each chosen orientation checked against the directed edges (Prop. 3(i) and validity).
 * Searches are bounded by {@link SerialConfig#searchSteps()}; a cut search is counted and the notes
 * say so. While every transaction has ended with a fence (transaction-fenced, Sec. 6.3) and the TSO
 * monitor runs, only observed orientations are searched (Theorem 3: TSO-serializability is then
 * SC-serializability plus robustness, and robustness is the TSO monitor's check).
 *
 * <p>Reachability along directed edges uses vector clocks over two chains per thread (its writes and
 * fences, its unbuffered reads: each totally ordered by ⊙→); a buffered read, which is on neither,
 * is reached through its few direct successors. Java operations map to the paper's events as
 * docs/serializability.md says. Checker thread only; thread and address ids are dense slots.
 */
public final class TsoSerializability extends Analyzer {

    /** Buffered reads of distinct addresses a thread's frontier holds before its buffer is taken to drain. */
    private static final int FRONTIER_BOUND = 64;

    private final SerialConfig config;
    private final boolean robustnessChecked;
    private final TxPool<Tx> pool;
    private final WitnessSearch search;

    private Th[] threads = new Th[8];
    private Addr[] addresses = new Addr[64];
    private long seq;
    private int doneMark;
    private boolean fencedSoFar = true;
    private boolean anyTransaction;

    private long transactions;
    private long forgotten;
    private long bufferCommits;
    private long frontierDrains;
    private long pairsCapped;
    private long resets;

    // scratch of node() and sweep(), reused so that the steady state allocates only what the graph keeps;
    // node() calls itself (the virtual fence) only after it is done with them
    private final ArrayList<Ev> sameScratch = new ArrayList<>();
    private final ArrayList<Ev> directedScratch = new ArrayList<>();
    private final ArrayList<Ev> undirectedScratch = new ArrayList<>();
    private final ArrayList<DEdge> freshScratch = new ArrayList<>();
    private final ArrayList<UEdge> freshUScratch = new ArrayList<>();
    // undirected conflicts per transaction into a transaction outside atomic methods (its only event)
    private final ArrayList<Tx> pairTx = new ArrayList<>();
    private int[] pairCount = new int[8];
    private boolean[] keepScratch = new boolean[64];
    private long settles; // moves of any thread's settled position ever (never reset): prune() passes when it changed

    /**
     * A check reporting to {@code sink}; {@code robustnessChecked} says whether the TSO monitor runs on
     * the same stream, which the shortcut of Theorem 3 relies on.
     */
    public TsoSerializability(FindingSink sink, SerialConfig config, boolean robustnessChecked) {
        this.config = config;
        this.robustnessChecked = robustnessChecked;
        this.search = new WitnessSearch(sink, config,
                () -> config.fencedShortcut() && robustnessChecked && fencedSoFar);
        this.pool = new TxPool<>(new TxPool.Graph<>() {
            @Override
            public boolean collectible(Tx x) {
                return x.alive && !x.active && x.in == 0 && (x.und == null || x.und.isEmpty())
                        && x.sealedBy(th(x.thread));
            }

            @Override
            public void release(Tx x, ArrayDeque<Tx> work) {
                for (DEdge e : x.out) {
                    Tx y = e.to();
                    if (y.alive) {
                        y.in--;
                        if (y.in == 0) {
                            work.push(y);
                        }
                    }
                }
                x.out.clear();
                if (x.und != null) {
                    for (UEdge u : x.und) {
                        Tx y = u.other(x).tx;
                        if (y.alive && y.und != null) {
                            y.und.remove(u);
                            if (y.und.isEmpty()) {
                                work.push(y);
                            }
                        }
                    }
                    x.und = null;
                }
            }
        }, config.maxLiveTransactions());
    }

    // ---------------------------------------------------------------------------------------- events

    /** Processes one event of the stream (a {@link Codes} kind; thread and address ids are slots). */
    public void event(int kind, int t, int operand, int site, long seq) {
        this.seq = seq;
        search.startEvent(seq);
        growThreads(Math.max(t, kind == Kinds.THREAD_START || kind == Kinds.THREAD_JOIN ? operand : 0) + 1);
        Th th = th(t);
        switch (kind) {
            case Kinds.TX_BEGIN -> {
                if (th.depth++ == 0) {
                    Tx x = newTx(t, site, true);
                    x.active = true;
                    th.cur = x;
                    transactions++;
                    anyTransaction = true;
                }
            }
            case Kinds.TX_END -> {
                if (th.depth > 0 && --th.depth == 0) {
                    Tx x = th.cur;
                    th.cur = null;
                    finish(x, th);
                }
            }
            case Kinds.ADDRESS_DEAD -> {
                if (operand >= 0 && operand < addresses.length) {
                    addresses[operand] = null;
                }
            }
            case Kinds.LOAD -> node(t, R, false, operand, kind, site, null);
            case Kinds.STORE, Kinds.RELEASE_STORE -> node(t, W, true, operand, kind, site, null);
            case Kinds.VOLATILE_STORE, Kinds.INTERLOCKED, Kinds.MONITOR_ENTER, Kinds.MONITOR_EXIT ->
                    node(t, X, true, operand, kind, site, null);
            case Kinds.FULL_FENCE -> node(t, F, false, -1, kind, site, null);
            case Kinds.THREAD_START -> {
                // interlocked by t on S_u, then u's begin, interlocked on S_u (docs/mapping.md)
                Ev s = node(t, X, false, -1, kind, site, null);
                if (operand >= 0 && operand != t) {
                    node(operand, F, false, -1, kind, site, s);
                }
            }
            case Kinds.THREAD_JOIN -> {
                // u's end, interlocked on J_u, then t's return from join, interlocked on J_u
                Ev end = operand >= 0 && operand != t ? node(operand, F, false, -1, Kinds.THREAD_END, site, null)
                        : null;
                node(t, X, false, -1, kind, site, end);
            }
            case Kinds.THREAD_END -> {
                node(t, F, false, -1, kind, site, null);
                if (th.depth > 0) {
                    th.depth = 0;
                    Tx x = th.cur;
                    th.cur = null;
                    finish(x, th);
                }
            }
            default -> {
                // StoreStore and load fences: nothing under TSO
            }
        }
        pool.sweep();
    }

    /** Adds one event of thread {@code t} to the graphs; {@code from} is an extra directed predecessor. */
    private Ev node(int t, byte kind, boolean writes, int addr, int code, int site, Ev from) {
        Th th = th(t);
        Tx tx = th.cur;
        if (tx == null) {
            tx = newTx(t, site, false);
        }
        Ev v = new Ev(seq, t, kind, writes, addr, code, site, tx, th.epoch, th.po++);
        List<Ev> same = sameScratch;
        same.clear();
        int[] vc;
        Addr a = kind == R || kind == W || (kind == X && addr >= 0) ? address(addr) : null;
        if (kind == R) {
            Ev own = newestOwn(a, t);
            v.buffered = own != null && own.epoch == th.epoch && (own.kind == W || (own.kind == R && own.buffered));
            vc = copy(th.fxVc);
            vc = join(vc, th.unbufVc);
            if (own != null) {
                vc = join(vc, own.vc);
                same.add(own);
                if (own.kind == R && own.buffered) {
                    own.nextSame = v;
                }
            }
            if (th.lastFX != null) {
                same.add(th.lastFX);
            }
            if (th.lastUnbufR != null) {
                same.add(th.lastUnbufR);
            }
        } else {
            vc = copy(th.all);
            for (int i = 0; i < th.frontier.size(); i++) {
                same.add(th.frontier.get(i));
            }
        }
        if (from != null) {
            vc = join(vc, from.vc);
        }
        List<Ev> directed = directedScratch;
        List<Ev> undirected = undirectedScratch;
        directed.clear();
        undirected.clear();
        if (a != null) {
            if (a.summary != null) {
                vc = join(vc, a.summary);
            }
            int m = ++doneMark;
            List<Ev> es = a.entries;
            // a read conflicts only with writes: with none remembered the scan would skip every entry
            for (int i = writes || a.writers > 0 ? es.size() - 1 : -1; i >= 0; i--) {
                Ev u = es.get(i);
                if (u.thread == t) {
                    continue;
                }
                Th p = th(u.thread);
                if (p.done == m || !(u.writes || writes)) {
                    continue;
                }
                boolean fenced = p.settled(u);
                if (fenced || (u.kind == R && !u.buffered && writes)) {
                    p.done = m; // u's thread's older accesses of this address all reach u
                    vc = join(vc, u.vc);
                    directed.add(u);
                    if (u.kind == R && u.buffered) {
                        if (u.succ == null) {
                            u.succ = new ArrayList<>(2);
                        }
                        u.succ.add(v);
                    }
                } else {
                    undirected.add(u);
                }
            }
        }
        if (kind == R) {
            if (v.buffered) {
                v.lane = NO_LANE;
                v.nextWF = th.wPos + 1;
            } else {
                v.lane = R_LANE;
                v.pos = ++th.rPos;
                vc = set(vc, 2 * t + 1, v.pos);
            }
        } else {
            v.lane = W_LANE;
            v.pos = ++th.wPos;
            vc = set(vc, 2 * t, v.pos);
        }
        v.vc = vc;

        // conflict-graph edges, then the thread's state, then searches for cycles through the new edges
        List<DEdge> fresh = freshScratch;
        fresh.clear();
        for (int i = 0; i < same.size(); i++) {
            addDirected(same.get(i), v, fresh);
        }
        if (from != null) {
            addDirected(from, v, fresh);
        }
        for (int i = 0; i < directed.size(); i++) {
            addDirected(directed.get(i), v, fresh);
        }
        List<UEdge> freshU = freshUScratch;
        freshU.clear();
        pairTx.clear();
        for (int i = 0; i < undirected.size(); i++) {
            addUndirected(undirected.get(i), v, freshU);
        }
        if (tx.chain == null) {
            new Chain().add(tx); // outside atomic methods and not adopted by its thread's previous chain
        }
        th.all = join(th.all, vc);
        switch (kind) {
            case W -> {
                th.frontier.clear();
                th.frontier.add(v);
                th.pending.add(v.po);
            }
            case X, F -> {
                th.frontier.clear();
                th.frontier.add(v);
                th.lastFX = v;
                th.fxVc = vc;
                th.pending.clear();
            }
            default -> {
                ArrayList<Ev> f = th.frontier;
                int w = 0;
                for (int i = 0; i < f.size(); i++) {
                    Ev e = f.get(i);
                    if (!precedesRead(e, v)) {
                        f.set(w++, e);
                    }
                }
                truncate(f, w);
                f.add(v);
                if (!v.buffered) {
                    th.lastUnbufR = v;
                    th.unbufVc = vc;
                }
            }
        }
        tx.lastEv = v;
        if (a != null) {
            a.entries.add(v);
            if (v.writes) {
                a.writers++;
            }
            prune(a);
        }
        if (kind == X || kind == F) {
            th.epoch++;
            settle(th, v.po + 1);
        } else if (th.pending.size() > config.bufferBound()) {
            // the bounded buffer is full: its oldest store commits, as a FIFO store buffer's would (a
            // legal TSO step, so reports stay sound); the newest stores stay buffered
            th.pending.removeFirst();
            bufferCommits++;
            settle(th, th.pending.first());
        }
        if (!tx.active) {
            finish(tx, th); // an event outside atomic methods is a whole transaction
        }
        for (int i = 0; i < fresh.size(); i++) {
            search.searchFrom(fresh.get(i));
        }
        for (int i = 0; i < freshU.size(); i++) {
            search.searchFrom(freshU.get(i));
        }
        if (kind != F && th.frontier.size() > FRONTIER_BOUND) {
            // too many buffered reads, each to be ordered before the thread's next store: the thread's
            // buffer drains here, a fence the program does not have, which only removes executions (a
            // legal TSO step), so reports stay sound; rare, and noted apart from the buffer bound
            frontierDrains++;
            node(t, F, false, -1, Kinds.FULL_FENCE, site, null);
        }
        return v;
    }

    /** Whether e (earlier, same thread) has a ⊙→ edge to the read {@code r}. */
    private static boolean precedesRead(Ev e, Ev r) {
        if (e.addr == r.addr && e.kind != F) {
            return true;
        }
        return !(e.kind == W || (e.kind == R && e.buffered));
    }

    /** Drops the elements of {@code list} from {@code size} on, from the back (no shifting, no view). */
    private static <T> void truncate(ArrayList<T> list, int size) {
        for (int i = list.size() - 1; i >= size; i--) {
            list.remove(i);
        }
    }

    private Ev newestOwn(Addr a, int t) {
        List<Ev> es = a.entries;
        for (int i = es.size() - 1; i >= 0; i--) {
            if (es.get(i).thread == t) {
                return es.get(i);
            }
        }
        return null;
    }

    /**
     * Keeps an address's accesses that can still matter: per thread, those after its last fence (each an
     * undirected conflict to come) and the newest before it, write and any (the order the others keep);
     * beyond the bound the oldest is forgotten, keeping what it orders in the summary clock.
     */
    private void prune(Addr a) {
        if (a.prunedAt != settles) {
            a.prunedAt = settles;
            a.writers = keepOnly(a.entries);
        }
        // else no thread's settled position moved since the last pass, which kept every entry then, and
        // the one added since is not settled: an entry's fate depends only on the settled positions and
        // on the newer settled entries of its thread, so the pass would keep them all again
        forgetBeyondBound(a);
    }

    /** Drops the entries that can no longer matter; returns how many of the kept ones write. */
    private int keepOnly(ArrayList<Ev> es) {
        int m = ++doneMark;
        int n = es.size();
        if (keepScratch.length < n) {
            keepScratch = new boolean[Math.max(n, 2 * keepScratch.length)];
        }
        boolean[] kept = keepScratch;
        // decided newest to oldest, then packed to the front in order
        for (int i = n - 1; i >= 0; i--) {
            Ev u = es.get(i);
            Th p = th(u.thread);
            boolean keep;
            if (!p.settled(u)) {
                keep = true; // not fence-separated from what comes: an undirected conflict to come
            } else {
                if (p.pruneMark != m) {
                    p.pruneMark = m;
                    p.pruneBits = 0;
                }
                // the newest fenced access orders later writes, the newest fenced write later reads
                keep = (p.pruneBits & 1) == 0 || (u.writes && (p.pruneBits & 2) == 0);
                p.pruneBits |= u.writes ? 3 : 1;
            }
            kept[i] = keep;
        }
        int w = 0;
        int writers = 0;
        for (int i = 0; i < n; i++) {
            if (kept[i]) {
                Ev u = es.get(i);
                es.set(w++, u);
                writers += u.writes ? 1 : 0;
            }
        }
        truncate(es, w);
        return writers;
    }

    private void forgetBeyondBound(Addr a) {
        ArrayList<Ev> es = a.entries;
        while (es.size() > config.entriesPerAddress()) {
            Ev u = es.remove(0);
            forgotten++;
            if (u.writes) {
                a.writers--;
            }
            a.summary = join(a.summary == null ? new int[0] : a.summary, u.vc);
            if (u.kind == R && u.buffered) {
                u.saturated = true; // its edges to later writes are no longer recorded: assume it reaches them
            }
        }
    }

    // ------------------------------------------------------------------------------- transactions

    private Tx newTx(int t, int site, boolean atomic) {
        Th th = th(t);
        Tx x = new Tx(t, site, atomic);
        if (atomic) {
            new Chain().add(x); // outside atomic methods, node() gives it one once its edges are in
        }
        x.prevInThread = th.newest;
        th.newest = x;
        pool.add(x);
        return x;
    }

    private void finish(Tx x, Th th) {
        if (x == null) {
            return;
        }
        x.active = false;
        x.inFrom = null;
        x.pairs = null;
        if (x.lastEv != null && x.lastEv.kind != F && x.lastEv.kind != X) {
            fencedSoFar = false;
        }
        if (x.sealedBy(th)) {
            pool.maybeCollectible(x);
        } else {
            th.unsealed.add(x);
        }
    }

    /**
     * Moves {@code th}'s settled position to {@code po} (a fence, or its buffer's oldest store committed)
     * and offers the transactions now settled to the pool.
     */
    private void settle(Th th, int po) {
        th.settledPo = po;
        settles++;
        while (!th.unsealed.isEmpty() && th.unsealed.peekFirst().sealedBy(th)) {
            pool.maybeCollectible(th.unsealed.pollFirst());
        }
    }

    private void addDirected(Ev u, Ev v, List<DEdge> fresh) {
        Tx from = u.tx;
        Tx to = v.tx;
        if (from == to || !from.alive || !to.alive) {
            return;
        }
        if (to.lastFrom == from) {
            return;
        }
        if (to.active) {
            if (to.inFrom == null) {
                to.inFrom = new HashSet<>();
            }
            if (!to.inFrom.add(from)) {
                return;
            }
        }
        to.lastFrom = from;
        DEdge e = new DEdge(to, u, v);
        // the cheap case: a cycle of directed edges alone
        if (search.closesDirectedCycle(e, from, to)) {
            return;
        }
        from.out.add(e);
        to.in++;
        if (!to.adopted && from == to.prevInThread && from.chain.end() == from.chainPos + 1
                && (to.chain == null || to.chain.txs.size() == 1)) {
            // consecutive transactions of a thread ordered by ⊙→: one chain
            from.chain.add(to);
            to.chainEdge = e;
            to.adopted = true;
        }
        fresh.add(e);
    }

    private void addUndirected(Ev u, Ev v, List<UEdge> fresh) {
        Tx a = u.tx;
        Tx b = v.tx;
        if (a == b || !a.alive || !b.alive) {
            return;
        }
        if (b.active) {
            if (b.pairs == null) {
                b.pairs = new HashMap<>();
            }
            int n = b.pairs.getOrDefault(a, 0);
            if (n >= config.edgesPerPair()) {
                pairsCapped++;
                return;
            }
            b.pairs.put(a, n + 1);
        } else {
            // outside atomic methods b has this one event: its pairs live for this node() call only
            int k = pairTx.indexOf(a);
            if (k < 0) {
                k = pairTx.size();
                pairTx.add(a);
                if (k >= pairCount.length) {
                    pairCount = Arrays.copyOf(pairCount, 2 * pairCount.length);
                }
                pairCount[k] = 0;
            }
            if (pairCount[k] >= config.edgesPerPair()) {
                pairsCapped++;
                return;
            }
            pairCount[k]++;
        }
        UEdge e = new UEdge(u, v);
        if (a.und == null) {
            a.und = new ArrayList<>(2);
        }
        if (b.und == null) {
            b.und = new ArrayList<>(2);
        }
        a.und.add(e);
        b.und.add(e);
        fresh.add(e);
    }

    // --------------------------------------------------------------------------- clocks and state

    private static int[] copy(int[] vc) {
        return vc.clone();
    }

    /** vc ⊔= o; returns vc, or a longer copy when o is longer. */
    private static int[] join(int[] vc, int[] o) {
        if (o == null) {
            return vc;
        }
        if (o.length > vc.length) {
            vc = Arrays.copyOf(vc, o.length);
        }
        for (int i = 0; i < o.length; i++) {
            if (o[i] > vc[i]) {
                vc[i] = o[i];
            }
        }
        return vc;
    }

    private static int[] set(int[] vc, int i, int value) {
        if (i >= vc.length) {
            vc = Arrays.copyOf(vc, i + 1);
        }
        vc[i] = Math.max(vc[i], value);
        return vc;
    }

    private Th th(int t) {
        Th th = threads[t];
        if (th == null) {
            th = new Th();
            threads[t] = th;
        }
        return th;
    }

    private Addr address(int a) {
        if (a >= addresses.length) {
            addresses = Arrays.copyOf(addresses, Math.max(a + 1, addresses.length * 2));
        }
        Addr x = addresses[a];
        if (x == null) {
            x = new Addr();
            addresses[a] = x;
        }
        return x;
    }

    private void growThreads(int n) {
        if (n > threads.length) {
            threads = Arrays.copyOf(threads, Math.max(n, threads.length * 2));
        }
    }

    /**
     * Forgets everything (the checker renumbers its thread slots: {@code slotOf[old]} is the new slot of
     * old slot {@code old}, or -1): a transaction running across the reset continues as a new one.
     */
    public void reset(int[] slotOf) {
        resets++;
        Th[] old = threads;
        threads = new Th[old.length];
        pool.clear();
        Arrays.fill(addresses, null);
        for (int o = 0; o < slotOf.length && o < old.length; o++) {
            int s = slotOf[o];
            if (s >= 0 && old[o] != null && old[o].depth > 0) {
                growThreads(s + 1);
                Th th = th(s);
                th.depth = old[o].depth;
                Tx x = newTx(s, old[o].cur == null ? -1 : old[o].cur.site, true);
                x.active = true;
                th.cur = x;
            }
        }
    }

    /** Atomic-method transactions seen. */
    public long transactions() {
        return transactions;
    }

    /** Cycles found (before deduplication). */
    public long cycles() {
        return search.cycles();
    }

    /** Witness searches run. */
    public long searches() {
        return search.searches();
    }

    /** Searches cut at the bound. */
    public long searchesCut() {
        return search.searchesCut();
    }

    /** Transactions in the graph now (for tests of bounded memory). */
    public long live() {
        return pool.live();
    }

    /** Whether every transaction so far ended with a fence (Sec. 6.3). */
    public boolean transactionFenced() {
        return fencedSoFar && anyTransaction;
    }

    /** Things the user should know: bounds reached, the shortcut taken. */
    public List<Note> notes() {
        List<Note> notes = new ArrayList<>();
        long searchesCut = search.searchesCut();
        if (searchesCut > 0) {
            notes.add(Note.degraded("search-cut", "tsoser", searchesCut, "tsoser: " + searchesCut + " of "
                    + search.searches()
                    + " witness searches stopped at the bound of " + config.searchSteps()
                    + " steps: the trace may not be TSO-serializable although nothing more is reported"));
        }
        long dropped = pool.dropped();
        if (dropped > 0) {
            notes.add(Note.degraded("transactions-dropped", "tsoser", dropped, "tsoser: " + dropped
                    + " finished transactions dropped at the bound of " + config.maxLiveTransactions()
                    + " live ones; cycles through them are not searched"));
        }
        if (forgotten > 0) {
            notes.add(Note.degraded("accesses-forgotten", "tsoser", forgotten, "tsoser: " + forgotten
                    + " accesses forgotten at the bound of " + config.entriesPerAddress()
                    + " per address (their conflicts with later accesses are not searched)"));
        }
        if (pairsCapped > 0) {
            notes.add(Note.degraded("conflicts-capped", "tsoser", pairsCapped, "tsoser: " + pairsCapped
                    + " undirected conflicts beyond " + config.edgesPerPair()
                    + " between one pair of transactions were not kept"));
        }
        if (bufferCommits > 0) {
            notes.add(Note.degraded("buffer-bound", "tsoser", bufferCommits, "tsoser: "
                    + String.format("%,d", bufferCommits) + " stores were committed early because their thread had "
                    + config.bufferBound() + " newer stores buffered without a fence; the newest "
                    + config.bufferBound() + " stayed buffered (a TSO-serializability violation that needs a store "
                    + "to commit after " + config.bufferBound() + " later stores of its thread is not reported)"));
        }
        if (frontierDrains > 0) {
            notes.add(Note.degraded("buffer-drained", "tsoser", frontierDrains, "tsoser: "
                    + String.format("%,d", frontierDrains) + " times a thread read more than " + FRONTIER_BOUND
                    + " different addresses it had stored to, with no store or fence between those reads: its "
                    + "store buffer was taken to drain there (a violation that needs one of its stores to commit "
                    + "later is not reported)"));
        }
        if (resets > 0) {
            notes.add(Note.degraded("clock-reset", "tsoser", resets, "tsoser: the event graph was forgotten at "
                    + resets + " clock resets"));
        }
        if (transactionFenced() && config.fencedShortcut() && robustnessChecked) {
            notes.add(Note.info("fenced-shortcut", "tsoser", 0, "tsoser: every transaction ended with a fence: "
                    + "TSO-serializability was checked as SC-serializability plus robustness (Enea-Farzan "
                    + "Theorem 3); robustness violations are the tso reports"));
        }
        return Collections.unmodifiableList(notes);
    }

    @Override
    public Analysis analysis() {
        return Analysis.TSOSER;
    }
}
