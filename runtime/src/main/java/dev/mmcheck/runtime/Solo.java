package dev.mmcheck.runtime;

/**
 * Solo periods (docs/agent.md, "Accesses of a thread running alone"): while one thread is the only
 * thread that logs, its accesses to objects and arrays that cannot block (plain and volatile fields, array
 * elements, calls of the JDK's atomic classes and field updaters, Unsafe and direct VarHandle accesses in every
 * mode, reads of a ConcurrentHashMap) go unlogged, each inside a window; so do the events of monitors and of calls
 * into java.util.concurrent, each at its probe, with the window spanning the probe only, never the call, which
 * may block ({@code wait} is an exit and an entry of its monitor). Thread start and join, fences and static fields
 * are logged as always.
 *
 * <p>Why that keeps every report genuine. The checker grants a period in two steps. It first
 * <em>claims</em> it for the busy thread ({@link #claim}): from then on any other thread's next event
 * (each event reads {@link #epoch} after taking its stripe) takes the period away. It then feeds every other
 * thread's events, takes every stripe once, so that every event another thread began before the claim is
 * published, feeds those too, and only then <em>confirms</em> the period ({@link #confirm}), if nobody took it
 * away meanwhile and no other thread still has a store buffered in the checker's view (the checker refuses the
 * claim then: no fence is fed for a period). From then on the thread's accesses that cannot block are left out.
 * So at the start of a period no other thread's store is buffered in the checker's view, and no access of another
 * thread can fall inside it. Whoever takes the period away (another thread's event, a new log, the run
 * declaring transactions) does so under {@link #LOCK}: it clears the grant, waits until the solo thread is
 * outside any access it decided to leave out (a Dekker handshake on the thread's {@code window}: the
 * solo thread opens it with a volatile store before it reads the grant, and closes it after the access),
 * and records the solo thread's event count then. Until the checker has fed the solo thread's events up
 * to that count and the period's hand-over, every thread logs {@link Kinds#SOLO_END} before its next event,
 * and the checker feeds nothing of that thread before the hand-over. A thread ending its own period (it
 * starts a thread), or one that must publish an event while its hand-over ring has content it cannot log
 * itself, holds its log at that point ({@code holdAt}), so its hand-over falls exactly there.
 *
 * <p>The hand-over is the thread's hand-over ring ("the hand-over ring" below; docs/agent.md, "What a period
 * keeps"): the accesses the period left out since the thread last had no store unflushed, and the fence before
 * them, fed as the events they are, where the period ends in the thread's log, instead of a fence the program did
 * not make. What differs from the full run is which of the solo thread's loads before its first unflushed store
 * the checker knows of, and knowing fewer adds no happens-before edge; what a full ring drops is counted and said
 * in the run's notes. SoloThreadDifferentialTest checks every report against the brute force.
 *
 * <p>Configured once before the application starts; {@link #owner} is read by every access a period may leave out,
 * {@link #epoch} by every logged event.
 */
public final class Solo {

    /** The log of the thread in a solo period, null when none. Read by the probe of every access a period may leave out. */
    static volatile ThreadLog owner;
    /** Changes with every claim: a thread whose last event saw another value goes through {@link #passed} first. */
    static volatile int epoch;
    /** The one thread that logged between the checker's last two looks, or null (schedule=active's hint: {@link #alone}). */
    private static volatile ThreadLog alone;
    /** When the checker looked and found {@link #alone} logging alone. */
    private static volatile long aloneAt;
    /** How long that look says that no other thread runs accesses. */
    static final long ALONE_NANOS = 2_000_000L;
    /** Whether the checker may grant solo periods (solo=on, no sampling, no check that needs every access). */
    private static volatile boolean enabled;
    /** Whether the period on was granted while no other live thread had a log (confirm). */
    private static volatile boolean lone;
    /** See {@link #unseenStarts()}. Under {@link #LOCK}. */
    private static long unseenStarts;
    /** Guards the claim, the grant, the revocation and the pending hand-over. */
    private static final Object LOCK = new Object();
    /** The log a period is claimed for (claimed or confirmed), null when none. Under {@link #LOCK}. */
    private static ThreadLog claim;
    /** The log of the thread whose period was taken away and whose hand-over the checker has not fed yet, or null. Under {@link #LOCK}. */
    private static ThreadLog pending;
    /** That thread's event count when its period was taken away. Under {@link #LOCK}. */
    private static long pendingCount;
    /** The name of the thread that took that period away (the report counts who ends periods). Under {@link #LOCK}. */
    private static String pendingEndedBy;
    /** Counts the periods taken away: which hand-over a thread has logged ({@link ThreadLog#handOverLogged}). Under {@link #LOCK}. */
    private static long pendingId;
    /**
     * Why a hand-over could not be made exactly (the thread ending a period gave up waiting for the solo thread,
     * {@link ThreadLog#awaitWindowClosed}), or null: the checker then stops checking before it feeds that end.
     */
    private static volatile String broken;
    /** Marks given to threads leaving a period ({@link ThreadLog#mark}): negative, never a serial. */
    private static final java.util.concurrent.atomic.AtomicInteger MARKS = new java.util.concurrent.atomic.AtomicInteger(-2);

    private Solo() {
    }

    /** Lets the checker grant solo periods (or not). Before the application starts. */
    public static void configure(boolean on) {
        enabled = on;
        virtualThreads = false;
        owner = null;
        broken = null;
    }

    /** Whether solo periods may be granted: configured on, and every load need not be logged. Any thread. */
    public static boolean enabled() {
        return enabled && !EventLog.everyLoad && !Sampling.on && !virtualThreads;
    }

    /**
     * Set when the first virtual thread gets a log: no period is granted from then on. A period's hand-over can
     * wait on a thread that holds a stripe while its log is full; a virtual thread waiting so parks, and with few
     * carriers the thread that ends the period (spinning on that stripe) and the one the checker waits for could
     * share one carrier for good (Jdk25IT, VirtualFlags with one carrier hung so). Periods only save time.
     */
    private static volatile boolean virtualThreads;

    /** A virtual thread got a log: ends the period claimed or granted, and grants none from now on. Any thread. */
    static void virtualThreadSeen() {
        virtualThreads = true;
        end();
    }

    /** Whether periods stopped at a virtual thread (the run's notes say so). Any thread. */
    public static boolean stoppedByVirtualThreads() {
        return virtualThreads && enabled;
    }

    /**
     * Claims a period for {@code log} (see the class comment), unless one is claimed or its end not yet fed;
     * returns whether it did. The checker thread then feeds every other log, takes every stripe once, feeds them
     * again, and calls {@link #confirm} (or {@link #confirmNot} when another thread has a store buffered). Checker thread only.
     */
    public static boolean claim(ThreadLog log) {
        synchronized (LOCK) {
            if (!enabled() || EventLog.closed || claim != null || pending != null) {
                return false;
            }
            claim = log;
            epoch++; // volatile: every other thread's next event, after its stripe, goes through passed()
            return true;
        }
    }

    /** Whether a period is claimed or on. Checker thread only. */
    public static boolean claimed() {
        synchronized (LOCK) {
            return claim != null;
        }
    }

    /** Whether the period claimed for {@code log} is still claimed (nobody took it away). Checker thread only. */
    public static boolean claimedFor(ThreadLog log) {
        synchronized (LOCK) {
            return claim == log;
        }
    }

    /** Gives up the claim for {@code log}, if it still holds (the checker could not feed every other log). Checker thread only. */
    public static void confirmNot(ThreadLog log) {
        synchronized (LOCK) {
            if (claim == log && owner == null) {
                claim = null;
            }
        }
    }

    /** Starts the period claimed for {@code log}, unless it was taken away meanwhile; returns whether it did. Checker thread only. */
    public static boolean confirm(ThreadLog log) {
        return confirm(log, false);
    }

    /**
     * {@link #confirm}, saying whether the thread is the only live thread with a log ({@code lone}): then no other
     * thread can end the period but one it starts (a full fence of it first) or one no probe saw start, and its ring
     * may drop what does not fit rather than log it ({@link #append}). Checker thread only.
     */
    public static boolean confirm(ThreadLog log, boolean lone) {
        synchronized (LOCK) {
            if (claim != log || !enabled() || EventLog.closed) {
                if (claim == log) {
                    claim = null;
                }
                return false;
            }
            Solo.lone = lone;
            owner = log;
            return true;
        }
    }

    /** Threads no probe saw start that began while a thread ran alone, lone, and its ring had dropped entries. Any thread. */
    public static long unseenStarts() {
        synchronized (LOCK) {
            return unseenStarts;
        }
    }

    /**
     * Called by a thread's event, under its stripe, when {@link #epoch} changed since its last: takes a
     * period claimed or granted to another thread away, then logs the hand-over still pending, if any,
     * before the event. Owner of {@code t} only.
     */
    static void passed(ThreadLog t) {
        ThreadLog handOver = null;
        long count = 0;
        synchronized (LOCK) {
            if (claim != null && claim != t) {
                endLocked();
            }
            if (pending != null && pending != t && t.handOverLogged != pendingId) {
                t.handOverLogged = pendingId;
                handOver = pending;
                count = pendingCount;
            }
            if (t.seenEpoch != epoch) {
                // a period was claimed since this thread's last event: what it remembers of its last accesses may
                // be stale, since the solo thread's stores that the period left out were counted on no stripe, and
                // its hand-over ring can make them stores the checker sees (leave() does the same for the solo thread)
                t.forgetRepeats();
                t.mark = MARKS.getAndDecrement();
            }
            t.seenEpoch = epoch;
        }
        if (handOver != null) {
            // not under the lock: the log may be full, and the checker takes the lock to feed the hand-over
            t.offer(Kinds.SOLO_END, -1, handOver, 0, -1, 0, count);
        }
    }

    /** Why a period's end could not be handed over exactly (the checker stops checking there), or null. Checker thread only. */
    public static String broken() {
        return broken;
    }

    /**
     * Called for every new log, by the thread creating it, before the log is published: ends the period
     * claimed or granted, if any (the new log's thread logs the hand-over at its first event, through
     * {@link #passed}).
     */
    static void created(ThreadLog fresh) {
        notAlone();
        synchronized (LOCK) {
            ThreadLog s = owner;
            if (s != null && lone && s.thread() != Thread.currentThread() && s.ringDroppedAlone > 0) {
                // a thread the solo thread did not start (its start would have fenced it first): one the JDK or the
                // JVM started (a cleaner's, a finalizer's) begins while what the ring dropped may still be raced
                unseenStarts++;
            }
            if (claim != null) {
                endLocked();
            }
        }
    }

    /**
     * Ends the solo period, if one is on, for good: the run has declared transactions, whose checks need
     * every access. Any thread.
     */
    static void end() {
        synchronized (LOCK) {
            if (claim != null) {
                endLocked();
            }
        }
    }

    private static void endLocked() {
        ThreadLog s = owner; // null when claimed, not yet confirmed: nothing was left out
        claim = null;
        if (s != null) {
            owner = null; // volatile: the solo thread's next access reads it after opening its window
            pending = s;
            pendingId++;
            pendingEndedBy = Thread.currentThread().getName();
            if (s.thread() == Thread.currentThread()) {
                // the solo thread itself (starting a thread, declaring transactions), between two accesses: the
                // checker holds its events after this point until it has fed the fence, which so falls here
                pendingCount = s.lvProducerIndex();
                s.svHoldAt(pendingCount); // before any later event of this thread is published
            } else {
                if (!s.awaitWindowClosed()) {
                    Thread solo = s.thread();
                    String name = Thread.currentThread().getName();
                    broken = "thread \"" + name + "\" ended the solo period of thread \"" + (solo == null ? s.name() : solo.getName())
                            + "\", which stayed blocked for over " + ThreadLog.WINDOW_BLOCKED_LIMIT_NANOS / 1_000_000
                            + " ms inside an access the period left out (the JVM loading a class through a class loader whose lock \""
                            + name + "\" may hold): waiting on could hang the application, so checking stopped there; solo=off avoids it"
                            + " (docs/agent.md)";
                }
                pendingCount = s.lvProducerIndex(); // the fence falls where the checker is in that log then
            }
        }
    }

    /**
     * The log whose period ended and whose hand-over the checker has not fed yet, or null; the checker then
     * feeds it itself once it has fed that log's events up to {@link #pendingCount()}. Checker thread only.
     */
    public static ThreadLog pending() {
        synchronized (LOCK) {
            return pending;
        }
    }

    /** The pending log's event count when its period ended. Checker thread only. */
    public static long pendingCount() {
        synchronized (LOCK) {
            return pendingCount;
        }
    }

    /** The name of the thread that ended the pending period (the solo thread's own when it started a thread). Checker thread only. */
    public static String pendingEndedBy() {
        synchronized (LOCK) {
            return pendingEndedBy;
        }
    }

    /** The checker has fed the hand-over of {@code log}'s period: logs created from now on need none. Checker thread only. */
    public static void handedOver(ThreadLog log) {
        synchronized (LOCK) {
            if (pending == log) {
                pending = null;
            }
        }
    }

    /**
     * The checker's look, once a millisecond: {@code log} (or null) was the only thread to log over its last two
     * looks. Checker thread only.
     */
    public static void lookedAlone(ThreadLog log, long now) {
        aloneAt = now;
        alone = log;
    }

    /** Another thread may run accesses from now on (a thread starts, a j.u.c call or a monitor exit may wake one). Any thread. */
    static void notAlone() {
        if (alone != null) {
            alone = null;
        }
    }

    /**
     * Whether no other thread runs accesses beside {@code t} now, as far as the checker can tell: {@code t} is in a
     * solo period, or the checker's last look, less than {@link #ALONE_NANOS} before {@code now}, found it the
     * only thread logging and nothing since may have woken another. A hint for schedule=active, whose pauses are
     * for other threads' accesses to land in; never for what is logged. Owner thread only.
     */
    static boolean alone(ThreadLog t, long now) {
        return owner == t || (alone == t && now - aloneAt < ALONE_NANOS);
    }

    /** Whether {@code t} is in a solo period now (a volatile read, no side effect). Owner thread only. */
    static boolean mine(ThreadLog t) {
        return owner == t;
    }

    /**
     * Whether the access about to run on {@code t} goes unlogged because {@code t} is in a solo
     * period: then {@code t}'s window is open and {@link #close} must follow the access. A thread that
     * finds its period over forgets what it knew of its last accesses (its repeat cache and its mark on the
     * stripes), since the accesses it left out are not in them. Owner thread only.
     */
    static boolean open(ThreadLog t) {
        endGroupLeftOpen(t);
        if (t.lpWindow() != 0) {
            // inside an access left out, where only the JVM's class loading can run code (an instrumented class
            // loader's): logged, and the outer access keeps the window open until its own probe closes it
            return false;
        }
        if (owner != t) {
            if (t.wasSolo) {
                leave(t);
            }
            return false;
        }
        if (t.held >= 0 || t.ringHeld) {
            return false; // nested inside another access's probes (take() counts it), or the ring awaits the checker
        }
        t.svWindow(1); // volatile: a thread taking the period away sees it open, or this thread sees the grant gone
        if (owner != t) {
            t.soWindow(0);
            leave(t);
            return false;
        }
        t.wasSolo = true;
        t.soloLeftOut++;
        return true;
    }

    /** {@link #open}, and if the access is left out, remembers its address for the ring ({@link #record}). Owner only. */
    static boolean openFor(ThreadLog t, Object object, int slot) {
        if (!open(t)) {
            return false;
        }
        pending(t, object, slot);
        return true;
    }

    /** The access left out now, inside the window, is to (object, slot): its log probe records it. Owner only. */
    static void pending(ThreadLog t, Object object, int slot) {
        t.soloObject = object;
        t.soloSlot = slot;
        t.soloPending = true;
    }

    // ------------------------------------------------------------------ the hand-over ring
    //
    // What a period keeps for its hand-over (docs/agent.md, "What a period keeps"). A store the solo thread left out
    // and made no fence after can still be buffered when another thread takes the period away, and the accesses
    // after it are what a violation's happens-before path leaves the thread through. So while the thread has a store
    // unflushed (ThreadLog.storesSinceFlush: its logged stores and those it left out, since its last fence, logged
    // or left out), each access it leaves out goes into its ring, and each fence it leaves out empties the ring (a
    // full fence) or enters it (a StoreStore fence). A full ring, and the ring before the thread publishes any event,
    // it materializes into its log, in program order, taking each entry's stripe; when it cannot (its period is over, or ending: a
    // stripe is held by the thread ending it), it holds its log where it is, and the checker feeds the ring there
    // instead of the fence it used to feed. The ring's content is thus always after every event the thread has
    // published and before every event it publishes next. Owner thread only, inside its window, unless said.

    /** The log probe of an access a period left out: enters it in the ring, or empties the ring for a full fence. */
    static void record(ThreadLog t, int kind, int site) {
        t.soloPending = false;
        Object o = t.soloObject;
        t.soloObject = null;
        recordAccess(t, kind, o, t.soloSlot, site);
    }

    /** {@link #record} of an access whose address the caller has at hand (an element load the probe makes). */
    static void recordAccess(ThreadLog t, int kind, Object object, int slot, int site) {
        switch (kind) {
            case Kinds.LOAD:
                if (t.storesSinceFlush) {
                    append(t, kind, object, slot, site);
                }
                break;
            case Kinds.STORE:
            case Kinds.RELEASE_STORE:
                t.storesSinceFlush = true;
                t.storesSinceFence = true;
                append(t, kind, object, slot, site);
                break;
            default:
                fullFence(t, site); // a volatile store, an interlocked operation, a monitor: a full fence
                break;
        }
    }

    /** A full fence the period left out (an atomic update, a monitor, a java.util.concurrent call, fullFence). */
    static void fullFence(ThreadLog t, int site) {
        t.ringCount = 0;
        t.ringFence = Kinds.FULL_FENCE;
        t.ringFenceSite = site;
        t.storesSinceFlush = false;
        t.storesSinceFence = false;
    }

    /** A StoreStore fence the period left out: orders the stores before it, if there are any, before those after. */
    static void storeStoreFence(ThreadLog t, int site) {
        if (!t.storesSinceFence) {
            return; // no store since the last fence: it orders nothing (as Probes.logFence)
        }
        t.storesSinceFence = false;
        if (t.ringCount == 0) {
            if (t.ringFence == 0) {
                t.ringFence = Kinds.STORE_STORE_FENCE;
                t.ringFenceSite = site;
            }
            return;
        }
        append(t, Kinds.STORE_STORE_FENCE, null, 0, site);
    }

    private static void append(ThreadLog t, int kind, Object object, int slot, int site) {
        if (t.ringCount == ThreadLog.RING && lone) {
            // the only thread with a log: any thread that ends this period is one it starts, whose start is a full fence
            // of it first (every store it made is committed, and the child learns all it did), so what the ring drops
            // reaches no report (SoloThreadDifferentialTest, "lone" periods); a thread no probe saw start is counted
            // (created) and said in a note. Dropped as below, counted apart.
            dropOldest(t);
            t.ringDroppedAlone++;
        } else if (t.ringCount == ThreadLog.RING && !materialize(t)) {
            // full, and a thread ending the period holds a stripe the ring needs (this thread is inside a window, which
            // that thread waits for): the oldest entry goes. A load that goes only takes its edges with it; a store that
            // goes counts as committed early, and with it every store before it (another thread may read it, and none
            // of them can then still be buffered): a full fence before the entries kept, which also subsumes a
            // StoreStore fence (SoloThreadDifferentialTest, with a ring that drops, made false reports with the store
            // dropped alone). Counted: the run's notes say what it may have cost.
            dropOldest(t);
            t.ringDropped++;
        }
        int i = t.ringEnd & (ThreadLog.RING - 1);
        t.ringKind[i] = kind;
        t.ringObject[i] = object;
        t.ringSlot[i] = slot;
        t.ringSite[i] = site;
        t.ringEnd++;
        t.ringCount++;
    }

    /** Drops the ring's oldest entry: a store as committed early with every store before it (a full fence before the rest). */
    private static void dropOldest(ThreadLog t) {
        int i = t.ringEnd & (ThreadLog.RING - 1); // the oldest, the ring being full
        if (t.ringKind[i] != Kinds.LOAD) {
            t.ringFence = Kinds.FULL_FENCE;
            t.ringFenceSite = t.ringSite[i];
        }
        t.ringObject[i] = null;
        t.ringCount--;
    }

    /**
     * Before {@code t} publishes an event while its ring has content: materializes the ring into its log, or, if its
     * period is over (or ending), holds its log here for the checker to feed the ring at this point. No stripe held.
     */
    static void flushOrHold(ThreadLog t) {
        if (t.ringHeld) {
            return; // held already, at the point the ring belongs
        }
        if (owner == t && t.lpWindow() == 0) {
            t.svWindow(1); // as open(): a thread ending the period waits for this window to close
            boolean all = owner == t && materialize(t);
            t.soWindow(0);
            if (all) {
                return;
            }
        }
        t.ringHeld = true; // nothing more is left out until the checker has fed the ring (ThreadLog.clearRing)
        t.knowledge++; // the ring's loads, fed at the hold, may join writes this thread did not know
        t.svHoldAt(t.lvProducerIndex());
    }

    /**
     * Logs the ring's fence and entries in order, each under its stripe taken with tryLock (a stripe is held only by a
     * thread ending this period, which waits for this window: spinning on it would deadlock); returns whether all
     * went, those that did leaving the ring. Inside the window, in the period.
     */
    private static boolean materialize(ThreadLog t) {
        if (t.ringFence != 0) {
            int h = t.handshakeStripe;
            if (!Stripes.tryLock(h)) {
                return false;
            }
            if (!EventLog.closed) {
                t.offer(t.ringFence, t.ringFenceSite, null, 0, -1, 0, StripeProtocol.NO_VALUE);
            }
            Stripes.unlock(h);
            t.ringFence = 0;
        }
        while (t.ringCount > 0) {
            int i = (t.ringEnd - t.ringCount) & (ThreadLog.RING - 1);
            int kind = t.ringKind[i];
            Object o = t.ringObject[i];
            int slot = t.ringSlot[i];
            int s = kind == Kinds.STORE_STORE_FENCE ? t.handshakeStripe : Stripes.of(o, slot);
            if (!Stripes.tryLock(s)) {
                return false;
            }
            if (!EventLog.closed) {
                if (kind == Kinds.STORE_STORE_FENCE) {
                    t.offer(kind, t.ringSite[i], null, 0, -1, 0, StripeProtocol.NO_VALUE);
                } else {
                    if (kind != Kinds.LOAD) {
                        Stripes.countWrite(s);
                    }
                    t.offer(kind, t.ringSite[i], o, slot, s, Stripes.nextSeq(s), 0, StripeProtocol.NO_VALUE);
                    t.knowledge++; // a load of the ring may join a write this thread did not know (StripeProtocol.write)
                    Stripes.last(s, t.mark, o, slot, t.knowledge);
                }
            }
            Stripes.unlock(s);
            t.ringObject[i] = null;
            t.ringCount--;
        }
        return true;
    }

    /**
     * Closes the window of a group of plain accesses that an exception the probes do not foresee (a StackOverflowError
     * at a probe's call) left open: a group runs no other probe (Probes, "groups of plain accesses"), so a thread that
     * reaches one with {@code inGroup} set left its group. Owner thread only.
     */
    static void endGroupLeftOpen(ThreadLog t) {
        if (t.inGroup) {
            t.inGroup = false;
            close(t);
        }
    }

    /** Closes {@code t}'s window after an access {@link #open} left out (release: the access comes first). Owner only. */
    static void close(ThreadLog t) {
        if (t.lpWindow() != 0) {
            t.soWindow(0);
        }
    }

    private static void leave(ThreadLog t) {
        t.wasSolo = false;
        t.forgetRepeats();
        t.mark = MARKS.getAndDecrement();
    }
}
