package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;

/**
 * Per address, where its last buffered store is: the thread whose buffer holds it and its position
 * there, kept in three words of the address's record in the clocks' table (so that one event touches
 * one record), as the TSO and PSO monitors both need (by the papers' Lemmas 1 and 2 only one thread
 * has stores to an address buffered; its older ones are linked from the last, {@link
 * StoreBuffers#prevSame}). New and dead addresses read as none: the clocks clear
 * the words. Checker thread only.
 */
final class BufferedStorePointers {

    private final VectorClocks clocks;
    private final int words;

    /** Pointers kept in three words reserved in {@code clocks}' records. */
    BufferedStorePointers(VectorClocks clocks) {
        this.clocks = clocks;
        this.words = clocks.reserveWords(3);
    }

    private int at(int address) {
        return address * clocks.stride() + words;
    }

    /** The thread whose buffer holds the store to {@code address}, or -1 when none does. */
    int thread(int address) {
        return clocks.table()[at(address)] - 1;
    }

    /** The position of that store in that thread's buffer (only when {@link #thread} is not -1). */
    long position(int address) {
        int[] table = clocks.table();
        int at = at(address);
        return (table[at + 1] & 0xffffffffL) | ((long) table[at + 2] << 32);
    }

    /** The store to {@code address} now buffered is thread {@code t}'s at {@code pos}. */
    void point(int address, int t, long pos) {
        int[] table = clocks.table();
        int at = at(address);
        table[at] = t + 1;
        table[at + 1] = (int) pos;
        table[at + 2] = (int) (pos >>> 32);
    }

    /** No store to {@code address} is buffered any more. */
    void clear(int address) {
        clocks.table()[at(address)] = 0;
    }

    /** Clears the pointer only if it still points at thread {@code t}'s store at {@code pos}. */
    void clearIf(int address, int t, long pos) {
        if (thread(address) == t && position(address) == pos) {
            clear(address);
        }
    }

    /** The position of thread {@code t}'s last buffered store to {@code address}, or -1 when it has none. */
    long positionOf(int address, int t) {
        return thread(address) == t ? position(address) : -1;
    }

    /**
     * {@code address} died: its buffered stores leave {@code buffers} without committing (all of them:
     * the address id will be reused, and a stale store must not be taken for one to the new object).
     */
    void dropDead(int address, StoreBuffers buffers, boolean skipHoles) {
        int q = thread(address);
        if (q >= 0) {
            long p = position(address);
            while (p >= 0) {
                long older = buffers.prevSame(q, p);
                buffers.remove(q, p);
                p = older;
            }
            clear(address);
            if (skipHoles) {
                buffers.skipHoles(q);
            }
        }
    }
}
