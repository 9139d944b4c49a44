package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.checker.finding.Note;

import dev.mmcheck.checker.event.Codes;
import dev.mmcheck.runtime.Kinds;

import java.util.Arrays;
import java.util.List;

/**
 * monitor_PSO of Burnim, Sen and Stergiou (Fig. 5): like {@link TsoMonitor}, but on the PSO automaton
 * (Fig. 3), which has one buffer per thread and address, so a store can also be delayed past the
 * thread's later stores to other addresses.
 *
 * <p>By the paper's Lemma 2 only one thread has stores to an address buffered at a time (the paper's
 * monitor keeps at most one; checking every pending store, a thread's later plain stores to the
 * address queue behind its first): each address's record (in the clocks' table) points at the last,
 * which links to the older ones, and each thread keeps its buffered stores in issue order ({@link
 * StoreBuffers}); the per-address FIFOs of Fig. 3 are the subsequences per address.
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
public final class PsoMonitor extends Analyzer {

    private final VectorClocks clocks;
    private final int bufferBound;
    private final boolean paperInterlocked;
    private final StoreBuffers buffers = new StoreBuffers();

    // per address: the thread holding its buffered store, and where
    private final BufferedStorePointers last;
    private final PendingStoreCheck pending;
    private final boolean keepOwnStores;

    private int[] generation = new int[0];
    private long forcedCommits;

    /** A PSO monitor that reads happens-before from {@code clocks} and reports to {@code sink}. */
    public PsoMonitor(VectorClocks clocks, FindingSink sink, MonitorConfig config) {
        this.clocks = clocks;
        this.bufferBound = config.bufferBound();
        this.paperInterlocked = config.psoPaperInterlocked();
        this.last = new BufferedStorePointers(clocks);
        this.pending = new PendingStoreCheck(Analysis.PSO, clocks, sink, buffers, config);
        this.keepOwnStores = config.everyPendingStore();
    }

    @Override
    public Analysis analysis() {
        return Analysis.PSO;
    }

    @Override
    public void ensureThreads(int threads) {
        buffers.ensureThreads(threads);
        if (threads > generation.length) {
            generation = Arrays.copyOf(generation, Math.max(threads, generation.length * 2));
        }
    }

    @Override
    public void event(int kind, int t, int operand, int site, long seq) {
        if (Codes.isAccess(kind)) {
            // Fig. 5, lines 3-9
            int q = last.thread(operand);
            if (q >= 0) {
                long pos = last.position(operand);
                if (q != t) {
                    pending.check(q, pos, t, kind, operand, site, seq);
                    commit(q, pos);
                } else if (Codes.writes(kind) && !(keepOwnStores && buffers(kind))) {
                    // the paper commits the thread's own store before its next one to the address; with
                    // every pending store checked, a plain or release store queues behind it instead
                    commit(q, pos);
                }
            }
        }
        switch (kind) {
            case Kinds.STORE:
                buffer(t, kind, operand, site, seq);
                break;
            case Kinds.RELEASE_STORE:
                // cannot commit before the thread's earlier stores (StoreStore before the store)
                generation[t]++;
                buffer(t, kind, operand, site, seq);
                break;
            case Kinds.STORE_STORE_FENCE:
                generation[t]++;
                break;
            case Kinds.INTERLOCKED:
                if (!paperInterlocked) {
                    flush(t);
                }
                // in the paper's model the own-address buffer was committed above (e_i writes)
                break;
            case Kinds.VOLATILE_STORE:
            case Kinds.MONITOR_ENTER:
            case Kinds.MONITOR_EXIT:
            case Kinds.FULL_FENCE:
            case Kinds.THREAD_START:
            case Kinds.THREAD_END:
                flush(t);
                break;
            case Kinds.THREAD_JOIN:
                flush(operand);
                flush(t);
                break;
            case Kinds.ADDRESS_DEAD: {
                // never observable again: drop its buffered store (the clocks then clear the words)
                last.dropDead(operand, buffers, true);
                break;
            }
            default:
                break;
        }
    }

    private void buffer(int t, int kind, int a, int site, long seq) {
        if (buffers.span(t) >= bufferBound) {
            commit(t, buffers.head(t)); // the head is the oldest live store: it may always commit
            forcedCommits++;
        }
        long pos = buffers.append(t, a, site, clocks.clock(t) + 1, kind, generation[t], seq, last.positionOf(a, t));
        last.point(a, t, pos);
    }

    private static boolean buffers(int kind) {
        return kind == Kinds.STORE || kind == Kinds.RELEASE_STORE;
    }

    /**
     * store^c_PSO until the address's buffer is empty: the stores of thread {@code q} to the address
     * of its store at {@code pos} (its last to it), each after its older generations.
     */
    private void commit(int q, long pos) {
        int g = buffers.generation(q, pos);
        // generations never decrease along the buffer: the older ones are a prefix
        for (long p = buffers.head(q); p < pos && buffers.generation(q, p) < g; p++) {
            if (buffers.address(q, p) >= 0) {
                removeStore(q, p);
            }
        }
        for (long p = pos; p >= 0; ) {
            long older = buffers.prevSame(q, p);
            removeStore(q, p);
            p = older;
        }
        buffers.skipHoles(q);
    }

    private void flush(int t) {
        for (long p = buffers.head(t); p < buffers.tail(t); p++) {
            if (buffers.address(t, p) >= 0) {
                removeStore(t, p);
            }
        }
        buffers.skipHoles(t);
    }

    private void removeStore(int t, long pos) {
        int a = buffers.address(t, pos);
        last.clearIf(a, t, pos); // the pointer is to the last store to a; older ones commit first
        buffers.remove(t, pos);
    }

    @Override
    public boolean storesBuffered(int thread) {
        return thread < buffers.threads() && buffers.live(thread) > 0;
    }

    /** Number of stores buffered in thread {@code t} (for tests). */
    public int buffered(int t) {
        return buffers.live(t);
    }

    @Override
    public void reset(int[] renumbered) {
        // the clocks' reset clears the per-address words
        buffers.clear();
        Arrays.fill(generation, 0);
    }

    @Override
    public long forcedCommits() {
        return forcedCommits;
    }

    @Override
    public List<Note> notes() {
        return StoreBuffers.boundNotes(analysis(), forcedCommits, bufferBound);
    }
}
