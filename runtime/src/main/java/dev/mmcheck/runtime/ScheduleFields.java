package dev.mmcheck.runtime;

/**
 * A thread's state for schedule=active's pauses ({@link Schedule}): the store-buffering window open, the pause due,
 * the pause generator and the pauses' counts. A layer of {@link ThreadLog} (see {@link EventRing} for why a
 * superclass, not an object of its own). Owner only, but for the counts' racy reads.
 */
abstract class ScheduleFields extends SoloFields {

    /** Monitors this thread holds now (as logged). */
    int monitorDepth;
    /** Site of the plain or release store whose store-buffering window is open, -1 when none. */
    int windowSite = -1;
    /** The address of that store. */
    Object windowObject;
    int windowSlot;
    /** Accesses to other addresses since that store. */
    int windowAccesses;
    /** Site of the first plain or release store no full fence has flushed since, -1 when none (Schedule.beforeClosing). */
    int closingSite = -1;
    /** Accesses since that store. */
    int closingAccesses;
    /** Site of the load whose load window is open (Schedule.loadWindows), -1 when none; its address. */
    int loadSite = -1;
    Object loadObject;
    int loadSlot;
    /** Site of the store whose window a pause is due for after the stripe is released, -1 when none. */
    int pauseSite = -1;
    /** Whether that pause is a coin toss after a j.u.c. synchronizer rather than a window's. */
    boolean pauseCoin;
    /** Whether that pause may spend the whole budget (a load window's), not only the narrow points' share. */
    boolean pauseWide;
    /** Whether that pause is a load window's (left out while another thread pauses: Schedule.afterUnlock). */
    boolean pauseLoad;
    /** Site of the j.u.c. call this thread's last event was the "before" half of, -1 when none. */
    int jucSite = -1;
    /** Window points reached per store site (direct-mapped), null unless pauses are on. */
    final int[] windowPoints;
    /** The state of this thread's pause generator (xorshift64*). */
    private long random;
    /** Pauses made, time spent in them, and pauses left out because the budget was spent. */
    long pauses;
    long pausedNanos;
    long pausesOverBudget;
    /** Pauses left out because no other thread ran accesses beside this one, as far as the checker could tell (Schedule). */
    long pausesAlone;
    /** Load windows' pauses left out because another thread was pausing at the time (Schedule.afterUnlock). */
    long pausesTogether;

    /** A ring of at least {@code capacity} events, for the thread numbered {@code serial} (its pause generator's seed). */
    ScheduleFields(int capacity, int serial) {
        super(capacity, serial);
        this.windowPoints = Schedule.active ? new int[Schedule.COUNTERS] : null;
        this.random = (Schedule.seed ^ (serial + 1) * 0x9E3779B97F4A7C15L) | 1;
    }

    /** A pseudo-random number in [0, bound) from this thread's generator. Owner only. */
    int nextRandom(int bound) {
        long x = random;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        random = x;
        return (int) (((x * 0x2545F4914F6CDD1DL) >>> 33) % bound);
    }

    /** Pauses this thread made under schedule=active (racy read). Any thread. */
    public long pauses() {
        return pauses;
    }

    /** Nanoseconds this thread spent in pauses (racy read). Any thread. */
    public long pausedNanos() {
        return pausedNanos;
    }

    /** Pauses left out because no other thread ran accesses beside this one, as far as the checker could tell (racy read). Any thread. */
    public long pausesAlone() {
        return pausesAlone;
    }

    /** Load windows' pauses left out because another thread was pausing at the time (racy read). Any thread. */
    public long pausesTogether() {
        return pausesTogether;
    }

    /** Pauses left out because the thread had spent its budget (racy read). Any thread. */
    public long pausesOverBudget() {
        return pausesOverBudget;
    }
}
