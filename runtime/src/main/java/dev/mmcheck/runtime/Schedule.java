package dev.mmcheck.runtime;

/**
 * {@code schedule=active}: brief pauses of an application thread where a pause lets another thread's
 * accesses land inside a window that the store-buffer monitors need to see (active testing after
 * Sen's RaceFuzzer; docs/schedules.md):
 * <ul>
 *   <li>the store-buffering window: after a plain or release store, the thread's next access to
 *       another address with no full fence between; the pause comes right after that access, while
 *       the store could still be buffered, so the other thread's store and load run after it (the
 *       interleaving on which monitor_TSO reports Dekker's and store buffering's violations);</li>
 *   <li>the critical-section window: right after a plain or release store made while the thread
 *       holds a monitor, before its monitorexit (which flushes), so that another thread's unlocked
 *       reads land between the store and the exit (broken double-checked locking);</li>
 *   <li>a coin toss after a call into a java.util.concurrent synchronizer: threads it releases together
 *       leave it in the order the OS chose, nearly always the same one; the coin lets each go first as
 *       often as not;</li>
 *   <li>the store-buffering window's widest point: just before the synchronization that closes it (a
 *       java.util.concurrent call, a monitor, a full fence, a volatile store, an atomic's or VarHandle's or Unsafe's
 *       write: a CAS, a getAndSet) when the thread has made an access to another
 *       address since its first plain or release store no full fence has flushed: every load of the window has run, the store is still
 *       buffered, and the other thread's store and load land between (an event loop that clears its flag, reads
 *       its queue and blocks: S33).</li>
 *   <li>the load window (with the access-mode analysis): a load, then the thread's next load of another
 *       address; the pause comes after that second load (a seqlock's version and data, S52). It gives way to the
 *       other threads' pauses: left out while one pauses, ended when one starts (their windows may need this
 *       thread's loads whole, as double-checked locking's reader inside the creator's critical section).</li>
 * </ul>
 * A window point pauses with a probability that falls with the number of times this thread has
 * reached it (always for the first {@link #ALWAYS} times per thread and store site, then
 * {@code ALWAYS/n} at the n-th: a few dozen pauses per site and thread over a long run, so hot code
 * stays fast and cold code is perturbed), and never while the threads together have spent more than
 * {@link #BUDGET_SHARE} of the time since start-up paused, nor while no other thread runs accesses as far as
 * the checker can tell ({@link Solo#alone}: a pause would only spend that budget). A pause yields the processor for {@link #pauseNanos}: it
 * holds no stripe and no lock of mmcheck's, waits for nothing, and changes no value the program
 * computes, so it cannot deadlock a program that does not already deadlock. The choices come from a
 * per-thread generator seeded with {@link #seed} and the thread's serial, so a run repeats them as
 * far as each thread's own path repeats.
 *
 * <p>Called only by {@link StripeProtocol} on the application thread; allocates nothing, logs nothing,
 * calls no instrumented code. Configured once before the application starts.
 */
public final class Schedule {

    /** Window points per thread and store site that always pause. */
    static final int ALWAYS = 32;
    /** The share of the run's time the threads together may spend paused. */
    static final double BUDGET_SHARE = 0.1;
    /**
     * The part of the budget the other window points may spend: the rest is kept for the widest points
     * ({@link #beforeClosing}), where every load of a window has run and one pause covers all of it.
     */
    static final double NARROW_SHARE = 0.6;
    /** The store-buffering pause comes after one of the first this many accesses to other addresses. */
    static final int SPREAD = 3;
    /** Per-thread counters of window points, direct-mapped on the store site's low bits. */
    static final int COUNTERS = 1 << 12;

    /** Whether pauses are on (set before any application thread runs; plain: threads start after). */
    static boolean active;
    /** The seed of the threads' generators. */
    static long seed;
    /** How long a pause lasts. */
    static long pauseNanos = 200_000;
    /** When pauses were turned on (the budget's clock). */
    static long startNanos;
    /** Time all threads spent in pauses so far. */
    static final java.util.concurrent.atomic.AtomicLong PAUSED = new java.util.concurrent.atomic.AtomicLong();
    /** Threads in a pause now (a load window's pause is left out while another thread pauses). */
    static final java.util.concurrent.atomic.AtomicInteger PAUSING = new java.util.concurrent.atomic.AtomicInteger();

    private Schedule() {
    }

    /**
     * Whether loads open windows too ({@link #loadWindows(boolean)}): on when the access-mode analysis runs, whose
     * reports need another thread's writes between two of a thread's loads, not only after a store.
     */
    static boolean loadWindows;

    /** Turns the load windows on (the access-mode analysis runs) or off. Before the application starts. */
    public static void loadWindows(boolean on) {
        loadWindows = on;
    }

    /** Turns pauses on with {@code seed}, each {@code pauseMicros} long. Before the application starts. */
    public static void activate(long seed, long pauseMicros) {
        Schedule.seed = seed;
        Schedule.pauseNanos = pauseMicros * 1000;
        Schedule.startNanos = System.nanoTime();
        Schedule.active = true;
    }

    /** The seed the pauses were drawn with. Any thread. */
    public static long seed() {
        return seed;
    }

    /** Whether pauses are on. Any thread. */
    public static boolean active() {
        return active;
    }

    /**
     * Notes event {@code kind} of thread {@code t} at {@code site} on the held address (the stripe is
     * held): opens, closes or ends a window, leaving the site of a due pause in {@code t.pauseSite}.
     */
    static void onEvent(ThreadLog t, int kind, int site) {
        boolean juc = kind == Kinds.INTERLOCKED && Probes.isSync(t.heldSlot);
        if (juc && t.jucSite == site) {
            // the event after a call into a java.util.concurrent synchronizer (a barrier, latch, lock,
            // queue) at this site: threads it releases together leave it in the order the OS chose; a
            // coin toss delays this one, so that the other runs first as often as not
            t.pauseSite = site;
            t.pauseCoin = true;
            t.pauseWide = false;
            t.pauseLoad = false;
            t.jucSite = -1;
        } else {
            t.jucSite = juc ? site : -1;
        }
        switch (kind) {
            case Kinds.LOAD:
                windowAccess(t);
                t.closingAccesses++;
                if (loadWindows) {
                    loadWindow(t, site);
                }
                break;
            case Kinds.STORE:
            case Kinds.RELEASE_STORE:
                windowAccess(t);
                if (t.closingSite < 0) { // a later store leaves the first one's window open: it is still buffered
                    t.closingSite = site;
                    t.closingAccesses = 0;
                }
                if (t.monitorDepth > 0) {
                    t.pauseSite = site; // inside a critical section: before the monitorexit flushes it
                    t.pauseWide = false;
                    t.pauseLoad = false;
                }
                t.windowSite = site;
                t.windowObject = t.heldObject;
                t.windowSlot = t.heldSlot;
                t.windowAccesses = 0;
                break;
            case Kinds.MONITOR_ENTER:
                t.monitorDepth++;
                t.windowSite = -1;
                t.closingSite = -1;
                t.loadSite = -1;
                break;

            case Kinds.MONITOR_EXIT:
                if (t.monitorDepth > 0) {
                    t.monitorDepth--;
                }
                t.windowSite = -1;
                t.closingSite = -1;
                t.loadSite = -1;
                break;
            default:
                // volatile stores, interlocked operations, full fences, thread start and join: a full
                // fence each, nothing of the thread stays buffered past them, and no load passes them
                t.windowSite = -1;
                t.closingSite = -1;
                t.loadSite = -1;
                break;
        }
    }

    /**
     * An event no address orders: a full fence or a join closes the windows; StoreStore fences do not; a load fence
     * closes the load window (no load passes it).
     */
    static void onFence(ThreadLog t, int kind) {
        if (kind == Kinds.FULL_FENCE || kind == Kinds.THREAD_JOIN) {
            t.windowSite = -1;
            t.closingSite = -1;
            t.loadSite = -1;
        } else if (kind == Kinds.LOAD_FENCE) {
            t.loadSite = -1;
        }
    }

    /**
     * An access under the held stripe to another address than the open window's store: the pause comes
     * after it, or (a coin toss each time) after one of the next accesses, up to the {@link #SPREAD}-th:
     * which load the other thread's store must follow is not known here ({@code seen += y} loads
     * {@code seen} before {@code y}).
     */
    private static void windowAccess(ThreadLog t) {
        if (t.windowSite >= 0 && (t.windowObject != t.heldObject || t.windowSlot != t.heldSlot)) {
            if (++t.windowAccesses < SPREAD && t.nextRandom(2) == 0) {
                return;
            }
            t.pauseSite = t.windowSite;
            t.pauseWide = false; // a store window's pause keeps the narrow points' share, whatever was due before
            t.pauseLoad = false;
            t.windowSite = -1;
            t.windowObject = null;
        }
    }

    /**
     * The load window (with the access-mode analysis, {@link #loadWindows}): a load, then the thread's next load
     * of another address; the pause comes after that second load, so that another thread's writes land between the two
     * (a seqlock reader's version read and its first data read, a careless reader's flag and data). A pause already
     * due for a store-buffering window is kept. The second load opens no window of its own; the one after it does.
     * Its pause may spend the whole budget, as a widest point's does: a window between two loads is as narrow as the
     * program makes it, and S52's seqlock was found in 13 of 20 runs within the narrow points' share, 20 of 20 with the
     * whole (docs/schedules.md, rule 5).
     */
    private static void loadWindow(ThreadLog t, int site) {
        if (t.loadSite >= 0 && (t.loadObject != t.heldObject || t.loadSlot != t.heldSlot)) {
            if (t.pauseSite < 0) {
                t.pauseSite = t.loadSite + COUNTERS / 4; // its own window points, apart from the store windows'
                t.pauseWide = true;
                t.pauseLoad = true;
            }
            t.loadSite = -1;
            t.loadObject = null;
            return;
        }
        t.loadSite = site;
        t.loadObject = t.heldObject;
        t.loadSlot = t.heldSlot;
    }

    /**
     * Before a synchronization event that closes a store-buffering window (a java.util.concurrent call, a monitor, a
     * full fence, a volatile store, a write through an atomic, VarHandle or Unsafe: a lazySet too, which closes
     * nothing but stands where a CAS would), with no stripe held: pauses if the thread made an access to another address since its first unflushed plain or
     * release store, and the pause is chosen. Owner thread only.
     */
    static void beforeClosing(ThreadLog t) {
        int site = t.closingSite;
        if (site < 0 || t.held >= 0) {
            return;
        }
        t.closingSite = -1;
        if (t.closingAccesses > 0) {
            pause(t, site + COUNTERS / 2, false, true, false); // its own window points, apart from the store-buffering window's
        }
    }

    /** After the stripe is released: pauses if a pause is due and chosen. */
    static void afterUnlock(ThreadLog t) {
        int site = t.pauseSite;
        t.pauseSite = -1;
        boolean coin = t.pauseCoin;
        t.pauseCoin = false;
        boolean wide = t.pauseWide;
        t.pauseWide = false;
        boolean load = t.pauseLoad;
        t.pauseLoad = false;
        pause(t, site, coin, wide, load);
    }

    /** Whether the pauses so far have spent the budget at {@code now}: all of it, or a narrow point's part ({@code widest} false). */
    static boolean overBudget(long now, boolean widest) {
        return PAUSED.get() > (now - startNanos) * (widest ? BUDGET_SHARE : BUDGET_SHARE * NARROW_SHARE);
    }

    /**
     * Pauses for window point {@code site} if chosen: always the first times, then less often; a coin toss's half the
     * time; a point that is not a window's widest ({@code widest}) only within {@link #NARROW_SHARE} of the budget; a
     * load window's ({@code load}) only while no other thread pauses.
     */
    private static void pause(ThreadLog t, int site, boolean coin, boolean widest, boolean load) {
        if (t.windowPoints == null) {
            return; // a log made before pauses were turned on
        }
        int n = ++t.windowPoints[site & (COUNTERS - 1)];
        if ((n > ALWAYS && t.nextRandom(n) >= ALWAYS) || (coin && t.nextRandom(2) == 0)) {
            return;
        }
        long now = System.nanoTime();
        if (Solo.alone(t, now)) {
            // no other thread runs accesses (a solo period, or the checker's last look found this thread the only
            // one logging): none has an access to land in the window, and the pause would only slow this thread
            // and spend the budget that threads which do meet need
            t.pausesAlone++;
            return;
        }
        if (overBudget(now, widest)) {
            t.pausesOverBudget++;
            return;
        }
        if (load && PAUSING.get() > 0) {
            // another thread is pausing in a window of its own, which this thread's loads may be what should land in
            // (a double-checked-locking reader's two loads inside the creator's critical section: S25 was found in 9
            // of 20 runs when PSO had load windows without this rule, 18 of 20 with it, 2026-11-29; PSO has none now);
            // a pause between them would let that window close first, and the paused thread writes nothing meanwhile
            t.pausesTogether++;
            return;
        }
        long end = now + pauseNanos;
        PAUSING.incrementAndGet();
        do {
            Thread.yield();
        } while (System.nanoTime() < end && !(load && PAUSING.get() > 1)); // a load window's ends when another pause starts
        PAUSING.decrementAndGet();
        long paused = System.nanoTime() - now;
        t.pauses++;
        t.pausedNanos += paused;
        PAUSED.addAndGet(paused);
    }
}
