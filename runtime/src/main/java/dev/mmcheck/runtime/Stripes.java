package dev.mmcheck.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Striped spin locks, each with a sequence number, that make every instrumented access and its log
 * entry one atomic step per address: the order in which accesses to an address happen is the order of
 * their sequence numbers, which the checker thread follows when it merges the threads' logs.
 *
 * <p>Every access goes through a CAS on its stripe (a full fence on x86 and a synchronization action
 * in the JMM), and all accesses to one address use the same stripe, so the instrumented run is
 * data-race free on the instrumented accesses and hence sequentially consistent.
 *
 * <p>The critical sections are a few instructions plus the event write; a waiting thread spins, then
 * yields. Any thread may call {@link #lock} and {@link #unlock}, but only for a stripe it then holds.
 */
public final class Stripes {

    /** Number of stripes (a power of two). */
    public static final int COUNT = 1 << 16;
    private static final int PAD = 16; // ints between stripes: one 64-byte line each
    /** References in a cache line (compressed): the last objects of neighbouring stripes go that far apart. */
    private static final int LINE_REFS = 16;
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    // [stripe * PAD]: lock word (0 free, 1 held); [+ 1]: next sequence number; [+ 2]: writes so far;
    // [+ 3]: the mark + 1 (ThreadLog.mark: its serial, or a negative mark after a solo period) of the thread of the
    // last logged access under the stripe (0: none); [+ 4]: its slot; [+ 5]: that thread's knowledge count
    // (ThreadLog.knowledge) just after the access
    private static final int[] WORDS = new int[COUNT * PAD];
    // [lastIndex(stripe)]: the object of the last logged access under the stripe. One reference per stripe, not
    // a line each: every logged access stores a young object into this long-lived array, and G1 refines each card
    // (512 bytes) that such a store dirties. Spread over 8,192 cards (a line per stripe), nearly every store
    // dirtied a card refinement had cleaned: 5.9 s of G1 refinement threads' CPU in W01 at SCALE=10, 16% of the
    // process. Over 512 cards, a store mostly finds its card still dirty (docs/performance.md, thirteenth round).
    private static final Object[] LAST = new Object[COUNT];

    /**
     * Where stripe {@code s}'s last object is in {@link #LAST}: neighbouring stripes (an array's elements, written by a
     * producer as its consumer reads those just behind) {@code LINE_REFS} references apart, so that they never share a
     * line; the stripes that can share one are at least {@code COUNT / LINE_REFS - 1} apart.
     */
    static int lastIndex(int s) {
        return (s & (COUNT / LINE_REFS - 1)) * LINE_REFS + s / (COUNT / LINE_REFS);
    }

    private Stripes() {
    }

    /**
     * The stripe of address (object, slot); {@code slot} is a field id, an array index or a pseudo-field.
     * An array's elements go four to a stripe on consecutive stripes from a place its identity hash
     * picks: threads working on different parts of an array then take different stripes (no lock word
     * moving between their caches), and a loop walks the table in order. Fields are spread by hash.
     */
    public static int of(Object object, int slot) {
        int h = System.identityHashCode(object) * 0x9E3779B9;
        if (slot >= 0 && object.getClass().isArray()) { // folded where the type is known to be an array
            return ((h ^ (h >>> 15)) + (slot >>> 2)) & (COUNT - 1);
        }
        h += slot * 0x85EBCA6B;
        return (h ^ (h >>> 15)) & (COUNT - 1);
    }

    /** Takes stripe {@code s}. */
    public static void lock(int s) {
        int at = s * PAD;
        if (!INTS.compareAndSet(WORDS, at, 0, 1)) {
            spin(at);
        }
    }

    /** Takes stripe {@code s} if it is free; returns whether it did. */
    public static boolean tryLock(int s) {
        return INTS.compareAndSet(WORDS, s * PAD, 0, 1);
    }

    /** The sequence number of the next event logged under stripe {@code s}; only while holding it. */
    public static int nextSeq(int s) {
        int at = s * PAD + 1;
        int seq = WORDS[at]; // plain: guarded by the lock
        WORDS[at] = seq + 1;
        return seq;
    }

    /** Counts a write logged under stripe {@code s} and returns the new count; only while holding it. */
    public static int countWrite(int s) {
        return ++WORDS[s * PAD + 2];
    }

    /** Writes logged under stripe {@code s} so far; only while holding it. */
    public static int writes(int s) {
        return WORDS[s * PAD + 2];
    }

    /**
     * Whether the last logged access under stripe {@code s} was thread {@code serial}'s access to
     * (object, slot): then nothing, in particular no write, happened under the stripe since. Only while
     * holding it.
     */
    public static boolean lastWas(int s, int serial, Object object, int slot) {
        int at = s * PAD;
        return WORDS[at + 3] == serial + 1 && WORDS[at + 4] == slot && LAST[lastIndex(s)] == object;
    }

    /** The knowledge count its thread had just after the last logged access under stripe {@code s}; only while holding it. */
    public static int lastKnowledge(int s) {
        return WORDS[s * PAD + 5];
    }

    /**
     * Records the access about to be logged under stripe {@code s}, and its thread's knowledge count just
     * after it (ThreadLog.knowledge); only while holding it.
     */
    public static void last(int s, int serial, Object object, int slot, int knowledge) {
        int at = s * PAD;
        WORDS[at + 3] = serial + 1;
        WORDS[at + 4] = slot;
        WORDS[at + 5] = knowledge;
        LAST[lastIndex(s)] = object; // keeps at most one object per stripe alive
    }

    private static void spin(int at) {
        int spins = 0;
        boolean parks = false;
        do {
            if (++spins < 20) {
                Thread.onSpinWait();
            } else if (spins == 20) {
                parks = EventLog.isVirtual(Thread.currentThread());
                Thread.yield();
            } else if (parks && spins > 64) {
                // a virtual thread: the holder may be parked (its log full) and need this carrier to go on, and a
                // yielding virtual thread can be run again at once, before it (Jdk25IT hung so on one carrier):
                // parking hands the carrier over for good
                java.util.concurrent.locks.LockSupport.parkNanos(20_000L);
            } else {
                Thread.yield();
            }
        } while ((int) INTS.getVolatile(WORDS, at) != 0 || !INTS.compareAndSet(WORDS, at, 0, 1));
    }

    /**
     * Releases stripe {@code s} with a volatile store, a full fence: the access made under it is
     * globally visible before the thread's next access, even one that takes no stripe (an optimistic
     * repeated load, {@link Probes}), so the instrumented run stays sequentially consistent.
     */
    public static void unlock(int s) {
        INTS.setVolatile(WORDS, s * PAD, 0);
    }

    /** Writes logged under stripe {@code s} so far, read without holding it (acquire). Any thread. */
    public static int writesAcquire(int s) {
        return (int) INTS.getAcquire(WORDS, s * PAD + 2);
    }

    /** Whether stripe {@code s} is held (acquire read). Any thread. */
    public static boolean locked(int s) {
        return (int) INTS.getAcquire(WORDS, s * PAD) != 0;
    }
}
