package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.checker.finding.Note;

import dev.mmcheck.checker.event.Codes;
import dev.mmcheck.runtime.Kinds;

import java.util.List;

/**
 * monitor_TSO of Burnim, Sen and Stergiou (Fig. 4): replays a linearized SC stream on the TSO
 * store-buffer automaton (Fig. 2), keeping every store buffered as long as the trace allows, and
 * reports when an access of thread p to address a finds a store e to a still buffered in another
 * thread although e happens before p's previous event.
 *
 * <p>Each thread has a FIFO store buffer; by the paper's Lemma 1 at most one thread has buffered
 * stores to a given address, so one pointer per address (the buffering thread and the position of
 * its last store there, kept in the address's record of {@link VectorClocks}) finds the last one, and
 * {@link PendingStoreCheck} the older ones. Java operations follow docs/mapping.md: volatile stores,
 * interlocked operations, monitors, full fences, thread start/join/end flush the thread's buffer;
 * release stores are plain stores; StoreStore and load fences do nothing. Checker thread only.
 */
public final class TsoMonitor extends Analyzer {

    private final VectorClocks clocks;
    private final int bufferBound;
    private final StoreBuffers buffers = new StoreBuffers();

    // per address: the thread whose buffer holds the last store to it, and where
    private final BufferedStorePointers last;
    private final PendingStoreCheck pending;

    private long forcedCommits;

    /** A TSO monitor that reads happens-before from {@code clocks} and reports to {@code sink}. */
    public TsoMonitor(VectorClocks clocks, FindingSink sink, MonitorConfig config) {
        this.clocks = clocks;
        this.bufferBound = config.bufferBound();
        this.last = new BufferedStorePointers(clocks);
        this.pending = new PendingStoreCheck(Analysis.TSO, clocks, sink, buffers, config);
    }

    @Override
    public Analysis analysis() {
        return Analysis.TSO;
    }

    @Override
    public void ensureThreads(int threads) {
        buffers.ensureThreads(threads);
    }

    @Override
    public void event(int kind, int t, int operand, int site, long seq) {
        if (Codes.isAccess(kind)) {
            // Fig. 4, lines 3-11: is a store to this address buffered in another thread?
            int q = last.thread(operand);
            if (q >= 0 && q != t) {
                long pos = last.position(operand);
                pending.check(q, pos, t, kind, operand, site, seq);
                commitThrough(q, pos);
            }
        }
        switch (kind) {
            case Kinds.STORE:
            case Kinds.RELEASE_STORE:
                append(t, kind, operand, site, seq);
                break;
            case Kinds.VOLATILE_STORE:
            case Kinds.INTERLOCKED:
            case Kinds.MONITOR_ENTER:
            case Kinds.MONITOR_EXIT:
            case Kinds.FULL_FENCE:
            case Kinds.THREAD_START:
            case Kinds.THREAD_END:
                // the store itself commits at once: a store followed by a full fence
                flush(t);
                break;
            case Kinds.THREAD_JOIN:
                flush(operand);
                flush(t);
                break;
            case Kinds.ADDRESS_DEAD: {
                // never observable again: drop its buffered store (the clocks then clear the words)
                last.dropDead(operand, buffers, false);
                break;
            }
            default:
                // LOAD, STORE_STORE_FENCE, LOAD_FENCE, TX_*: nothing in TSO
                break;
        }
    }

    private void append(int t, int kind, int address, int site, long seq) {
        if (buffers.span(t) >= bufferBound) {
            commitOne(t);
            forcedCommits++;
        }
        // the clock this event is about to get
        long pos = buffers.append(t, address, site, clocks.clock(t) + 1, kind, 0, seq, last.positionOf(address, t));
        last.point(address, t, pos);
    }

    /** store^c_TSO until the store at {@code pos} has left the buffer (Fig. 4, lines 9-11). */
    private void commitThrough(int q, long pos) {
        while (buffers.head(q) <= pos) {
            commitOne(q);
        }
    }

    private void flush(int t) {
        while (buffers.head(t) < buffers.tail(t)) {
            commitOne(t);
        }
    }

    /** store^c_TSO(t): the oldest store leaves the buffer. */
    private void commitOne(int t) {
        long pos = buffers.head(t);
        int a = buffers.address(t, pos);
        if (a >= 0) {
            last.clearIf(a, t, pos); // if it was the last store to a in any buffer
            buffers.remove(t, pos);
        }
        buffers.pop(t);
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
