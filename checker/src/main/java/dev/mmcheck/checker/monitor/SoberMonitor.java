package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.checker.finding.Note;

import java.util.List;
import dev.mmcheck.checker.event.EventKind;

import java.util.Arrays;

/**
 * The Sober monitor of Burckhardt and Musuvathi: {@code is_store_buffer_safe} (Fig. 2) with the
 * generalized vector clock for the relaxed happens-before relation →rhb (Fig. 3), an independent
 * second opinion on TSO.
 *
 * <p>At each load e_k = ld(p, a) it walks back over the writes to a from the one e_k read: it stops at
 * a write of p's own (line 9) or one that relaxed-happens-before p's last read (line 11), and reports
 * when a write happens before p's last event (line 13): then a TSO run in which e_k reads the value
 * before that write is not SC. The walk keeps the paper's order of tests; unlike Fig. 2 it does not
 * stop monitoring after the first report.
 *
 * <p>Timestamps have two groups per thread p: r_p (its reads, slot 2p) and w_p (its writes, slot
 * 2p+1). A write w of thread q relaxed-happens-before event x iff t_w[2q+1] ≤ t_x[2q+1] (the proof of
 * the paper's Theorem 14, property (2)); each remembered write keeps only that number, its thread and
 * its happens-before clock. The walk looks back over at most {@link MonitorConfig#soberWindow()} writes
 * per address; walks cut short by that bound are counted in {@link #truncatedScans()}.
 *
 * <p>Java operations: a full fence is an interlocked operation on an address nobody else uses
 * (Sober's footnote 1); volatile store = store + fence; monitors are interlocked on the monitor;
 * thread start/join are interlocked operations on a per-thread address; release stores are stores,
 * StoreStore and load fences nothing (Sober models TSO only). Checker thread only.
 */
public final class SoberMonitor extends Analyzer {

    private static final int ENTRY = 5; // thread, hb clock, store count, site, kind

    private final VectorClocks clocks;
    private final FindingSink sink;
    private final int window;

    private int width;       // thread slots
    private int span;        // 2 * width: one read and one write group per thread
    private int[] lc = new int[0];   // lc[p]: timestamp of p's last read (load or interlocked)
    private int[] sc = new int[0];   // sc[p]: timestamp of p's last write

    // per address, allocated on first use
    private int[][] mc1 = new int[0][];  // [q * span + g]: writes to a by threads other than q (and il)
    private int[][] mc2 = new int[0][];  // all accesses to a
    private int[][] writes = new int[0][];     // ring of the last writes, ENTRY ints each
    private long[][] writeSeqs = new long[0][];
    private long[] writeCount = new long[0];  // coherence index of the last write

    private long truncatedScans;

    // the event being processed: the access of a finding
    private int curKind;
    private int curSite;
    private long curSeq;

    /** A Sober monitor that reads happens-before from {@code clocks} and reports to {@code sink}. */
    public SoberMonitor(VectorClocks clocks, FindingSink sink, MonitorConfig config) {
        this.clocks = clocks;
        this.sink = sink;
        this.window = Math.max(1, config.soberWindow());
    }

    @Override
    public Analysis analysis() {
        return Analysis.SOBER;
    }

    @Override
    public void ensureThreads(int threads) {
        if (threads <= width) {
            return;
        }
        int newWidth = Math.max(threads, width * 2);
        int newSpan = 2 * newWidth;
        lc = regroup(lc, width, newWidth, newWidth);
        sc = regroup(sc, width, newWidth, newWidth);
        for (int a = 0; a < mc1.length; a++) {
            if (mc1[a] != null) {
                mc1[a] = regroup(mc1[a], width, newWidth, newWidth);
                mc2[a] = regroup(mc2[a], width, newWidth, 1);
            }
        }
        width = newWidth;
        span = newSpan;
    }

    /** Re-lays rows of timestamps from {@code oldWidth} to {@code newWidth} threads; group g keeps its slot. */
    private static int[] regroup(int[] old, int oldWidth, int newWidth, int rows) {
        int oldSpan = 2 * oldWidth;
        int newSpan = 2 * newWidth;
        int[] fresh = new int[rows * newSpan];
        int oldRows = oldSpan == 0 ? 0 : old.length / oldSpan;
        for (int r = 0; r < Math.min(rows, oldRows); r++) {
            System.arraycopy(old, r * oldSpan, fresh, r * newSpan, oldSpan);
        }
        return fresh;
    }

    @Override
    public void ensureAddress(int address) {
        int old = mc1.length;
        if (address < old) {
            return;
        }
        int n = Math.max(address + 1, Math.max(16, old * 2));
        mc1 = Arrays.copyOf(mc1, n);
        mc2 = Arrays.copyOf(mc2, n);
        writes = Arrays.copyOf(writes, n);
        writeSeqs = Arrays.copyOf(writeSeqs, n);
        writeCount = Arrays.copyOf(writeCount, n);
    }

    private void touch(int a) {
        if (mc1[a] == null) {
            mc1[a] = new int[width * span];
            mc2[a] = new int[span];
            writes[a] = new int[Math.min(window, 4) * ENTRY];
            writeSeqs[a] = new long[Math.min(window, 4)];
        }
    }

    @Override
    public void event(int kind, int t, int operand, int site, long seq) {
        curKind = kind;
        curSite = site;
        curSeq = seq;
        switch (EventKind.of(kind)) {
            case LOAD:
                touch(operand);
                check(t, operand);
                load(t, operand);
                break;
            case STORE:
            case RELEASE_STORE:
                touch(operand);
                store(t, operand, kind, site, seq);
                break;
            case VOLATILE_STORE:
                touch(operand);
                store(t, operand, kind, site, seq);
                fence(t, null, 0);
                break;
            case INTERLOCKED:
            case MONITOR_ENTER:
            case MONITOR_EXIT:
                touch(operand);
                interlocked(t, operand, kind, site, seq);
                break;
            case FULL_FENCE:
            case THREAD_END:
                fence(t, null, 0);
                break;
            case THREAD_START:
                // il(t, S_u) then il(u, S_u): the child's first event reads what the parent wrote
                fence(t, null, 0);
                fence(operand, sc, t * span);
                break;
            case THREAD_JOIN:
                // il(u, J_u) (u's end) then il(t, J_u)
                fence(operand, null, 0);
                fence(t, sc, operand * span);
                break;
            case ADDRESS_DEAD:
                if (operand < mc1.length) {
                    mc1[operand] = null;
                    mc2[operand] = null;
                    writes[operand] = null;
                    writeSeqs[operand] = null;
                    writeCount[operand] = 0;
                }
                break;
            default:
                break; // STORE_STORE_FENCE, LOAD_FENCE, TX_*: nothing in TSO
        }
    }

    /** Fig. 2, lines 6-16, for a load of {@code a} by {@code p}. */
    private void check(int p, int a) {
        long c = writeCount[a];
        int[] ring = writes[a];
        int slots = writeSeqs[a].length;
        int lcBase = p * span;
        for (long cc = c; cc > 0; cc--) {
            if (c - cc >= slots) {
                truncatedScans++;
                return;
            }
            int e = (int) ((cc - 1) % slots) * ENTRY;
            int q = ring[e];
            if (q == p) {
                return;                                           // line 9
            }
            if (lc[lcBase + 2 * q + 1] >= ring[e + 2]) {
                return;                                           // line 11: w ->rhb* lastR(E, p)
            }
            if (clocks.clock(p) > 0 && clocks.knows(p, q, ring[e + 1])) {
                // line 13: w ->hb* last(E, p)
                sink.storeBuffered(Analysis.SOBER, q, ring[e + 4], a, ring[e + 3],
                        writeSeqs[a][(int) ((cc - 1) % slots)], p, curKind, a, curSite, curSeq);
                return;
            }
        }
    }

    /** Fig. 3, ld(p, a). */
    private void load(int p, int a) {
        int base = p * span;
        join(lc, base, mc1[a], p * span);
        lc[base + 2 * p]++;
        join(mc2[a], 0, lc, base);
    }

    /** Fig. 3, st(p, a). */
    private void store(int p, int a, int kind, int site, long seq) {
        int base = p * span;
        join(sc, base, lc, base);
        join(sc, base, mc2[a], 0);
        sc[base + 2 * p + 1]++;
        int[] m1 = mc1[a];
        for (int q = 0; q < width; q++) {
            if (q != p) {
                join(m1, q * span, sc, base);
            }
        }
        join(mc2[a], 0, sc, base);
        remember(p, a, kind, site, seq, sc[base + 2 * p + 1]);
    }

    /** Fig. 3, il(p, a). */
    private void interlocked(int p, int a, int kind, int site, long seq) {
        int base = p * span;
        join(sc, base, lc, base);
        join(sc, base, mc2[a], 0);
        sc[base + 2 * p]++;
        sc[base + 2 * p + 1]++;
        int[] m1 = mc1[a];
        for (int q = 0; q < width; q++) {
            join(m1, q * span, sc, base);
        }
        join(mc2[a], 0, sc, base);
        System.arraycopy(sc, base, lc, base, span);
        remember(p, a, kind, site, seq, sc[base + 2 * p + 1]);
    }

    /** il(p, x) on an address x that only {@code from} (if not null) has written: a full fence. */
    private void fence(int p, int[] from, int fromBase) {
        int base = p * span;
        join(sc, base, lc, base);
        if (from != null) {
            join(sc, base, from, fromBase);
        }
        sc[base + 2 * p]++;
        sc[base + 2 * p + 1]++;
        System.arraycopy(sc, base, lc, base, span);
    }

    private void remember(int p, int a, int kind, int site, long seq, int storeCount) {
        long c = ++writeCount[a];
        int slots = writeSeqs[a].length;
        if (c > slots && slots < window) {
            int n = Math.min(window, slots * 2);
            int[] ring = new int[n * ENTRY];
            long[] seqs = new long[n];
            for (long k = c - slots; k < c; k++) {
                int from = (int) ((k - 1) % slots);
                int to = (int) ((k - 1) % n);
                System.arraycopy(writes[a], from * ENTRY, ring, to * ENTRY, ENTRY);
                seqs[to] = writeSeqs[a][from];
            }
            writes[a] = ring;
            writeSeqs[a] = seqs;
            slots = n;
        }
        int i = (int) ((c - 1) % slots);
        int e = i * ENTRY;
        int[] ring = writes[a];
        ring[e] = p;
        ring[e + 1] = clocks.clock(p) + 1;
        ring[e + 2] = storeCount;
        ring[e + 3] = site;
        ring[e + 4] = kind;
        writeSeqs[a][i] = seq;
    }

    private void join(int[] into, int intoBase, int[] from, int fromBase) {
        for (int g = 0; g < span; g++) {
            int v = from[fromBase + g];
            if (v > into[intoBase + g]) {
                into[intoBase + g] = v;
            }
        }
    }

    /** Loads whose walk reached past the remembered writes of their address without a verdict. */
    public long truncatedScans() {
        return truncatedScans;
    }

    @Override
    public void reset(int[] renumbered) {
        Arrays.fill(lc, 0);
        Arrays.fill(sc, 0);
        for (int a = 0; a < mc1.length; a++) {
            mc1[a] = null;
            mc2[a] = null;
            writes[a] = null;
            writeSeqs[a] = null;
            writeCount[a] = 0;
        }
    }

    @Override
    public long forcedCommits() {
        return 0;
    }

    @Override
    public List<Note> notes() {
        if (truncatedScans == 0) {
            return List.of();
        }
        return List.of(Note.degraded("sober-window", "sober", truncatedScans, "sober: " + truncatedScans
                + " loads looked back past the last " + window + " writes of their address without a verdict"));
    }
}
