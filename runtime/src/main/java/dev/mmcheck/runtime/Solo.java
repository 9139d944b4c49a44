package dev.mmcheck.runtime;

/**
 * Solo periods (docs/agent.md, "Accesses of a thread running alone"): while one thread is the only
 * live thread that logs, its plain loads and stores (fields, array elements, and plain-mode Unsafe and
 * VarHandle accesses) go unlogged; its synchronization is logged as always.
 *
 * <p>Why that keeps every report genuine: the checker grants a period only when every other thread that
 * ever logged has ended and its end (which commits its stores) has been fed, so no store of another
 * thread is buffered in the checker's view and no access of another thread can fall inside the period.
 * The period ends when a thread creates a new log ({@link #created}): under {@link #LOCK} it takes the
 * grant away, waits until the solo thread is outside any access it decided to leave out (a Dekker
 * handshake on the thread's {@code window}: the solo thread opens its window with a volatile store
 * before it reads the grant, and closes it after the access), and hands the new log the solo thread's
 * event count then. The new thread's first event ({@link Kinds#SOLO_END}) makes the checker commit
 * the solo thread's stores once it has fed those events and before anything the new thread does: a full
 * fence that the program did not make, which only takes runs away, so a report with it is a report
 * without it. Every other thread's events come after that point, where the checker's view and the full
 * run's agree on every buffer (all empty) and differ only in which earlier accesses of the solo thread
 * they know of, which adds no happens-before edge (SoloThreadDifferentialTest checks every report
 * against the brute force).
 *
 * <p>Configured once before the application starts; {@link #owner} is read by every plain access.
 */
public final class Solo {

    /** The log of the thread in a solo period, null when none. Read by every plain access's probe. */
    static volatile ThreadLog owner;
    /** Whether the checker may grant solo periods (solo=on, no sampling, no check that needs every access). */
    private static volatile boolean enabled;
    /** Guards the grant, the revocation and the pending hand-over. */
    private static final Object LOCK = new Object();
    /** Logs created so far. Under {@link #LOCK}. */
    private static long created;
    /** The log of the thread whose period was taken away and whose hand-over the checker has not fed yet, or null. Under {@link #LOCK}. */
    private static ThreadLog pending;
    /** That thread's event count when its period was taken away. Under {@link #LOCK}. */
    private static long pendingCount;
    /** Periods granted so far. Under {@link #LOCK}. */
    private static long grants;
    /** Marks given to threads leaving a period ({@link ThreadLog#mark}): negative, never a serial. */
    private static final java.util.concurrent.atomic.AtomicInteger MARKS = new java.util.concurrent.atomic.AtomicInteger(-2);

    private Solo() {
    }

    /** Lets the checker grant solo periods (or not). Before the application starts. */
    public static void configure(boolean on) {
        enabled = on;
        owner = null;
    }

    /** Whether solo periods may be granted: configured on, and every load need not be logged. Any thread. */
    public static boolean enabled() {
        return enabled && !EventLog.everyLoad && !Sampling.on;
    }

    /**
     * Grants {@code log} a solo period if no log was created beyond the {@code logsSeen} the checker
     * knows of and no hand-over is pending; returns whether it did. Checker thread only, once every
     * other log it knows of has ended and been fed to its end.
     */
    public static boolean grant(ThreadLog log, long logsSeen) {
        synchronized (LOCK) {
            if (!enabled() || EventLog.closed || owner != null || pending != null || created != logsSeen) {
                return false;
            }
            owner = log;
            grants++;
            return true;
        }
    }

    /** Periods granted so far. Any thread. */
    public static long grants() {
        synchronized (LOCK) {
            return grants;
        }
    }

    /**
     * Called for every new log, by the thread creating it, before the log is published: ends the solo
     * period if one is on (see the class comment) and gives the new log the hand-over still pending, if
     * any, which its thread logs first ({@link EventLog#attach}).
     */
    static void created(ThreadLog fresh) {
        synchronized (LOCK) {
            created++;
            endLocked();
            if (pending != null) {
                fresh.handOver = pending;
                fresh.handOverCount = pendingCount;
            }
        }
    }

    /**
     * Ends the solo period, if one is on, for good: the run has declared transactions, whose checks need
     * every access. Any thread.
     */
    static void end() {
        synchronized (LOCK) {
            endLocked();
        }
    }

    private static void endLocked() {
        ThreadLog s = owner;
        if (s != null) {
            owner = null; // volatile: the solo thread's next access reads it after opening its window
            pending = s;
            if (s.thread() == Thread.currentThread()) {
                // the solo thread itself (starting a thread, declaring transactions), between two accesses: the
                // checker holds its events after this point until it has fed the fence, which so falls here
                pendingCount = s.lvProducerIndex();
                s.svHoldAt(pendingCount); // before any later event of this thread is published
            } else {
                s.awaitWindowClosed();
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

    /** The checker has fed the hand-over of {@code log}'s period: logs created from now on need none. Checker thread only. */
    public static void handedOver(ThreadLog log) {
        synchronized (LOCK) {
            if (pending == log) {
                pending = null;
            }
        }
    }

    /**
     * Whether the plain access about to run on {@code t} goes unlogged because {@code t} is in a solo
     * period: then {@code t}'s window is open and {@link #close} must follow the access. A thread that
     * finds its period over forgets what it knew of its last accesses (its repeat cache and its mark on the
     * stripes), since the accesses it left out are not in them. Owner thread only.
     */
    static boolean open(ThreadLog t) {
        if (owner != t) {
            if (t.wasSolo) {
                leave(t);
            }
            return false;
        }
        if (t.held >= 0) {
            return false; // nested inside another access's probes: take() counts it
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
