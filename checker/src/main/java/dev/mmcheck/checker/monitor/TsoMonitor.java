package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.event.EventKind;

import java.util.Arrays;

/**
 * monitor_TSO of Burnim, Sen and Stergiou (Fig. 4): replays a linearized SC stream on the TSO
 * store-buffer automaton (Fig. 2), keeping every store buffered as long as the trace allows, and
 * reports when an access of thread p to address a finds a store e to a still buffered in another
 * thread although e happens before p's previous event.
 *
 * <p>Each thread has a FIFO store buffer; by the paper's Lemma 1 at most one thread has buffered
 * stores to a given address, so one pointer per address ({@code pendThread}, {@code pendPos}) finds
 * the last one. Java operations follow docs/mapping.md: volatile stores, interlocked operations,
 * monitors, full fences, thread start/join/end flush the thread's buffer; release stores are plain
 * stores; StoreStore and load fences do nothing. Checker thread only.
 */
public final class TsoMonitor implements Monitor {

    private static final int INITIAL_BUFFER = 16;

    private final VectorClocks clocks;
    private final ViolationSink sink;
    private final int bufferBound;

    // per thread: a ring buffer of stores; positions are absolute, the ring index is pos & mask
    private int[][] bufAddress = new int[0][];
    private int[][] bufSite = new int[0][];
    private int[][] bufClock = new int[0][];
    private int[][] bufKind = new int[0][];
    private long[][] bufSeq = new long[0][];
    private long[] head = new long[0];
    private long[] tail = new long[0];

    // per address: the thread whose buffer holds the last store to it, and that store's position
    private int[] pendThread = new int[0];
    private long[] pendPos = new long[0];

    private long forcedCommits;

    /** A TSO monitor that reads happens-before from {@code clocks} and reports to {@code sink}. */
    public TsoMonitor(VectorClocks clocks, ViolationSink sink, MonitorConfig config) {
        this.clocks = clocks;
        this.sink = sink;
        this.bufferBound = config.bufferBound();
    }

    @Override
    public Analysis analysis() {
        return Analysis.TSO;
    }

    @Override
    public void ensureThreads(int threads) {
        int old = head.length;
        if (threads <= old) {
            return;
        }
        int n = Math.max(threads, old * 2);
        bufAddress = Arrays.copyOf(bufAddress, n);
        bufSite = Arrays.copyOf(bufSite, n);
        bufClock = Arrays.copyOf(bufClock, n);
        bufKind = Arrays.copyOf(bufKind, n);
        bufSeq = Arrays.copyOf(bufSeq, n);
        head = Arrays.copyOf(head, n);
        tail = Arrays.copyOf(tail, n);
        for (int t = old; t < n; t++) {
            bufAddress[t] = new int[INITIAL_BUFFER];
            bufSite[t] = new int[INITIAL_BUFFER];
            bufClock[t] = new int[INITIAL_BUFFER];
            bufKind[t] = new int[INITIAL_BUFFER];
            bufSeq[t] = new long[INITIAL_BUFFER];
        }
    }

    @Override
    public void ensureAddress(int address) {
        int old = pendThread.length;
        if (address < old) {
            return;
        }
        int n = Math.max(address + 1, Math.max(16, old * 2));
        pendThread = Arrays.copyOf(pendThread, n);
        Arrays.fill(pendThread, old, n, -1);
        pendPos = Arrays.copyOf(pendPos, n);
    }

    @Override
    public void event(int kind, int t, int operand, int site, long seq) {
        EventKind k = EventKind.of(kind);
        if (k.isAccess()) {
            // Fig. 4, lines 3-11: is a store to this address buffered?
            int q = pendThread[operand];
            if (q >= 0 && q != t) {
                long pos = pendPos[operand];
                int i = (int) pos & (bufAddress[q].length - 1);
                // prev exists (thread t has run) and e ->hb* prev
                if (clocks.clock(t) > 0 && clocks.knows(t, q, bufClock[q][i])) {
                    sink.violation(Analysis.TSO, q, bufKind[q][i], operand, bufSite[q][i], bufSeq[q][i]);
                }
                commitThrough(q, pos);
            }
        }
        switch (k) {
            case STORE:
            case RELEASE_STORE:
                append(t, kind, operand, site, seq);
                break;
            case VOLATILE_STORE:
            case INTERLOCKED:
            case MONITOR_ENTER:
            case MONITOR_EXIT:
            case FULL_FENCE:
            case THREAD_START:
            case THREAD_END:
                // the store itself commits at once: a store followed by a full fence
                flush(t);
                break;
            case THREAD_JOIN:
                flush(operand);
                flush(t);
                break;
            case ADDRESS_DEAD:
                // later entries for this address in the FIFO no longer match pendPos and are inert
                pendThread[operand] = -1;
                break;
            default:
                // LOAD, STORE_STORE_FENCE, LOAD_FENCE, TX_*: nothing in TSO
                break;
        }
    }

    private void append(int t, int kind, int address, int site, long seq) {
        if (tail[t] - head[t] >= bufferBound) {
            commitOne(t);
            forcedCommits++;
        }
        if (tail[t] - head[t] == bufAddress[t].length) {
            grow(t);
        }
        long pos = tail[t]++;
        int i = (int) pos & (bufAddress[t].length - 1);
        bufAddress[t][i] = address;
        bufSite[t][i] = site;
        bufClock[t][i] = clocks.clock(t) + 1; // the clock this event is about to get
        bufKind[t][i] = kind;
        bufSeq[t][i] = seq;
        pendThread[address] = t;
        pendPos[address] = pos;
    }

    private void grow(int t) {
        int old = bufAddress[t].length;
        int n = old * 2;
        int[] a = new int[n];
        int[] s = new int[n];
        int[] c = new int[n];
        int[] k = new int[n];
        long[] q = new long[n];
        for (long p = head[t]; p < tail[t]; p++) {
            int from = (int) p & (old - 1);
            int to = (int) p & (n - 1);
            a[to] = bufAddress[t][from];
            s[to] = bufSite[t][from];
            c[to] = bufClock[t][from];
            k[to] = bufKind[t][from];
            q[to] = bufSeq[t][from];
        }
        bufAddress[t] = a;
        bufSite[t] = s;
        bufClock[t] = c;
        bufKind[t] = k;
        bufSeq[t] = q;
    }

    /** store^c_TSO until the store at {@code pos} has left the buffer (Fig. 4, lines 9-11). */
    private void commitThrough(int q, long pos) {
        while (head[q] <= pos) {
            commitOne(q);
        }
    }

    private void flush(int t) {
        while (head[t] < tail[t]) {
            commitOne(t);
        }
    }

    private void commitOne(int t) {
        long pos = head[t]++;
        int a = bufAddress[t][(int) pos & (bufAddress[t].length - 1)];
        if (pendThread[a] == t && pendPos[a] == pos) {
            pendThread[a] = -1;
        }
    }

    /** Number of stores buffered in thread {@code t} (for tests). */
    public int buffered(int t) {
        return (int) (tail[t] - head[t]);
    }

    @Override
    public void reset() {
        for (int t = 0; t < head.length; t++) {
            head[t] = tail[t] = 0;
        }
        Arrays.fill(pendThread, -1);
    }

    @Override
    public long forcedCommits() {
        return forcedCommits;
    }
}
