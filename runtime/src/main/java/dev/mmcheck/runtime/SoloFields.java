package dev.mmcheck.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A thread's state for solo periods ({@link Solo}; docs/agent.md, "Accesses of a thread running alone"): the window
 * a thread ending the period waits for, the hold, and the hand-over ring of what a period left out. A layer of
 * {@link ThreadLog} (see {@link EventRing} for why a superclass, not an object of its own): written by the owner,
 * except what the hand-over protocol lets the checker thread write ({@link #releaseHold}, {@link #clearRing}) and
 * what a thread ending the period reads ({@code window}). Each member says which thread may call it.
 */
abstract class SoloFields extends EventRing {

    private static final VarHandle WINDOW;

    static {
        try {
            WINDOW = MethodHandles.lookup().findVarHandle(SoloFields.class, "window", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 1 while this thread runs a plain access its solo period leaves out: written by the owner, read by a thread ending the period. */
    @SuppressWarnings("unused") // through WINDOW
    private volatile int window;
    /** Whether this thread left an access out in a solo period it has not yet seen end. Owner only. */
    boolean wasSolo;
    /**
     * Whether the window of a solo period stays open over a group of plain accesses (Probes.lockPlainFieldFirst and
     * the other probes of a group): set when the group's first access is left out, cleared by Probes.endGroup. Owner only.
     */
    boolean inGroup;
    /** Plain accesses left out in solo periods (racy read). */
    long soloLeftOut;
    /** What this thread records as the last accessor on a stripe (Stripes.last): its serial, a fresh mark after a solo period. Owner only. */
    int mark;
    /** The Solo.epoch this thread's last event saw. Owner only. */
    int seenEpoch;
    /** The last solo period whose hand-over this thread logged (Solo.pendingId). Under Solo's lock. */
    long handOverLogged;
    /**
     * The event count past which the checker must not feed this log until it has fed the hand-over of its solo period
     * (its hand-over ring), -1 when none: set by this thread when it ends its own period or holds its ring, cleared by
     * the checker ({@link #releaseHold}).
     */
    private volatile long holdAt = -1;
    // the hand-over ring of solo periods (Solo, "What a period keeps"): the accesses this thread left out since it
    // last had no store unflushed (loads before its first store since its last fence reach no report), the newest
    // RING of them, oldest at (ringEnd - ringCount); written by the owner inside its solo windows, materialized by
    // the owner or fed and cleared by the checker at the period's hand-over (ringCount, ringFence, ringHeld)
    /** Entries the hand-over ring keeps. */
    public static final int RING = 256;
    final Object[] ringObject = new Object[RING];
    final int[] ringSlot = new int[RING];
    final int[] ringKind = new int[RING];
    final int[] ringSite = new int[RING];
    int ringEnd;
    int ringCount;
    /** A fence (Kinds.FULL_FENCE or STORE_STORE_FENCE, 0 for none) this thread made before the ring's entries and after its last event logged. */
    int ringFence;
    /** The site of that fence. */
    int ringFenceSite = -1;
    /**
     * Set by the owner when it had to publish an event while the ring had content it could not materialize (its period
     * over): it set {@link #holdAt} there, and leaves nothing more out until the checker has fed the ring and cleared
     * this. Owner sets, consumer clears.
     */
    boolean ringHeld;
    /** Entries the ring dropped, oldest first, because it was full and could not be logged (racy read). */
    long ringDropped;
    /** Entries the ring dropped because it was full while its thread was the only one with a log (racy read). */
    long ringDroppedAlone;
    /** The address of the access a solo period is leaving out, between its lock probe and its log probe. Owner only. */
    Object soloObject;
    int soloSlot;
    /** Whether a lock probe left an access out whose log probe is to record it in the ring. Owner only. */
    boolean soloPending;

    /** A ring of at least {@code capacity} events, for the thread numbered {@code serial} (its first mark). */
    SoloFields(int capacity, int serial) {
        super(capacity);
        this.mark = serial;
    }

    /** The thread, or null once it has been collected. Any thread. */
    public abstract Thread thread();

    /** Entries in the hand-over ring (after the period ended and its hand-over is due). Consumer only. */
    public int ringSize() {
        return ringCount;
    }

    /** The kind of the ring's {@code i}-th entry, oldest first. Consumer only. */
    public int ringKind(int i) {
        return ringKind[(ringEnd - ringCount + i) & (RING - 1)];
    }

    /** The object of the ring's {@code i}-th entry (null for a StoreStore fence). Consumer only. */
    public Object ringObject(int i) {
        return ringObject[(ringEnd - ringCount + i) & (RING - 1)];
    }

    /** The slot of the ring's {@code i}-th entry. Consumer only. */
    public int ringSlot(int i) {
        return ringSlot[(ringEnd - ringCount + i) & (RING - 1)];
    }

    /** The site of the ring's {@code i}-th entry. Consumer only. */
    public int ringSite(int i) {
        return ringSite[(ringEnd - ringCount + i) & (RING - 1)];
    }

    /** The fence before the ring's entries: Kinds.FULL_FENCE, Kinds.STORE_STORE_FENCE, or 0. Consumer only. */
    public int ringFence() {
        return ringFence;
    }

    /** Its site. Consumer only. */
    public int ringFenceSite() {
        return ringFenceSite;
    }

    /** Entries the ring dropped because it was full and could not be logged (racy read). Any thread. */
    public long ringDropped() {
        return ringDropped;
    }

    /** Entries the ring dropped because it was full while its thread was the only one with a log (racy read). Any thread. */
    public long ringDroppedAlone() {
        return ringDroppedAlone;
    }

    /** Empties the ring once its entries are fed, and lets the owner leave accesses out again. Consumer only. */
    public void clearRing() {
        for (int i = 0; i < RING; i++) {
            ringObject[i] = null;
        }
        ringCount = 0;
        ringFence = 0;
        ringHeld = false;
    }

    /** Plain accesses this thread left out in solo periods (racy read). Any thread. */
    public long soloLeftOut() {
        return soloLeftOut;
    }

    /** svHoldAt: the checker holds this log's events past {@code count} until it has fed the hand-over (Solo). Owner only. */
    void svHoldAt(long count) {
        holdAt = count; // volatile store: before any later event of this thread is published
    }

    /** lvHoldAt: the count past which this log is held, -1 when none (volatile). Read by the consumer after lvProducerIndex. */
    public long lvHoldAt() {
        return holdAt;
    }

    /** Releases the hold, once the period's hand-over (its ring) is fed: the hand-over protocol's volatile store. Consumer only. */
    public void releaseHold() {
        holdAt = -1; // volatile store, after the ring was fed and cleared
    }

    /** svWindow: opens (1) the solo window, a volatile store ordered before the owner's next read of Solo.owner. Owner only. */
    void svWindow(int v) {
        WINDOW.setVolatile(this, v);
    }

    /** soWindow: closes the solo window after the access (release). Owner only. */
    void soWindow(int v) {
        WINDOW.setRelease(this, v);
    }

    /** Whether this thread's solo window is open now (a volatile read): for tests and diagnostics. Any thread. */
    public boolean soloWindowOpen() {
        return (int) WINDOW.getVolatile(this) != 0;
    }

    /** lpWindow: the owner's own view of its window. Owner only. */
    int lpWindow() {
        return (int) WINDOW.get(this);
    }

    /** How long the owner may stay blocked inside an access its solo period leaves out before the thread ending the period gives the wait up. */
    static final long WINDOW_BLOCKED_LIMIT_NANOS = 1_000_000_000L;

    /**
     * Waits until the owner is outside any access its solo period leaves out (after Solo.owner was cleared);
     * returns whether it is. Gives up (false) when the owner has stayed blocked, not runnable, for
     * {@link #WINDOW_BLOCKED_LIMIT_NANOS} with the window open: the only code that can block inside such an
     * access is the JVM resolving a class through a class loader, whose lock the caller may hold, so waiting
     * on could hang the application. Any thread but the owner.
     */
    boolean awaitWindowClosed() {
        int spins = 0;
        long blockedSince = 0;
        while ((int) WINDOW.getVolatile(this) != 0) {
            if (++spins < 64) {
                Thread.onSpinWait();
                continue;
            }
            Thread.yield();
            if ((spins & 255) == 0) {
                Thread owner = thread();
                Thread.State state = owner == null ? Thread.State.RUNNABLE : owner.getState();
                long now = System.nanoTime();
                if (state == Thread.State.RUNNABLE) {
                    blockedSince = 0;
                } else if (blockedSince == 0) {
                    blockedSince = now;
                } else if (now - blockedSince > WINDOW_BLOCKED_LIMIT_NANOS) {
                    return false;
                }
            }
        }
        return true;
    }
}
