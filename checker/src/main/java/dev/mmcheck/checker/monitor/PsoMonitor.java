package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.event.EventKind;

import java.util.Arrays;

/**
 * monitor_PSO of Burnim, Sen and Stergiou (Fig. 5): like {@link TsoMonitor}, but on the PSO automaton
 * (Fig. 3), which has one buffer per thread and address, so a store can also be delayed past the
 * thread's later stores to other addresses.
 *
 * <p>By the paper's Lemma 2 at most one store per address is buffered at a time, so the buffer is
 * kept per address ({@code pend*}); each thread also links its buffered addresses in issue order.
 *
 * <p>Java's ordering constraints extend the automaton (docs/mapping.md). A StoreStore fence, and the
 * StoreStore half of a release store, starts a new <em>generation</em> in the thread: a store may
 * commit only when no store of an older generation of its thread is still buffered, so committing a
 * store first commits the older generations. Nothing is flushed at the fence itself, so a release
 * store can still be delayed past later loads. Volatile stores, full fences, monitors, thread
 * start/join/end flush all of the thread's buffers; an interlocked operation does too (Java's CAS is
 * a full fence) unless {@link MonitorConfig#psoPaperInterlocked()} asks for the paper's model, where it
 * commits only its own address. Checker thread only.
 */
public final class PsoMonitor implements Monitor {

    private final VectorClocks clocks;
    private final ViolationSink sink;
    private final int bufferBound;
    private final boolean paperInterlocked;

    // per address: its buffered store, if any
    private int[] pendThread = new int[0];
    private int[] pendSite = new int[0];
    private int[] pendClock = new int[0];
    private int[] pendKind = new int[0];
    private int[] pendGen = new int[0];
    private long[] pendSeq = new long[0];
    // per address: links of its thread's list of buffered addresses, in issue order
    private int[] next = new int[0];
    private int[] prev = new int[0];

    // per thread
    private int[] first = new int[0];
    private int[] last = new int[0];
    private int[] count = new int[0];
    private int[] generation = new int[0];

    private long forcedCommits;

    /** A PSO monitor that reads happens-before from {@code clocks} and reports to {@code sink}. */
    public PsoMonitor(VectorClocks clocks, ViolationSink sink, MonitorConfig config) {
        this.clocks = clocks;
        this.sink = sink;
        this.bufferBound = config.bufferBound();
        this.paperInterlocked = config.psoPaperInterlocked();
    }

    @Override
    public Analysis analysis() {
        return Analysis.PSO;
    }

    @Override
    public void ensureThreads(int threads) {
        int old = first.length;
        if (threads <= old) {
            return;
        }
        int n = Math.max(threads, old * 2);
        first = Arrays.copyOf(first, n);
        last = Arrays.copyOf(last, n);
        Arrays.fill(first, old, n, -1);
        Arrays.fill(last, old, n, -1);
        count = Arrays.copyOf(count, n);
        generation = Arrays.copyOf(generation, n);
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
        pendSite = Arrays.copyOf(pendSite, n);
        pendClock = Arrays.copyOf(pendClock, n);
        pendKind = Arrays.copyOf(pendKind, n);
        pendGen = Arrays.copyOf(pendGen, n);
        pendSeq = Arrays.copyOf(pendSeq, n);
        next = Arrays.copyOf(next, n);
        prev = Arrays.copyOf(prev, n);
    }

    @Override
    public void event(int kind, int t, int operand, int site, long seq) {
        EventKind k = EventKind.of(kind);
        if (k.isAccess()) {
            // Fig. 5, lines 3-9
            int q = pendThread[operand];
            if (q >= 0) {
                if (q != t && clocks.clock(t) > 0 && clocks.knows(t, q, pendClock[operand])) {
                    sink.violation(Analysis.PSO, q, pendKind[operand], operand, pendSite[operand],
                            pendSeq[operand]);
                }
                if (q != t || k.writes()) {
                    commit(operand);
                }
            }
        }
        switch (k) {
            case STORE:
                buffer(t, kind, operand, site, seq);
                break;
            case RELEASE_STORE:
                // cannot commit before the thread's earlier stores (StoreStore before the store)
                generation[t]++;
                buffer(t, kind, operand, site, seq);
                break;
            case STORE_STORE_FENCE:
                generation[t]++;
                break;
            case INTERLOCKED:
                if (!paperInterlocked) {
                    flush(t);
                }
                // in the paper's model the own-address buffer was committed above (e_i writes)
                break;
            case VOLATILE_STORE:
            case MONITOR_ENTER:
            case MONITOR_EXIT:
            case FULL_FENCE:
            case THREAD_START:
            case THREAD_END:
                flush(t);
                break;
            case THREAD_JOIN:
                flush(operand);
                flush(t);
                break;
            case ADDRESS_DEAD:
                if (pendThread[operand] >= 0) {
                    unlink(operand); // never observable again: drop it
                }
                break;
            default:
                break;
        }
    }

    private void buffer(int t, int kind, int a, int site, long seq) {
        if (count[t] >= bufferBound) {
            commit(first[t]);
            forcedCommits++;
        }
        pendThread[a] = t;
        pendSite[a] = site;
        pendClock[a] = clocks.clock(t) + 1;
        pendKind[a] = kind;
        pendGen[a] = generation[t];
        pendSeq[a] = seq;
        next[a] = -1;
        prev[a] = last[t];
        if (last[t] >= 0) {
            next[last[t]] = a;
        } else {
            first[t] = a;
        }
        last[t] = a;
        count[t]++;
    }

    /** store^c_PSO of the store buffered at {@code a}, after the older generations of its thread. */
    private void commit(int a) {
        int t = pendThread[a];
        int g = pendGen[a];
        while (first[t] != a && pendGen[first[t]] < g) {
            unlink(first[t]);
        }
        unlink(a);
    }

    private void flush(int t) {
        while (first[t] >= 0) {
            unlink(first[t]);
        }
    }

    private void unlink(int a) {
        int t = pendThread[a];
        int p = prev[a];
        int n = next[a];
        if (p >= 0) {
            next[p] = n;
        } else {
            first[t] = n;
        }
        if (n >= 0) {
            prev[n] = p;
        } else {
            last[t] = p;
        }
        pendThread[a] = -1;
        count[t]--;
    }

    /** Number of stores buffered in thread {@code t} (for tests). */
    public int buffered(int t) {
        return count[t];
    }

    @Override
    public void reset() {
        Arrays.fill(pendThread, -1);
        Arrays.fill(first, -1);
        Arrays.fill(last, -1);
        Arrays.fill(count, 0);
        Arrays.fill(generation, 0);
    }

    @Override
    public long forcedCommits() {
        return forcedCommits;
    }
}
