package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;

import java.util.Arrays;
import java.util.List;

/**
 * The store buffers of all threads for one monitor: per thread a ring of buffered stores in issue
 * order, each with its address, site, clock, kind, generation, event number and a link to the
 * thread's previous buffered store to the same address, packed in one int array (8 ints an entry) so
 * that appending and committing walk memory sequentially. A store that
 * commits out of order (PSO) leaves a hole that the head skips. Positions are absolute per thread;
 * the ring index is {@code pos & mask}. Checker thread only.
 */
final class StoreBuffers {

    private static final int INITIAL = 16;   // entries
    private static final int ENTRY = 8;      // ints per entry
    private static final int ADDRESS = 0;    // -1: committed (a hole)
    private static final int SITE = 1;
    private static final int CLOCK = 2;
    private static final int KIND = 3;
    private static final int GENERATION = 4;
    private static final int SEQ_LOW = 5;
    private static final int SEQ_HIGH = 6;
    private static final int PREV_SAME = 7; // distance back to the previous store to the address, 0: none

    private int[][] ring = new int[0][];
    private int[] mask = new int[0];
    private long[] head = new long[0];
    private long[] tail = new long[0];
    private int[] live = new int[0];

    void ensureThreads(int threads) {
        int old = head.length;
        if (threads <= old) {
            return;
        }
        int n = Math.max(threads, old * 2);
        ring = Arrays.copyOf(ring, n);
        mask = Arrays.copyOf(mask, n);
        head = Arrays.copyOf(head, n);
        tail = Arrays.copyOf(tail, n);
        live = Arrays.copyOf(live, n);
        for (int t = old; t < n; t++) {
            ring[t] = new int[INITIAL * ENTRY];
            mask[t] = INITIAL - 1;
        }
    }

    /**
     * Appends a store to thread {@code t}'s buffer and returns its position; {@code prevSame} is the
     * position of the thread's previous store to the same address still buffered, or -1.
     */
    long append(int t, int a, int s, int c, int k, int g, long q, long prevSame) {
        if (tail[t] - head[t] == mask[t] + 1) {
            grow(t);
        }
        long pos = tail[t]++;
        int[] r = ring[t];
        int i = ((int) pos & mask[t]) * ENTRY;
        r[i + ADDRESS] = a;
        r[i + SITE] = s;
        r[i + CLOCK] = c;
        r[i + KIND] = k;
        r[i + GENERATION] = g;
        r[i + SEQ_LOW] = (int) q;
        r[i + SEQ_HIGH] = (int) (q >>> 32);
        r[i + PREV_SAME] = prevSame < 0 ? 0 : (int) (pos - prevSame);
        live[t]++;
        return pos;
    }

    private void grow(int t) {
        int old = mask[t] + 1;
        int n = old * 2;
        int[] fresh = new int[n * ENTRY];
        for (long p = head[t]; p < tail[t]; p++) {
            System.arraycopy(ring[t], ((int) p & (old - 1)) * ENTRY, fresh, ((int) p & (n - 1)) * ENTRY, ENTRY);
        }
        ring[t] = fresh;
        mask[t] = n - 1;
    }

    private int at(int t, long pos) {
        return ((int) pos & mask[t]) * ENTRY;
    }

    /** Address of the store at {@code pos}, or -1 when it has committed. */
    int address(int t, long pos) {
        return ring[t][at(t, pos) + ADDRESS];
    }

    int site(int t, long pos) {
        return ring[t][at(t, pos) + SITE];
    }

    int clock(int t, long pos) {
        return ring[t][at(t, pos) + CLOCK];
    }

    int kind(int t, long pos) {
        return ring[t][at(t, pos) + KIND];
    }

    int generation(int t, long pos) {
        return ring[t][at(t, pos) + GENERATION];
    }

    long seq(int t, long pos) {
        int i = at(t, pos);
        return (ring[t][i + SEQ_LOW] & 0xffffffffL) | ((long) ring[t][i + SEQ_HIGH] << 32);
    }

    /**
     * The thread's previous store to the same address as the store at {@code pos} that is still
     * buffered, or -1: stores to one address commit oldest first, so the first committed one ends the
     * chain (and a position before the head may have been reused).
     */
    long prevSame(int t, long pos) {
        int d = ring[t][at(t, pos) + PREV_SAME];
        if (d == 0) {
            return -1;
        }
        long p = pos - d;
        return p >= head[t] && address(t, p) == address(t, pos) ? p : -1;
    }

    /** Marks the store at {@code pos} committed. */
    void remove(int t, long pos) {
        ring[t][at(t, pos) + ADDRESS] = -1;
        live[t]--;
    }

    /** Moves the head past committed stores. */
    void skipHoles(int t) {
        while (head[t] < tail[t] && ring[t][at(t, head[t]) + ADDRESS] < 0) {
            head[t]++;
        }
    }

    long head(int t) {
        return head[t];
    }

    long tail(int t) {
        return tail[t];
    }

    /** Advances the head by one (the head store has been handled). */
    void pop(int t) {
        head[t]++;
    }

    /** Thread slots with room here. */
    int threads() {
        return head.length;
    }

    /** Stores still buffered in thread {@code t}. */
    int live(int t) {
        return live[t];
    }

    /** Positions between head and tail, holes included. */
    long span(int t) {
        return tail[t] - head[t];
    }

    /** Empties every buffer. */
    void clear() {
        Arrays.fill(head, 0);
        Arrays.fill(tail, 0);
        Arrays.fill(live, 0);
    }

    /** What a bounded buffer cost {@code analysis}: {@code forced} stores committed early at {@code bound}. */
    static List<Note> boundNotes(Analysis analysis,
            long forced, int bound) {
        if (forced == 0) {
            return List.of();
        }
        String a = analysis.option();
        return List.of(Note.degraded("buffer-bound", a, forced, a + ": "
                + String.format("%,d", forced) + " stores were committed early because a thread issued " + bound
                + " stores without a fence (the oldest first, as a buffer drains): a violation that needs a store to "
                + "stay buffered behind " + bound + " later ones of its thread is not reported (real store buffers hold "
                + "about 50); every event was checked; bufferBound=none checks it, with memory for every store"));
    }
}
