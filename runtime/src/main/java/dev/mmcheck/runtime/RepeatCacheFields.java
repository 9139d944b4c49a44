package dev.mmcheck.runtime;

/**
 * A thread's repeat cache ({@link StripeProtocol}; docs/agent.md, "Loads that are not logged"): what it last
 * accessed on each stripe and its knowledge count, so that a load repeating its last access to an address with
 * nothing new learned since is left out. A layer of {@link ThreadLog} (see {@link EventRing} for why a superclass,
 * not an object of its own). Owner only, but for the count's racy read.
 */
abstract class RepeatCacheFields extends ScheduleFields {

    /**
     * How many times this thread may have learned something or made a store: counted at every event it
     * logs except a load that repeats its last access to the address with no write since (such a load
     * joins a write the thread already knows). A repeated load is left out only when this count has not
     * moved since the thread's last access to the address (StripeProtocol.write). Owner only.
     */
    int knowledge;
    /** Loads not logged because they repeat this thread's last access to the address (see Probes). */
    long elided;
    /** The write count an optimistic repeated load validates against. */
    int optimisticWrites;

    // per stripe (direct-mapped on its low bits): the address this thread last accessed there, the
    // stripe's write count and the thread's knowledge count just after; a load of the same address with no
    // write since repeats it, and is left out when the knowledge count has not moved either
    static final int CACHE = 256;

    /**
     * The repeat-cache entry of address (object, slot) under stripe {@code s}: the addresses that share
     * a stripe (an array's neighbouring elements, {@link Stripes#of}) get neighbouring entries.
     */
    static int cacheIndex(int s, int slot) {
        return (s * 4 + (slot & 3)) & (CACHE - 1);
    }
    final Object[] cacheObject = new Object[CACHE];
    final int[] cacheSlot = new int[CACHE];
    final int[] cacheWrites = new int[CACHE];
    final int[] cacheStripe = new int[CACHE];
    /** The thread's knowledge count just after its access in the entry. */
    final int[] cacheKnowledge = new int[CACHE];

    /** A ring of at least {@code capacity} events, for the thread numbered {@code serial}. */
    RepeatCacheFields(int capacity, int serial) {
        super(capacity, serial);
        java.util.Arrays.fill(cacheStripe, -1);
    }

    /** Loads this thread did not log because they repeated its last access (racy read). Any thread. */
    public long elidedLoads() {
        return elided;
    }

    /** Forgets the repeated-access cache (at transaction boundaries). Owner only. */
    void forgetRepeats() {
        java.util.Arrays.fill(cacheObject, null);
        java.util.Arrays.fill(cacheStripe, -1);
    }
}
