package dev.mmcheck.checker.serial;

/**
 * Bounds of the serializability checks, so that a long run keeps bounded memory and the checker
 * thread is never stalled by a search. Each bound, when reached, is counted and named in the notes.
 *
 * @param searchSteps        edges one cycle search may follow before it gives up
 * @param maxLiveTransactions transactions kept in a conflict graph; beyond, the oldest finished ones are
 *                           dropped (cycles through them are no longer found)
 * @param entriesPerAddress  recent accesses remembered per address by the TSO check; beyond, the
 *                           oldest is folded into a summary (its order constraints kept, its conflicts dropped)
 * @param bufferBound        TSO check: a thread's store buffer holds at most this many stores; a store issued
 *                           to a full buffer commits the oldest first, as a FIFO buffer does (a legal TSO
 *                           step, so reports stay sound; a violation that needs a store to commit after this
 *                           many later stores of its thread is not reported)
 * @param edgesPerPair       TSO check: undirected conflicts kept between one pair of transactions
 * @param fencedShortcut     TSO check: while every transaction ends with a fence, check TSO-serializability
 *                           as SC-serializability plus robustness (Enea-Farzan Thm. 3), robustness being
 *                           the TSO monitor's job, instead of searching orientations
 */
public record SerialConfig(int searchSteps, int maxLiveTransactions, int entriesPerAddress, int bufferBound,
        int edgesPerPair, boolean fencedShortcut) {

    /** The defaults of a run. */
    public static SerialConfig defaults() {
        return new SerialConfig(20_000, 1 << 16, 32, 256, 4, true);
    }

    /** Bounds no small trace reaches, and no shortcut: the exact check the oracles compare against. */
    public static SerialConfig exact() {
        return new SerialConfig(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE,
                Integer.MAX_VALUE, false);
    }

    /** A copy with the shortcut of Theorem 3 on or off. */
    public SerialConfig withFencedShortcut(boolean on) {
        return new SerialConfig(searchSteps, maxLiveTransactions, entriesPerAddress, bufferBound, edgesPerPair, on);
    }

    /** A copy with another store-buffer bound. */
    public SerialConfig withBufferBound(int bound) {
        return new SerialConfig(searchSteps, maxLiveTransactions, entriesPerAddress, bound, edgesPerPair,
                fencedShortcut);
    }

    /** A copy with another search bound. */
    public SerialConfig withSearchSteps(int steps) {
        return new SerialConfig(steps, maxLiveTransactions, entriesPerAddress, bufferBound, edgesPerPair,
                fencedShortcut);
    }
}
