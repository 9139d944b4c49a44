package dev.mmcheck.checker.engine;

import java.util.Arrays;

/**
 * The stream's thread ids (external: any non-negative int, never reused) mapped to dense slots, which
 * size the clocks and every analysis's per-thread state. An ended thread's slot is reclaimed by a
 * compaction (a clock reset: the checker forgets all history), which renumbers the live threads.
 * Checker thread only.
 */
final class ThreadSlots {

    private int[] slotOf = new int[16];      // by external id: its slot, -1 none yet, -2 ended for good
    private int[] externalOf = new int[16];  // by slot
    private boolean[] ended = new boolean[16];
    private int used;
    private int live;
    private int seen;

    ThreadSlots() {
        Arrays.fill(slotOf, -1);
    }

    /** What {@link #find} returns for a thread whose end was seen and whose slot is not yet reclaimed. */
    static final int ENDED = Integer.MIN_VALUE;

    /**
     * The slot of live thread {@code external}; -1 when it has none (none yet, or reclaimed after its
     * end); {@link #ENDED} when it has ended.
     */
    int find(int external) {
        if (external < 0) {
            throw new IllegalArgumentException("negative thread id " + external);
        }
        if (external >= slotOf.length) {
            return -1;
        }
        int s = slotOf[external];
        if (s < 0) {
            return -1;
        }
        return ended[s] ? ENDED : s;
    }

    /** The slot of thread {@code external} if it has one (live or ended and not yet reclaimed), else -1. */
    int joined(int external) {
        if (external < 0) {
            throw new IllegalArgumentException("negative thread id " + external);
        }
        return external < slotOf.length && slotOf[external] >= 0 ? slotOf[external] : -1;
    }

    /** Whether allocating a slot now should first reclaim ended ones (enough slots used, enough ended). */
    boolean wantsCompaction(int minSlots) {
        return used > live && used >= Math.max(minSlots, 2 * live);
    }

    /** A new slot for thread {@code external}, which has none. */
    int allocate(int external) {
        if (external >= slotOf.length) {
            int old = slotOf.length;
            slotOf = Arrays.copyOf(slotOf, Math.max(external + 1, old * 2));
            Arrays.fill(slotOf, old, slotOf.length, -1);
        }
        int s = used++;
        live++;
        seen++;
        if (used > externalOf.length) {
            int m = Math.max(used, externalOf.length * 2);
            externalOf = Arrays.copyOf(externalOf, m);
            ended = Arrays.copyOf(ended, m);
        }
        slotOf[external] = s;
        externalOf[s] = external;
        ended[s] = false;
        return s;
    }

    /** Slot {@code s}'s thread has ended. */
    void end(int s) {
        ended[s] = true;
        live--;
    }

    /**
     * Reclaims the ended threads' slots and renumbers the live ones densely, in order; returns, by old
     * slot, the new one (-1 for an ended thread, which may not have events any more).
     */
    int[] compact() {
        int next = 0;
        int[] renumbered = new int[used];
        for (int s = 0; s < used; s++) {
            int ext = externalOf[s];
            if (ended[s]) {
                slotOf[ext] = -2; // ended for good; a later event of it is an error
                renumbered[s] = -1;
                continue;
            }
            renumbered[s] = next;
            slotOf[ext] = next;
            externalOf[next] = ext;
            ended[next] = false;
            next++;
        }
        for (int s = next; s < used; s++) {
            ended[s] = false;
        }
        used = next;
        live = next;
        return renumbered;
    }

    /** The external id of slot {@code s}, or -1 when out of range. */
    int external(int s) {
        return s >= 0 && s < externalOf.length ? externalOf[s] : -1;
    }

    /** Slots in use (live and ended not yet reclaimed). */
    int used() {
        return used;
    }

    /** Threads seen so far. */
    int seen() {
        return seen;
    }
}
