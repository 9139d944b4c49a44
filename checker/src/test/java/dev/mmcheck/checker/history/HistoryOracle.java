package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Brute force, straight from the definitions, for small histories (up to 64 operations counting one
 * explicit initial write per variable, which precedes every other operation in po). Relations are rows
 * of bits. Nothing here shares code with the checker.
 *
 * <ul>
 * <li>SC: some store order ww makes po ∪ wr ∪ ww ∪ rw acyclic (rw = wr⁻¹ ∘ ww).</li>
 * <li>TSO: some ww makes ppo ∪ wre ∪ ww ∪ rw and po-loc ∪ wr ∪ ww ∪ rw acyclic (Sec. 2; wr rather than wre
 *     in the second, see docs/history.md).</li>
 * <li>With times: also the model's global graph (the first graph) plus every relaxed-time-order edge
 *     (MODV Definition 1, computed here by its own recursion) is acyclic.</li>
 * <li>CC, CCv, CM, CCM, wCCM as in Sec. 3-4 (CC as the bad patterns of [6]), hb_o computed for every o.</li>
 * </ul>
 * Store orders are enumerated with each initial write first: any order putting a write before its
 * variable's initial write has the cycle w →ww init →po w, in either model.
 */
final class HistoryOracle {

    final History h;
    final int n;
    final int size;
    final boolean[] isWrite;
    final int[] var;
    final int[] thread;
    final int[] index;
    final long[] po;
    final long[] wr;
    final long[] wre;
    final long[] ppo;
    final long[] poloc;

    HistoryOracle(History h) {
        this.h = h;
        n = h.size();
        size = n + h.vars();
        if (size > 64) {
            throw new IllegalArgumentException("too big for the oracle");
        }
        isWrite = new boolean[size];
        var = new int[size];
        thread = new int[size];
        index = new int[size];
        for (int i = 0; i < n; i++) {
            Op o = h.op(i);
            isWrite[i] = o.write();
            var[i] = o.var();
            thread[i] = o.thread();
            index[i] = o.index();
        }
        for (int x = 0; x < h.vars(); x++) {
            isWrite[n + x] = true;
            var[n + x] = x;
            thread[n + x] = -1;
        }
        po = new long[size];
        wr = new long[size];
        wre = new long[size];
        ppo = new long[size];
        poloc = new long[size];
        for (int a = 0; a < size; a++) {
            for (int b = 0; b < size; b++) {
                boolean p = a >= n ? b < n : (b < n && thread[a] == thread[b] && index[a] < index[b]);
                if (p) {
                    po[a] |= bit(b);
                    if (!(isWrite[a] && !isWrite[b])) {
                        ppo[a] |= bit(b);
                    }
                    if (var[a] == var[b]) {
                        poloc[a] |= bit(b);
                    }
                }
            }
        }
        for (int r = 0; r < n; r++) {
            if (!isWrite[r]) {
                int w = h.writer(r) == History.INIT ? n + var[r] : h.writer(r);
                wr[w] |= bit(r);
                if (!has(po, w, r) && !has(po, r, w)) {
                    wre[w] |= bit(r);
                }
            }
        }
    }

    static long bit(int i) {
        return 1L << i;
    }

    static boolean has(long[] rel, int a, int b) {
        return (rel[a] >>> b & 1) != 0;
    }

    static long[] union(long[]... rels) {
        long[] u = new long[rels[0].length];
        for (long[] r : rels) {
            for (int i = 0; i < u.length; i++) {
                u[i] |= r[i];
            }
        }
        return u;
    }

    static long[] closure(long[] rel) {
        long[] c = rel.clone();
        for (int k = 0; k < c.length; k++) {
            for (int i = 0; i < c.length; i++) {
                if (has(c, i, k)) {
                    c[i] |= c[k];
                }
            }
        }
        return c;
    }

    static boolean acyclic(long[] rel) {
        long[] c = closure(rel);
        for (int i = 0; i < c.length; i++) {
            if (has(c, i, i)) {
                return false;
            }
        }
        return true;
    }

    private int writerOf(int r) {
        return h.writer(r) == History.INIT ? n + var[r] : h.writer(r);
    }

    /** rw[R] = wr⁻¹ ∘ R_WW. */
    long[] rw(long[] rel) {
        long[] out = new long[size];
        for (int r = 0; r < n; r++) {
            if (isWrite[r]) {
                continue;
            }
            int w = writerOf(r);
            for (int w2 = 0; w2 < size; w2++) {
                if (w2 != w && isWrite[w2] && var[w2] == var[r] && has(rel, w, w2)) {
                    out[r] |= bit(w2);
                }
            }
        }
        return out;
    }

    /** cf[R] = R_WR ∘ wr⁻¹ with the reads' writers taken from {@code readsFrom} (wr or wre), writes distinct. */
    long[] cf(long[] rel, long[] readsFrom) {
        long[] out = new long[size];
        for (int w2 = 0; w2 < size; w2++) {
            if (!isWrite[w2]) {
                continue;
            }
            for (int r = 0; r < n; r++) {
                if (!has(readsFrom, w2, r)) {
                    continue;
                }
                for (int w1 = 0; w1 < size; w1++) {
                    if (w1 != w2 && isWrite[w1] && var[w1] == var[w2] && has(rel, w1, r)) {
                        out[w1] |= bit(w2);
                    }
                }
            }
        }
        return out;
    }

    long[] ww(long[] rel) {
        long[] out = new long[size];
        for (int a = 0; a < size; a++) {
            for (int b = 0; b < size; b++) {
                if (isWrite[a] && isWrite[b] && var[a] == var[b] && has(rel, a, b)) {
                    out[a] |= bit(b);
                }
            }
        }
        return out;
    }

    /** hb_o by rules 1-2 for causality {@code co} and program order {@code pi}. */
    long[] hbO(int o, long[] co, long[] pi) {
        long[] hb = new long[size];
        for (int o1 = 0; o1 < size; o1++) {
            for (int o2 = 0; o2 < size; o2++) {
                if (has(co, o1, o2) && has(co, o1, o) && (o2 == o || has(co, o2, o))) {
                    hb[o1] |= bit(o2);
                }
            }
        }
        while (true) {
            hb = closure(hb);
            boolean changed = false;
            for (int r = 0; r < n; r++) {
                if (isWrite[r] || !(r == o || has(pi, r, o))) {
                    continue;
                }
                int w2 = writerOf(r);
                for (int w = 0; w < size; w++) {
                    if (w != w2 && isWrite[w] && var[w] == var[r] && has(hb, w, r) && !has(hb, w, w2)) {
                        hb[w] |= bit(w2);
                        changed = true;
                    }
                }
            }
            if (!changed) {
                return hb;
            }
        }
    }

    long[] co() {
        return closure(union(po, wr));
    }

    boolean cc() {
        long[] co = co();
        if (!acyclic(co)) {
            return false;
        }
        long[] rwco = rw(ww(co));
        for (int r = 0; r < n; r++) {
            for (int w = 0; w < size; w++) {
                if (has(rwco, r, w) && has(co, w, r)) {
                    return false;
                }
            }
        }
        return true;
    }

    boolean ccv() {
        return cc() && acyclic(union(po, wr, cf(co(), wr)));
    }

    boolean cm() {
        if (!cc()) {
            return false;
        }
        long[] co = co();
        for (int o = 0; o < size; o++) {
            if (!acyclic(hbO(o, co, po))) {
                return false;
            }
        }
        return true;
    }

    /** pww, or null when hb is cyclic (then CCM fails: hb's edges are in po ∪ wr ∪ pww). */
    long[] pww() {
        long[] co = co();
        long[] hb = new long[size];
        for (int o = 0; o < size; o++) {
            hb = union(hb, hbO(o, co, po));
        }
        hb = closure(hb);
        return closure(union(ww(hb), cf(hb, wr)));
    }

    boolean ccm() {
        long[] pww = pww();
        return acyclic(union(po, wr, pww, rw(pww)));
    }

    long[] wpww() {
        long[] hbPpo = new long[size];
        long[] hbLoc = new long[size];
        long[] coPpo = closure(union(ppo, wre));
        long[] coLoc = closure(union(poloc, wre));
        for (int o = 0; o < size; o++) {
            hbPpo = union(hbPpo, hbO(o, coPpo, ppo));
            hbLoc = union(hbLoc, hbO(o, coLoc, poloc));
        }
        hbPpo = closure(hbPpo);
        hbLoc = closure(hbLoc);
        long[] whb = closure(union(hbPpo, hbLoc));
        return closure(union(ww(whb), cf(hbLoc, wre), cf(hbPpo, wre)));
    }

    boolean wccm() {
        long[] w = wpww();
        long[] rw = rw(w);
        return acyclic(union(ppo, wre, w, rw)) && acyclic(union(poloc, wr, w, rw));
    }

    Map<Criterion, Boolean> criteria() {
        Map<Criterion, Boolean> m = new EnumMap<>(Criterion.class);
        m.put(Criterion.CC, cc());
        m.put(Criterion.CCV, ccv());
        m.put(Criterion.CM, cm());
        m.put(Criterion.CCM, ccm());
        m.put(Criterion.WCCM, wccm());
        return m;
    }

    /** Relaxed commit times (MODV Definition 1), by its recursion over the operations that must follow. */
    long[] relaxedCommit(boolean tso) {
        long[] rc = new long[n];
        boolean[] done = new boolean[n];
        for (int i = 0; i < n; i++) {
            rc(i, tso, rc, done);
        }
        return rc;
    }

    private long rc(int u, boolean tso, long[] rc, boolean[] done) {
        if (done[u]) {
            return rc[u];
        }
        long m;
        if (!isWrite[u]) {
            m = h.op(u).complete();
        } else {
            m = Long.MAX_VALUE;
            for (int v = 0; v < n; v++) {
                boolean external = has(wr, u, v) && thread[v] != thread[u];
                boolean local = has(po, u, v) && (!tso || isWrite[v]);
                if (external || local) {
                    m = Math.min(m, rc(v, tso, rc, done));
                }
            }
        }
        rc[u] = m;
        done[u] = true;
        return m;
    }

    long[] relaxedTimeOrder(boolean tso) {
        long[] rc = relaxedCommit(tso);
        long[] rt = new long[size];
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                if (rc[u] <= h.op(v).issue()) {
                    rt[u] |= bit(v);
                }
            }
        }
        return rt;
    }

    /** Every store order (init first in each variable), as a relation, until {@code test} accepts one. */
    private boolean anyStoreOrder(java.util.function.Predicate<long[]> test) {
        List<List<Integer>> perVar = new ArrayList<>();
        for (int x = 0; x < h.vars(); x++) {
            List<Integer> ws = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (isWrite[i] && var[i] == x) {
                    ws.add(i);
                }
            }
            perVar.add(ws);
        }
        return enumerate(perVar, 0, new long[size], test);
    }

    private boolean enumerate(List<List<Integer>> perVar, int x, long[] acc, java.util.function.Predicate<long[]> test) {
        if (x == perVar.size()) {
            return test.test(acc);
        }
        List<Integer> ws = perVar.get(x);
        List<List<Integer>> perms = new ArrayList<>();
        permutations(ws, new ArrayList<>(), new boolean[ws.size()], perms);
        for (List<Integer> p : perms) {
            long[] next = acc.clone();
            List<Integer> seq = new ArrayList<>();
            seq.add(n + x);
            seq.addAll(p);
            for (int i = 0; i < seq.size(); i++) {
                for (int j = i + 1; j < seq.size(); j++) {
                    next[seq.get(i)] |= bit(seq.get(j));
                }
            }
            if (enumerate(perVar, x + 1, next, test)) {
                return true;
            }
        }
        return false;
    }

    private static void permutations(List<Integer> items, List<Integer> cur, boolean[] used, List<List<Integer>> out) {
        if (cur.size() == items.size()) {
            out.add(new ArrayList<>(cur));
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            if (!used[i]) {
                used[i] = true;
                cur.add(items.get(i));
                permutations(items, cur, used, out);
                cur.remove(cur.size() - 1);
                used[i] = false;
            }
        }
    }

    boolean sc(boolean timed) {
        long[] rt = timed ? relaxedTimeOrder(false) : null;
        return anyStoreOrder(ww -> {
            long[] g = union(po, wr, ww, rw(ww));
            return acyclic(g) && (rt == null || acyclic(union(g, rt)));
        });
    }

    boolean tso(boolean timed) {
        long[] rt = timed ? relaxedTimeOrder(true) : null;
        return anyStoreOrder(ww -> {
            long[] rw = rw(ww);
            long[] g1 = union(ppo, wre, ww, rw);
            return acyclic(g1) && acyclic(union(poloc, wr, ww, rw)) && (rt == null || acyclic(union(g1, rt)));
        });
    }
}
