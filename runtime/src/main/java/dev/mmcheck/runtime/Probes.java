package dev.mmcheck.runtime;

import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicMarkableReference;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicStampedReference;
import java.util.concurrent.atomic.DoubleAccumulator;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one static facade that instrumented code calls (RoadRunner's shape): int ids for sites and
 * fields, the calling thread's {@link ThreadLog} passed in from a local variable set at method entry.
 *
 * <p>An access and its log entry form one step per address, under the address's stripe
 * ({@link Stripes}): a <em>lock</em> probe before the instruction takes the stripe, the instruction
 * runs, and a <em>log</em> probe after it writes the event and releases the stripe. A lock probe
 * takes nothing when the access is going to throw (null receiver, index out of bounds, wrong array
 * element type), so an exception never leaves a stripe held. Bracketed calls (atomics, updaters,
 * VarHandles, Unsafe) add a handler that calls {@link #unlock} when the call throws.
 *
 * <p>Every probe runs on the application thread that calls it; none allocates, logs or calls
 * application code. Names say what the probe does around the application's instruction: {@code lock*}
 * takes the stripe, {@code logLoad*}/{@code logStore*}/{@code log*} write the event, {@code load*}
 * performs the load itself. This class is the facade the rewriter's {@code Probe} table lists; the
 * stripe protocol is in {@link StripeProtocol}, primitive array loads in {@link ArrayLoads}.
 */
public final class Probes {

    /** Pseudo-field: the monitor of an object. */
    public static final int MONITOR = -1;
    /** Pseudo-field of a Thread object on which its start and begin are ordered. */
    public static final int START = -2;
    /** Pseudo-field of the object standing for the JDK's internal synchronization. */
    public static final int JUC = -3;
    /** Pseudo-field: the value of an Atomic* object. */
    public static final int VALUE = -4;
    /** Pseudo-field: the referent of a java.lang.ref.Reference. */
    public static final int REFERENT = -5;
    /** Pseudo-field: the interrupt status of a Thread. */
    public static final int INTERRUPTED = -6;
    /** lockHandle's coordinates for a call shape the probes do not model (more than two, an index not an int). */
    public static final int HANDLE_UNMODELLED = 3;
    /** Added to lockHandle's coordinates for a call in an excluded class (its unlogged accesses are not counted). */
    public static final int HANDLE_IN_EXCLUDED = 1 << 8;
    /** Base of the ids given to accessors no probe saw being created (counting down). */
    public static final int UNRESOLVED = -1 << 20;

    /**
     * The object standing for the synchronization of executors, futures and completion stages, and of static
     * java.util.concurrent calls (one address: {@link SyncObjects}).
     */
    public static final Object JUC_OBJECT = new Object();
    /** The object standing for ThreadLocalRandom's seeder, which every thread's first current() draws from. */
    public static final Object RANDOM_SEEDER = new Object();
    /** The object standing for java.io's internal synchronization (streams, readers, writers: {@link SyncObjects}). */
    public static final Object IO_OBJECT = new Object();

    private Probes() {
    }

    /** The calling thread's log, fetched once at method entry into a local variable. */
    public static ThreadLog threadLog() {
        return EventLog.current();
    }

    /**
     * The site of the call that reached the method now starting, as {@code t} holds it ({@link #callFrom}), or -1;
     * the method keeps it in a local to put back after each call it makes. Every event {@code t} logs carries what
     * {@code t} holds ({@link ThreadLog#CALLER}): the checker keeps it for a helper's access (one whose field or
     * element its caller chose), so that two races through one helper are two findings (docs/report-format.md,
     * "One finding per race").
     */
    public static int caller(ThreadLog t) {
        return t.caller;
    }

    /** Before a call from instrumented code, the call's site; after it, the caller's own ({@link #caller}). */
    public static void callFrom(ThreadLog t, int site) {
        t.caller = site;
    }

    // ------------------------------------------------------------------------------------ locking
    /**
     * Lock probe for a volatile field access: {@code owner} is the object, or the declaring Class of a static.
     * Logged, except an instance field's in a solo period ({@link Solo}: the fences that start and end the
     * period keep every report genuine whatever the kind of the accesses left out inside it).
     */
    public static void lockField(Object owner, ThreadLog t, int field) {
        if (owner != null && !StripeProtocol.off(t) && (owner instanceof Class || !Solo.openFor(t, owner, field))) {
            StripeProtocol.take(t, owner, field);
        }
    }

    /**
     * Lock probe for a plain (non-volatile) instance field access: nothing is taken, and the access
     * goes unlogged, when {@code sample=R} left the object out ({@link Sampling}).
     */
    public static void lockPlainField(Object owner, ThreadLog t, int field) {
        if (owner != null && !StripeProtocol.off(t, owner) && !Solo.openFor(t, owner, field)) {
            StripeProtocol.take(t, owner, field);
        }
    }

    // ------------------------------------------------------------------ groups of plain accesses
    //
    // The rewriter groups the plain accesses of a stretch of straight-line code in which nothing between them can
    // throw, block, call or load a class (MethodRewriter.groups). In a solo period the group's first access opens the
    // window (Solo.open) and the others run inside it: no fence, no test of the period, only the test of inGroup, the
    // count of accesses left out and the log probes' tests of held; endGroup closes the window after the last. An
    // access of the group that would throw (a null receiver, an index out of bounds, an AASTORE of the wrong type)
    // closes the window first: no exception the probes foresee leaves the group with it open, and one they do not (a
    // StackOverflowError at a probe's call) is closed by the thread's next Solo.open or take (a group never runs one).
    // Outside a period each probe is its ungrouped counterpart. Owner thread only.

    /** {@link #lockPlainField} for the first access of a group: a solo period's window stays open after it. */
    public static void lockPlainFieldFirst(Object owner, ThreadLog t, int field) {
        if (owner != null && !StripeProtocol.off(t, owner)) {
            if (Solo.openFor(t, owner, field)) {
                t.inGroup = true;
                return;
            }
            StripeProtocol.take(t, owner, field);
        }
    }

    /** {@link #lockElement} for the first access of a group. */
    public static void lockElementFirst(Object array, int index, ThreadLog t) {
        if (array != null && !StripeProtocol.off(t, array) && index >= 0 && index < java.lang.reflect.Array.getLength(array)) {
            if (Solo.openFor(t, array, index)) { // last: an access left out in a solo period must not throw before its log probe
                t.inGroup = true;
                return;
            }
            StripeProtocol.take(t, array, index);
        }
    }

    /** {@link #lockElementStore} for the first access of a group. */
    public static void lockElementStoreFirst(Object[] array, int index, Object value, ThreadLog t) {
        if (array != null && index >= 0 && index < array.length
                && (value == null || array.getClass().getComponentType().isInstance(value)) && !StripeProtocol.off(t, array)) {
            if (Solo.openFor(t, array, index)) {
                t.inGroup = true;
                return;
            }
            StripeProtocol.take(t, array, index);
        }
    }

    /** {@link #lockPlainField} for a later access of a group: left out while the group's window is open. */
    public static void lockPlainFieldIn(Object owner, ThreadLog t, int field) {
        if (t.inGroup) {
            if (owner == null) {
                endGroup(t); // the access throws: not with the window open
            } else {
                t.soloLeftOut++;
                Solo.pending(t, owner, field);
            }
            return;
        }
        lockPlainField(owner, t, field);
    }

    /** {@link #lockElement} for a later access of a group. */
    public static void lockElementIn(Object array, int index, ThreadLog t) {
        if (t.inGroup) {
            if (array == null || index < 0 || index >= java.lang.reflect.Array.getLength(array)) {
                endGroup(t);
            } else {
                t.soloLeftOut++;
                Solo.pending(t, array, index);
            }
            return;
        }
        lockElement(array, index, t);
    }

    /** {@link #lockElementStore} for a later access of a group. */
    public static void lockElementStoreIn(Object[] array, int index, Object value, ThreadLog t) {
        if (t.inGroup) {
            if (array == null || index < 0 || index >= array.length
                    || (value != null && !array.getClass().getComponentType().isInstance(value))) {
                endGroup(t);
            } else {
                t.soloLeftOut++;
                Solo.pending(t, array, index);
            }
            return;
        }
        lockElementStore(array, index, value, t);
    }

    /** After the last access of a group: closes the window its first access left open, if it did. */
    public static void endGroup(ThreadLog t) {
        if (t.inGroup) {
            t.inGroup = false;
            Solo.close(t);
        }
    }

    /** {@link #loadElementI} for a later access of a group. */
    public static int loadElementIIn(int[] a, int i, ThreadLog t, int site) {
        if (t.inGroup && inGroupBounds(a, i, a == null ? 0 : a.length, t, site)) {
            return a[i];
        }
        return ArrayLoads.loadI(a, i, t, site);
    }

    /** {@link #loadElementJ} for a later access of a group. */
    public static long loadElementJIn(long[] a, int i, ThreadLog t, int site) {
        if (t.inGroup && inGroupBounds(a, i, a == null ? 0 : a.length, t, site)) {
            return a[i];
        }
        return ArrayLoads.loadJ(a, i, t, site);
    }

    /** {@link #loadElementF} for a later access of a group. */
    public static float loadElementFIn(float[] a, int i, ThreadLog t, int site) {
        if (t.inGroup && inGroupBounds(a, i, a == null ? 0 : a.length, t, site)) {
            return a[i];
        }
        return ArrayLoads.loadF(a, i, t, site);
    }

    /** {@link #loadElementD} for a later access of a group. */
    public static double loadElementDIn(double[] a, int i, ThreadLog t, int site) {
        if (t.inGroup && inGroupBounds(a, i, a == null ? 0 : a.length, t, site)) {
            return a[i];
        }
        return ArrayLoads.loadD(a, i, t, site);
    }

    /** {@link #loadElementB} for a later access of a group. */
    public static int loadElementBIn(Object array, int i, ThreadLog t, int site) {
        if (t.inGroup && inGroupBounds(array, i, array == null ? 0 : java.lang.reflect.Array.getLength(array), t, site)) {
            return array instanceof boolean[] ? (((boolean[]) array)[i] ? 1 : 0) : ((byte[]) array)[i];
        }
        return ArrayLoads.loadB(array, i, t, site);
    }

    /** {@link #loadElementC} for a later access of a group. */
    public static int loadElementCIn(char[] a, int i, ThreadLog t, int site) {
        if (t.inGroup && inGroupBounds(a, i, a == null ? 0 : a.length, t, site)) {
            return a[i];
        }
        return ArrayLoads.loadC(a, i, t, site);
    }

    /** {@link #loadElementS} for a later access of a group. */
    public static int loadElementSIn(short[] a, int i, ThreadLog t, int site) {
        if (t.inGroup && inGroupBounds(a, i, a == null ? 0 : a.length, t, site)) {
            return a[i];
        }
        return ArrayLoads.loadS(a, i, t, site);
    }

    /**
     * In an open group: whether the element load about to run stays in it (counted as left out), or would throw, in
     * which case the group ends here and the load runs outside it (and throws).
     */
    private static boolean inGroupBounds(Object a, int i, int length, ThreadLog t, int site) {
        if (a != null && i >= 0 && i < length) {
            t.soloLeftOut++;
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            return true;
        }
        endGroup(t);
        return false;
    }

    /**
     * Lock probe for a read of a static final field: only the calling thread's first read of it takes
     * the stripe and is logged. Only the class initializer writes it, before any other thread can read
     * it, so that first read (ordered after the logged write by the stripe) is the one that orders the
     * thread after the initialization; later reads repeat it with no write since, and a repeated load
     * is left out anyway (docs/agent.md), without the stripe it would still take.
     */
    public static void lockStaticFinal(ThreadLog t, int field) {
        if (!t.seenStaticFinal(field) && !StripeProtocol.off(t)) {
            StripeProtocol.take(t, StaticOwners.of(field), field);
        }
    }

    /** Lock probe for a static field: its address is (the field's owner token, field). */
    public static void lockStatic(ThreadLog t, int field) {
        if (!StripeProtocol.off(t)) {
            StripeProtocol.take(t, StaticOwners.of(field), field);
        }
    }

    /** {@link #lockField} for a volatile store: schedule=active's widest point of a window first (Schedule.beforeClosing). */
    public static void lockVolatileStore(Object owner, ThreadLog t, int field) {
        if (Schedule.active && owner != null && !StripeProtocol.off(t)) {
            Schedule.beforeClosing(t);
        }
        lockField(owner, t, field);
    }

    /** {@link #lockStatic} for a volatile store: schedule=active's widest point of a window first (Schedule.beforeClosing). */
    public static void lockStaticVolatileStore(ThreadLog t, int field) {
        if (Schedule.active && !StripeProtocol.off(t)) {
            Schedule.beforeClosing(t);
        }
        lockStatic(t, field);
    }

    /** Lock probe for an array element read or a primitive element write. */
    public static void lockElement(Object array, int index, ThreadLog t) {
        // the sampling test first: an unsampled array's element costs no length lookup
        if (array != null && !StripeProtocol.off(t, array) && index >= 0 && index < java.lang.reflect.Array.getLength(array)
                && !Solo.openFor(t, array, index)) { // last: an access left out in a solo period must not throw before its log probe
            StripeProtocol.take(t, array, index);
        }
    }

    /** Lock probe for a reference element write (AASTORE): nothing is taken when the store will throw. */
    public static void lockElementStore(Object[] array, int index, Object value, ThreadLog t) {
        if (array != null && index >= 0 && index < array.length
                && (value == null || array.getClass().getComponentType().isInstance(value)) && !StripeProtocol.off(t, array)
                && !Solo.openFor(t, array, index)) {
            StripeProtocol.take(t, array, index);
        }
    }

    /** Releases the stripe taken by the last lock probe, if any (after a store, or a bracketed call that threw). */
    public static void unlock(ThreadLog t) {
        StripeProtocol.unlock(t);
    }

    /**
     * Before a bracketed call that runs a user function (getAndUpdate, accumulateAndGet...): the
     * function's own accesses are not logged, since the address's stripe is held while it runs.
     */
    public static void mute(ThreadLog t) {
        t.mutedCalls++;
    }

    /**
     * Before the lock probe of a bracketed call that writes (anything but a load): under sampling the
     * lock probe then takes the call's flush ticket before the call runs (StripeProtocol.takeBracketed).
     */
    public static void bracketWrites(ThreadLog t) {
        t.bracketWrites = true;
        if (Schedule.active && !StripeProtocol.off(t)) {
            Schedule.beforeClosing(t); // a CAS, getAndSet or volatile store closes a window: its widest point first
        }
    }

    /** {@link #logCall} after a muted call. */
    public static void logCallUnmute(ThreadLog t, int site, int kind) {
        t.mutedCalls--;
        logCall(t, site, kind);
    }

    /** {@link #unlock} after a muted call threw. */
    public static void unlockUnmute(ThreadLog t) {
        t.mutedCalls--;
        unlock(t);
    }

    // ------------------------------------------------------ primitive array loads (the probe loads)

    /** Replaces IALOAD. The repeat of the thread's last access to the element, with no write since, takes no stripe. */
    public static int loadElementI(int[] a, int i, ThreadLog t, int site) {
        return ArrayLoads.loadI(a, i, t, site);
    }

    /** Replaces LALOAD. The repeat of the thread's last access to the element, with no write since, takes no stripe. */
    public static long loadElementJ(long[] a, int i, ThreadLog t, int site) {
        return ArrayLoads.loadJ(a, i, t, site);
    }

    /** Replaces FALOAD. The repeat of the thread's last access to the element, with no write since, takes no stripe. */
    public static float loadElementF(float[] a, int i, ThreadLog t, int site) {
        return ArrayLoads.loadF(a, i, t, site);
    }

    /** Replaces DALOAD. The repeat of the thread's last access to the element, with no write since, takes no stripe. */
    public static double loadElementD(double[] a, int i, ThreadLog t, int site) {
        return ArrayLoads.loadD(a, i, t, site);
    }

    /** Replaces CALOAD. The repeat of the thread's last access to the element, with no write since, takes no stripe. */
    public static int loadElementC(char[] a, int i, ThreadLog t, int site) {
        return ArrayLoads.loadC(a, i, t, site);
    }

    /** Replaces SALOAD. The repeat of the thread's last access to the element, with no write since, takes no stripe. */
    public static int loadElementS(short[] a, int i, ThreadLog t, int site) {
        return ArrayLoads.loadS(a, i, t, site);
    }

    /** Replaces BALOAD, on a byte[] or a boolean[] (which BALOAD also reads). The repeat of the thread's last access to the element, with no write since, takes no stripe. */
    public static int loadElementB(Object array, int i, ThreadLog t, int site) {
        return ArrayLoads.loadB(array, i, t, site);
    }

    // ------------------------------------------------------------------------ loads (after the load)

    /** Log probe after an int-typed load (boolean, byte, char, short, int). */
    public static void logLoadI(int v, ThreadLog t, int site) {
        StripeProtocol.logValue(t, Kinds.LOAD, site, v);
        unlock(t);
    }

    /** Log probe after a long load. */
    public static void logLoadJ(long v, ThreadLog t, int site) {
        StripeProtocol.logValue(t, Kinds.LOAD, site, v);
        unlock(t);
    }

    /** Log probe after a float load. */
    public static void logLoadF(float v, ThreadLog t, int site) {
        StripeProtocol.logValue(t, Kinds.LOAD, site, Float.floatToRawIntBits(v));
        unlock(t);
    }

    /** Log probe after a double load. */
    public static void logLoadD(double v, ThreadLog t, int site) {
        StripeProtocol.logValue(t, Kinds.LOAD, site, Double.doubleToRawLongBits(v));
        unlock(t);
    }

    /** Log probe after a reference load. */
    public static void logLoadA(Object v, ThreadLog t, int site) {
        if (t.held >= 0) { // else nothing to log: no identity to look up
            StripeProtocol.logValue(t, Kinds.LOAD, site, EventLog.selfCheck && v != null ? System.identityHashCode(v) : StripeProtocol.NO_VALUE);
        } else if (t.soloPending) {
            Solo.record(t, Kinds.LOAD, site); // left out by a solo period: into its hand-over ring
        }
        unlock(t);
    }

    // ---------------------------------------------------------- stores (before the store; unlock after)

    /** Log probe before an int-typed store of kind {@code kind} (store or volatile store). */
    public static void logStoreI(int v, ThreadLog t, int site, int kind) {
        StripeProtocol.logValue(t, kind, site, v);
    }

    /** Log probe before a long store. */
    public static void logStoreJ(long v, ThreadLog t, int site, int kind) {
        StripeProtocol.logValue(t, kind, site, v);
    }

    /** Log probe before a float store. */
    public static void logStoreF(float v, ThreadLog t, int site, int kind) {
        StripeProtocol.logValue(t, kind, site, Float.floatToRawIntBits(v));
    }

    /** Log probe before a double store. */
    public static void logStoreD(double v, ThreadLog t, int site, int kind) {
        StripeProtocol.logValue(t, kind, site, Double.doubleToRawLongBits(v));
    }

    /** Log probe before a reference store. */
    public static void logStoreA(Object v, ThreadLog t, int site, int kind) {
        if (t.held >= 0) { // else nothing to log: no identity to look up
            StripeProtocol.logValue(t, kind, site, EventLog.selfCheck && v != null ? System.identityHashCode(v) : StripeProtocol.NO_VALUE);
        } else if (t.soloPending) {
            Solo.record(t, kind, site); // left out by a solo period: into its hand-over ring
        }
    }

    // -------------------------------------------------------------------------------- monitors

    /**
     * After monitorenter (or the entry of a synchronized method): interlocked on the monitor. Left out in a solo
     * period, as {@link #logJuc}'s events are: the event stands at the probe, after any wait for the monitor, and
     * a thread that made that wait end logged an event of its own first, which ended the period.
     */
    public static void logMonitorEnter(Object monitor, ThreadLog t, int site) {
        if (monitor != null && !StripeProtocol.off(t)) {
            if (Schedule.active) {
                Schedule.beforeClosing(t); // schedule=active: the window's widest point, before the monitor flushes it
            }
            if (Solo.open(t)) {
                Solo.fullFence(t, site); // its fence, for the period's hand-over ring
                Solo.close(t); // inside a solo period: left out at this point, after the wait for the monitor (logJuc)
                return;
            }
            StripeProtocol.take(t, monitor, MONITOR);
            StripeProtocol.log(t, Kinds.MONITOR_ENTER, site, StripeProtocol.NO_VALUE);
            unlock(t);
        }
    }

    /** Before monitorexit (or any exit of a synchronized method): interlocked on the monitor; left out in a solo period. */
    public static void logMonitorExit(Object monitor, ThreadLog t, int site) {
        Solo.notAlone(); // a thread blocked on the monitor, or notified, may run (schedule=active's hint)
        if (monitor != null && !StripeProtocol.off(t)) {
            if (Solo.open(t)) {
                Solo.fullFence(t, site); // its fence, for the period's hand-over ring
                Solo.close(t); // inside a solo period: left out at this point (logJuc)
                return;
            }
            StripeProtocol.take(t, monitor, MONITOR);
            StripeProtocol.log(t, Kinds.MONITOR_EXIT, site, StripeProtocol.NO_VALUE);
            unlock(t);
        }
    }

    /** Replaces {@code o.wait()}: the monitor is released and reacquired. */
    public static void wait0(Object o, ThreadLog t, int site) throws InterruptedException {
        logMonitorExit(o, t, site);
        try {
            o.wait();
        } finally {
            logMonitorEnter(o, t, site);
        }
    }

    /** Replaces {@code o.wait(ms)}. */
    public static void wait1(Object o, long ms, ThreadLog t, int site) throws InterruptedException {
        logMonitorExit(o, t, site);
        try {
            o.wait(ms);
        } finally {
            logMonitorEnter(o, t, site);
        }
    }

    /** Replaces {@code o.wait(ms, ns)}. */
    public static void wait2(Object o, long ms, int ns, ThreadLog t, int site) throws InterruptedException {
        logMonitorExit(o, t, site);
        try {
            o.wait(ms, ns);
        } finally {
            logMonitorEnter(o, t, site);
        }
    }

    // ------------------------------------------------------------------- fences and JDK synchronization

    /** A fence of kind {@code kind} (full, StoreStore, load) at {@code site}. */
    public static void logFence(ThreadLog t, int site, int kind) {
        if (kind == Kinds.STORE_STORE_FENCE && !t.storesSinceFence) {
            t.fencesLeftOut++; // orders no logged store: RedundantFencesDifferentialTest
            return;
        }
        if (kind == Kinds.FULL_FENCE && Schedule.active && !StripeProtocol.off(t)) {
            Schedule.beforeClosing(t); // schedule=active: the window's widest point, before the fence flushes it
        }
        if (!StripeProtocol.off(t) && kind != Kinds.THREAD_JOIN && Solo.open(t)) {
            // a solo period leaves it out, into the hand-over ring: a full fence empties it, a StoreStore fence
            // orders the ring's stores, a load fence orders nothing a store buffer holds
            if (kind == Kinds.FULL_FENCE) {
                Solo.fullFence(t, site);
            } else if (kind == Kinds.STORE_STORE_FENCE) {
                Solo.storeStoreFence(t, site);
            }
            Solo.close(t);
            return;
        }
        if (!StripeProtocol.off(t)) {
            StripeProtocol.offerUnordered(t, kind, site, null, 0, StripeProtocol.NO_VALUE);
        }
    }

    /**
     * Synchronization inside the JDK (java.util.concurrent locks, latches, queues, executors...) before a call on
     * {@code receiver} (null for a static call): an interlocked operation on the address that stands for the
     * object's synchronization ({@link SyncObjects}: the object itself, the one the JDK synchronizes on, or the
     * shared address of executors and futures), and the same after the call ({@link #logJucAfter}). Each such
     * event is a full fence of its thread. The object is also remembered as the one the thread is inside, for the
     * functions the JDK calls back during the call ({@link SyncTasks}: a barrier's action, a map's mapping function).
     *
     * <p>Left out in a solo period, each of the two events on its own ({@link Solo}): the event stands at the
     * probe, and the window spans the probe only, never the call, which may block. A call that blocks until
     * another thread acts (a lock held elsewhere) is woken by that thread's own logged event, which ends the
     * period first, so the event after the call then finds the period over and is logged, ordered after the
     * waker's by the address both take (the same object's, or the one it synchronizes on).
     */
    public static void logJucBefore(Object receiver, ThreadLog t, int site) {
        Object o = SyncObjects.of(receiver, t);
        t.syncObject = o;
        t.syncSlot = t.syncSlotOut;
        logSync(t, site, o, t.syncSlotOut);
    }

    /** After the call (also when it throws: the rewriter's handler calls it before rethrowing): {@link #logJucBefore}. */
    public static void logJucAfter(Object receiver, ThreadLog t, int site) {
        Object o = SyncObjects.of(receiver, t);
        t.syncObject = null;
        logSync(t, site, o, t.syncSlotOut);
    }

    /** {@link #logJucBefore} on the shared address (a static call that names no object). */
    static void logJuc(ThreadLog t, int site) {
        logSync(t, site, JUC_OBJECT, JUC);
    }

    /** The interlocked event on address ({@code o}, {@code slot}) that stands for a synchronization of the JDK's. */
    static void logSync(ThreadLog t, int site, Object o, int slot) {
        Solo.notAlone(); // the call may wake another thread (schedule=active's hint)
        if (!StripeProtocol.off(t)) {
            if (Schedule.active) {
                Schedule.beforeClosing(t); // schedule=active: the window's widest point, before the call flushes it
            }
            if (Solo.open(t)) {
                Solo.fullFence(t, site); // its fence, for the period's hand-over ring
                Solo.close(t); // inside a solo period: left out, like any access there
                return;
            }
            StripeProtocol.take(t, o, slot);
            StripeProtocol.log(t, Kinds.INTERLOCKED, site, StripeProtocol.NO_VALUE);
            unlock(t);
        }
    }

    /** Whether an interlocked event on slot {@code slot} is synchronization the JDK makes (a java.util.concurrent call's). */
    static boolean isSync(int slot) {
        return slot == JUC || slot == MONITOR;
    }

    /**
     * After {@code ThreadLocalRandom.current()}: {@link #logJuc} on the thread's first call only, where the JDK
     * initializes the thread's seed from a shared atomic (a full fence); the later calls touch only the
     * thread's own seed. Owner thread only.
     */
    public static void logJucFirst(ThreadLog t, int site) {
        if (!t.randomSeeded) {
            logSync(t, site, RANDOM_SEEDER, JUC); // the shared atomic every thread's seed is drawn from
            t.randomSeeded = !StripeProtocol.off(t); // a muted call logged nothing: the next one logs
        }
    }

    /**
     * {@link #logJuc} when {@code receiver} is a concurrent or synchronized collection (a call through a
     * java.util interface, whose receiver is known only at run time).
     */
    public static void logJucIf(Object receiver, ThreadLog t, int site) {
        if (receiver != null && SYNCHRONIZING.get(receiver.getClass())) {
            logSync(t, site, SyncObjects.of(receiver, t), t.syncSlotOut);
        }
    }

    /**
     * Before a call that only reads a map (get, containsKey, size...): as {@link #logJuc} when the call is
     * through ConcurrentHashMap or ConcurrentMap ({@code jucOwner} 1), or {@link #logJucIf} (through
     * java.util.Map); but nothing in a solo period when the receiver is a ConcurrentHashMap, whose reads cannot
     * block ({@link Solo}). Owner thread only.
     */
    public static void logMapReadBefore(Object receiver, ThreadLog t, int site, int jucOwner) {
        logMapRead(receiver, t, site, jucOwner);
    }

    /**
     * After that call: as {@link #logMapReadBefore}. Outside a solo period a ConcurrentHashMap's read keeps the
     * interlocked events of any JDK synchronization: a load of the address that stands for all of it would order
     * the read before every later JDK call of every other thread (a read-to-write edge the run does not have,
     * which can report a cycle no execution makes), and no event at all would let the checker's merge feed the
     * reader's later accesses before the writer's put (S30). Owner thread only.
     */
    public static void logMapReadAfter(Object receiver, ThreadLog t, int site, int jucOwner) {
        logMapRead(receiver, t, site, jucOwner);
    }

    private static void logMapRead(Object receiver, ThreadLog t, int site, int jucOwner) {
        if (receiver == null) {
            return; // the call throws
        }
        if (receiver.getClass() == java.util.concurrent.ConcurrentHashMap.class) {
            if (!StripeProtocol.off(t) && Solo.open(t)) {
                Solo.fullFence(t, site); // its fence, for the period's hand-over ring
                Solo.close(t); // a solo period leaves it out: nothing can block between the two
                return;
            }
            logSync(t, site, SyncObjects.of(receiver, t), t.syncSlotOut);
        } else if (jucOwner != 0) {
            logSync(t, site, SyncObjects.of(receiver, t), t.syncSlotOut);
        } else {
            logJucIf(receiver, t, site);
        }
    }

    /** Whether instances of {@code type} synchronize internally (concurrent or synchronized collections). */
    static boolean synchronizing(Class<?> type) {
        return SYNCHRONIZING.get(type);
    }

    private static final ClassValue<Boolean> SYNCHRONIZING = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            String n = type.getName();
            return (n.startsWith("java.util.concurrent.") && !n.startsWith("java.util.concurrent.atomic."))
                    || n.startsWith("java.util.Collections$Synchronized") || n.equals("java.util.Vector")
                    || n.equals("java.util.Stack") || n.equals("java.util.Hashtable");
        }
    };

    /** An atomic method begins (transactions). */
    public static void txBegin(ThreadLog t, int site) {
        EventLog.declareTransactions();
        if (t.atomicDepth++ == 0) {
            t.forgetRepeats();
            fenceless(t, Kinds.TX_BEGIN, site);
        }
    }

    /** An atomic method ends, normally or by an exception. */
    public static void txEnd(ThreadLog t, int site) {
        if (--t.atomicDepth == 0) {
            t.forgetRepeats();
            fenceless(t, Kinds.TX_END, site);
        }
    }

    private static void fenceless(ThreadLog t, int kind, int site) {
        if (!StripeProtocol.off(t)) {
            StripeProtocol.offerUnordered(t, kind, site, null, 0, StripeProtocol.NO_VALUE);
        }
    }

    // ------------------------------------------------------------ JDK calls modelled by what they do

    /**
     * Before a call into a JDK method that may synchronize and that mmcheck does not model (JdkModel's UNMODELLED):
     * a full fence of the calling thread, which can only take executions away (never a happens-before edge, which
     * could add them), counted under the method's id for the run's note ({@link Unmodelled}).
     */
    public static void unmodelledCall(ThreadLog t, int site, int callee) {
        Unmodelled.count(callee);
        if (!StripeProtocol.off(t)) {
            StripeProtocol.offerUnordered(t, Kinds.FULL_FENCE, site, null, 0, StripeProtocol.NO_VALUE);
        }
    }

    /**
     * Before a reflective access of a field ({@code Field.get(o)}, {@code setInt(o, v)}...), which is no event: of a
     * volatile field it is a synchronization mmcheck does not see, so a full fence, counted ({@link #unmodelledCall}).
     */
    public static void reflectiveAccess(Field field, ThreadLog t, int site, int callee) {
        if (field != null && java.lang.reflect.Modifier.isVolatile(field.getModifiers())) {
            unmodelledCall(t, site, callee);
        }
    }

    /**
     * Lock probe before Thread.interrupt(), isInterrupted() or interrupted(): the thread's interrupt status, an
     * address of its own (JLS 17.4.4: an interrupt synchronizes with every point that sees it). The call runs under
     * the stripe, so that the status a check returns is the one its event is ordered after.
     */
    public static void lockInterrupt(Object thread, ThreadLog t) {
        if (thread != null && !StripeProtocol.off(t)) {
            StripeProtocol.takeBracketed(t, thread, INTERRUPTED);
        }
    }

    /**
     * After Thread.interrupted(): a load of the calling thread's status when it returned false, at {@code readSite}
     * (the instruction's site of mode volatile); a read and a clear of it (a CAS) when it returned true, at {@code
     * site}. Then unlock.
     */
    public static void logInterrupted(boolean wasSet, ThreadLog t, int site, int readSite) {
        logCall(t, wasSet ? site : readSite, wasSet ? Kinds.INTERLOCKED : Kinds.LOAD);
    }

    /** After Thread.isAlive(): false says the thread has ended, as a join returning does (JLS 17.4.4). */
    public static void aliveChecked(boolean alive, Thread u, ThreadLog t, int site) {
        if (!alive && u != null) {
            joined(u, t, site);
        }
    }

    /** After Thread.getState(): TERMINATED says the thread has ended, as isAlive() returning false does. */
    public static void stateChecked(Thread.State state, Thread u, ThreadLog t, int site) {
        if (state == Thread.State.TERMINATED && u != null) {
            joined(u, t, site);
        }
    }

    /** Replaces {@code unit.timedJoin(u, timeout)}: a join, when the thread has ended by its return. */
    public static void timedJoin(java.util.concurrent.TimeUnit unit, Thread u, long timeout, ThreadLog t, int site)
            throws InterruptedException {
        unit.timedJoin(u, timeout);
        joined(u, t, site);
    }

    /** Replaces {@code unit.timedWait(o, timeout)}: as {@code o.wait(ms, ns)}, the monitor released and retaken. */
    public static void timedWait(java.util.concurrent.TimeUnit unit, Object o, long timeout, ThreadLog t, int site)
            throws InterruptedException {
        if (o == null) {
            unit.timedWait(o, timeout); // throws
            return;
        }
        logMonitorExit(o, t, site);
        try {
            unit.timedWait(o, timeout);
        } finally {
            logMonitorEnter(o, t, site);
        }
    }

    /**
     * Lock probe before Reference.get ({@code method} 0), refersTo (1), clear (2) or enqueue (3), plus 4 for a super
     * call (invokespecial, which runs the JDK's method whatever the class overrides): the referent, a
     * field of the reference object (clear0 and refersTo0 are native since JDK 16; both are called through these
     * methods). Nothing when the receiver's class overrides the method: its code is instrumented, and its call of the
     * JDK's method, if any, is bracketed itself. Left out in a solo period on the JDK's own reference classes, as a
     * plain access is. The collector's clearing of a referent is no event: it is no store of an application thread
     * (none of theirs can be buffered), and the load that sees it is logged without a value (the self-check does
     * not compare it).
     */
    public static void lockReferent(Object reference, int method, ThreadLog t) {
        if (reference == null || StripeProtocol.off(t)
                || (method & 4) == 0 && !JDK_REFERENT_METHODS.get(reference.getClass())[method & 3]) {
            return;
        }
        if (reference.getClass().getClassLoader() == null && Solo.openFor(t, reference, REFERENT)) {
            return; // the window closes in the log probe, or in unlock if the call throws
        }
        StripeProtocol.takeBracketed(t, reference, REFERENT);
    }

    /** For each reference method of a class (get, refersTo, clear, enqueue), whether the JDK's code runs it. */
    private static final ClassValue<boolean[]> JDK_REFERENT_METHODS = new ClassValue<>() {
        @Override
        protected boolean[] computeValue(Class<?> type) {
            String[] names = {"get", "refersTo", "clear", "enqueue"};
            Class<?>[][] params = {{}, {Object.class}, {}, {}};
            boolean[] jdk = new boolean[4];
            for (int i = 0; i < 4; i++) {
                try {
                    jdk[i] = type.getMethod(names[i], params[i]).getDeclaringClass().getClassLoader() == null;
                } catch (NoSuchMethodException | RuntimeException e) {
                    jdk[i] = false; // refersTo before JDK 16: the call fails anyway
                }
            }
            return jdk;
        }
    };

    // ------------------------------------------------------------------------------------- threads

    /** Replaces {@code child.start()}: the start event, then the start. */
    public static void startThread(Thread child, ThreadLog t, int site) {
        if (child != null && !StripeProtocol.off(t)) {
            EventLog.logOf(child); // the child's id exists before its first event
            StripeProtocol.take(t, child, START);
            StripeProtocol.log(t, Kinds.THREAD_START, site, StripeProtocol.NO_VALUE);
            unlock(t);
        }
        child.start();
    }

    /**
     * Replaces {@code builder.start(task)} on a {@code Thread.Builder} (Java 21+; typed Object, as the runtime
     * compiles for Java 17): the builder's unstarted thread, then {@link #startThread}, which is what
     * {@code start} does, with the start's edge logged.
     */
    public static Thread startBuilt(Object builder, Runnable task, ThreadLog t, int site) throws Throwable {
        Thread child = (Thread) Builders.UNSTARTED.invoke(builder, task); // JDK code, not instrumented
        startThread(child, t, site);
        return child;
    }

    /** Replaces {@code Thread.startVirtualThread(task)} (Java 21+): {@link #startBuilt} on {@code Thread.ofVirtual()}. */
    public static Thread startVirtual(Runnable task, ThreadLog t, int site) throws Throwable {
        return startBuilt(Builders.OF_VIRTUAL.invoke(), task, t, site);
    }

    /** Handles to Java 21's thread builders, looked up on first use (a probe for them runs only on Java 21+). */
    private static final class Builders {
        static final java.lang.invoke.MethodHandle UNSTARTED;
        static final java.lang.invoke.MethodHandle OF_VIRTUAL;

        static {
            try {
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.publicLookup();
                UNSTARTED = l.findVirtual(builder, "unstarted", java.lang.invoke.MethodType.methodType(Thread.class,
                        Runnable.class));
                OF_VIRTUAL = l.findStatic(Thread.class, "ofVirtual", java.lang.invoke.MethodType.methodType(
                        Class.forName("java.lang.Thread$Builder$OfVirtual")));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** Replaces {@code u.join()}. */
    public static void joinThread0(Thread u, ThreadLog t, int site) throws InterruptedException {
        u.join();
        joined(u, t, site);
    }

    /** Replaces {@code u.join(ms)}. */
    public static void joinThread1(Thread u, long ms, ThreadLog t, int site) throws InterruptedException {
        u.join(ms);
        joined(u, t, site);
    }

    /** Replaces {@code u.join(ms, ns)}. */
    public static void joinThread2(Thread u, long ms, int ns, ThreadLog t, int site) throws InterruptedException {
        u.join(ms, ns);
        joined(u, t, site);
    }

    private static void joined(Thread u, ThreadLog t, int site) {
        if (u.isAlive() || StripeProtocol.off(t)) {
            return; // a timed join that timed out is no synchronization
        }
        ThreadLog ul = EventLog.existingLogOf(u);
        // the joined thread is dead: its log is final; the checker consumes all of it before the join
        StripeProtocol.offerUnordered(t, Kinds.THREAD_JOIN, site, u, START, ul == null ? -1 : ul.lvProducerIndex());
    }

    // ------------------------------------------------------------------- atomics and other accessors

    /** Lock probe before a call on an Atomic{Integer,Long,Boolean,Reference}. */
    public static void lockAtomic(Object atomic, ThreadLog t) {
        if (atomic != null && !StripeProtocol.off(t)) {
            StripeProtocol.takeBracketed(t, atomic, VALUE);
        }
    }

    /**
     * {@link #lockAtomic} for a call that runs no user function (get, set, compareAndSet, getAndIncrement...): in a
     * solo period it goes unlogged ({@link Solo}), on the JDK's own atomic classes only, whose calls neither block
     * nor run code of the application's (a subclass may override them).
     */
    public static void lockAtomicUnlessSolo(Object atomic, ThreadLog t) {
        if (atomic != null && jdkAtomic(atomic.getClass()) && !StripeProtocol.off(t) && Solo.openFor(t, atomic, VALUE)) {
            return; // the window closes in the log probe, or in unlock if the call throws
        }
        lockAtomic(atomic, t);
    }

    /** {@link #lockAtomicUnlessSolo} for a call on an Atomic*Array element. */
    public static void lockAtomicElementUnlessSolo(Object array, int index, ThreadLog t) {
        if (array != null && jdkAtomic(array.getClass()) && !StripeProtocol.off(t) && Solo.openFor(t, array, index)) {
            return; // the window closes in the log probe, or in unlock if the call throws (an index out of bounds)
        }
        lockAtomicElement(array, index, t);
    }

    /** {@link #lockAtomicUnlessSolo} for a call on a field updater, the JDK's own implementations only. */
    public static void lockUpdaterUnlessSolo(Object updater, Object target, ThreadLog t) {
        if (updater != null && target != null && JDK_UPDATER.get(updater.getClass()) && !StripeProtocol.off(t)
                && Solo.mine(t) && Solo.openFor(t, target, Targets.updaterSlot(updater))) { // the look-up only in a period
            return; // the window closes in the log probe, or in unlock if the call throws
        }
        lockUpdater(updater, target, t);
    }

    /** Whether {@code c} is one of the JDK's atomic classes, exactly (not a subclass). */
    static boolean jdkAtomic(Class<?> c) {
        return c == AtomicLong.class || c == AtomicInteger.class || c == AtomicReference.class
                || c == AtomicBoolean.class || c == AtomicLongArray.class || c == AtomicIntegerArray.class
                || c == AtomicReferenceArray.class || c == LongAdder.class || c == DoubleAdder.class
                || c == LongAccumulator.class || c == DoubleAccumulator.class || c == AtomicStampedReference.class
                || c == AtomicMarkableReference.class;
    }

    /**
     * After {@code AtomicStampedReference.get(int[])} or {@code AtomicMarkableReference.get(boolean[])}: the JDK
     * stored the stamp or mark into element 0 of the application's holder array, for the calling thread. Logged
     * as that thread's plain store, with the value it left there (the self-check reads it back); nothing when the
     * call threw before storing (a null or empty holder).
     */
    public static void holderStored(Object holder, ThreadLog t, int site) {
        long v;
        if (holder instanceof int[] && ((int[]) holder).length > 0) {
            v = ((int[]) holder)[0];
        } else if (holder instanceof boolean[] && ((boolean[]) holder).length > 0) {
            v = ((boolean[]) holder)[0] ? 1 : 0;
        } else {
            return;
        }
        lockElement(holder, 0, t);
        StripeProtocol.logValue(t, Kinds.STORE, site, v);
        unlock(t);
    }

    /** Whether a field updater of this class is the JDK's own (its implementations are nested in the JDK's updaters). */
    private static final ClassValue<Boolean> JDK_UPDATER = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return type.getClassLoader() == null && type.getName().startsWith("java.util.concurrent.atomic.");
        }
    };

    /** Lock probe before a call on an Atomic*Array element. */
    public static void lockAtomicElement(Object array, int index, ThreadLog t) {
        if (array == null || StripeProtocol.off(t)) {
            return;
        }
        int n;
        if (array instanceof AtomicIntegerArray) {
            n = ((AtomicIntegerArray) array).length();
        } else if (array instanceof AtomicLongArray) {
            n = ((AtomicLongArray) array).length();
        } else if (array instanceof AtomicReferenceArray) {
            n = ((AtomicReferenceArray<?>) array).length();
        } else {
            return;
        }
        if (index >= 0 && index < n) {
            StripeProtocol.takeBracketed(t, array, index);
        }
    }

    /** Lock probe before a call on a field updater for {@code target}'s field. */
    public static void lockUpdater(Object updater, Object target, ThreadLog t) {
        if (updater != null && target != null && !StripeProtocol.off(t)) {
            StripeProtocol.takeBracketed(t, target, Targets.updaterSlot(updater));
        }
    }

    /**
     * Lock probe before a VarHandle access with {@code coordinates} coordinates: 0 (static field),
     * 1 ({@code c0} the object) or 2 ({@code c0} the array, {@code c1} the index), or
     * {@link #HANDLE_UNMODELLED} for a call shape the probes do not model (counted as unlogged); plus
     * {@link #HANDLE_IN_EXCLUDED} in an excluded class, where an access that cannot be logged is not counted.
     */
    public static void lockHandle(Object handle, Object c0, int c1, int coordinates, ThreadLog t) {
        if (handle == null || StripeProtocol.off(t)) {
            return;
        }
        boolean excluded = (coordinates & HANDLE_IN_EXCLUDED) != 0;
        coordinates &= ~HANDLE_IN_EXCLUDED;
        if (coordinates == HANDLE_UNMODELLED) {
            if (!excluded) {
                Targets.countUnloggedHandle();
            }
            return;
        }
        Targets.Handle h = Targets.handle(handle);
        if (h == null) {
            if (coordinates > 0 && c0 == null) {
                return; // the access throws: nothing to resolve, and nothing left unlogged
            }
            // reflection, once per handle, with no stripe held: a class it loads through an instrumented
            // class loader logs as that loader's code always does
            h = Targets.describe(handle, coordinates == 1 ? c0 : null);
        }
        if (h == null || h == Targets.UNKNOWN) {
            if (!excluded) {
                Targets.countUnloggedHandle(); // an excluded class's data accesses go unlogged by request
            }
            return;
        }
        if (h.view > 0) {
            if (coordinates == 2 && c0 != null) {
                lockView(h, c0, c1, excluded, t);
            }
            return;
        }
        if (coordinates == 0 && h.isStatic) {
            // the static field's token, as GETSTATIC/PUTSTATIC use: one address however it is reached
            StripeProtocol.takeBracketed(t, StaticOwners.of(h.slot), h.slot);
        } else if (coordinates == 1 && c0 != null && !h.array) {
            StripeProtocol.takeBracketed(t, c0, h.slot);
        } else if (coordinates == 2 && h.array && c0 != null && c0.getClass().isArray() && c1 >= 0
                && c1 < java.lang.reflect.Array.getLength(c0)) {
            StripeProtocol.takeBracketed(t, c0, c1);
        }
    }

    /**
     * A view VarHandle's access of {@code h.view} bytes at byte index {@code index} of a byte[] or ByteBuffer: the
     * stripes of every byte it touches ({@link Views}); nothing when it throws (out of bounds), and counted as
     * unlogged when a buffer's memory cannot be told (no access to its fields).
     */
    private static void lockView(Targets.Handle h, Object c0, int index, boolean excluded, ThreadLog t) {
        Object owner;
        int first;
        if (h.buffer) {
            if (!(c0 instanceof java.nio.ByteBuffer)) {
                return;
            }
            java.nio.ByteBuffer b = (java.nio.ByteBuffer) c0;
            owner = Views.bytesOf(b, index, h.view, t);
            first = t.rangeFirst;
            if (owner == null) {
                if (!excluded && index >= 0 && index <= b.limit() - h.view) {
                    Targets.countUnloggedHandle(); // in bounds, but where its bytes are cannot be told
                }
                return;
            }
        } else {
            if (!(c0 instanceof byte[]) || index < 0 || index > ((byte[]) c0).length - h.view) {
                return; // the access throws
            }
            owner = c0;
            first = index;
        }
        StripeProtocol.takeRange(t, owner, first, h.view); // in any mode and on any object, as other handles' accesses
    }

    /**
     * {@link #lockHandle} for an access of an object's field or an array's element in any mode (get, setRelease,
     * compareAndSet...; not one that runs a user function): in a solo period it goes unlogged ({@link Solo}).
     */
    public static void lockHandleUnlessSolo(Object handle, Object c0, int c1, int coordinates, ThreadLog t) {
        int k = coordinates & ~HANDLE_IN_EXCLUDED;
        if (handle != null && c0 != null && (k == 1 || k == 2) && !StripeProtocol.off(t) && Solo.mine(t)
                && direct(handle) && Solo.openFor(t, c0, k == 1 ? Targets.handle(handle).slot : c1)) { // the map lookup only in a period
            return; // the window closes in the log probe, or in unlock if the call throws
        }
        lockHandle(handle, c0, c1, coordinates, t);
    }

    /**
     * Whether {@code handle} is known to access its field or array element directly: it was seen being made by
     * findVarHandle or arrayElementVarHandle, or resolved from its nominal descriptor. A handle built by
     * combinators (JDK 22's filterValue, filterCoordinates...) runs user code inside the access, which could
     * block with a solo window open; it has no descriptor, so it is never resolved and never left out.
     */
    private static boolean direct(Object handle) {
        Targets.Handle h = Targets.handle(handle);
        return h != null && h != Targets.UNKNOWN && h.view == 0; // a view's access takes several stripes: logged
    }

    /**
     * {@link #lockUnsafe} for an access of an object or an array (not a static field's base) in any mode
     * ({@code getInt}, {@code putLongVolatile}, {@code putOrderedLong}, {@code compareAndSwapInt}...): in a
     * solo period it goes unlogged ({@link Solo}).
     */
    public static void lockUnsafeUnlessSolo(Object o, long offset, ThreadLog t) {
        if (o != null && !(o instanceof Class) && !StripeProtocol.off(t) && Solo.mine(t)
                && Solo.openFor(t, o, unsafeSlot(o, offset))) { // the look-up only in a period
            return; // the window closes in the log probe, or in unlock if the call throws
        }
        lockUnsafe(o, offset, t);
    }

    /** The slot of an Unsafe access to {@code o} at {@code offset}: an element's index, or a field's id (as lockUnsafe takes). */
    private static int unsafeSlot(Object o, long offset) {
        Class<?> c = o.getClass();
        if (c.isArray()) {
            long base = UnsafeAccess.arrayBase(c);
            long scale = UnsafeAccess.arrayScale(c);
            return scale > 0 && offset >= base ? (int) ((offset - base) / scale) : Integer.MIN_VALUE;
        }
        return Targets.offsetSlot(c, offset);
    }

    /** Lock probe before an Unsafe access to {@code o} at {@code offset}. */
    public static void lockUnsafe(Object o, long offset, ThreadLog t) {
        if (o == null || StripeProtocol.off(t)) {
            return;
        }
        Class<?> c = o.getClass();
        if (c.isArray()) {
            long base = UnsafeAccess.arrayBase(c);
            long scale = UnsafeAccess.arrayScale(c);
            if (scale > 0 && offset >= base) {
                StripeProtocol.takeBracketed(t, o, (int) ((offset - base) / scale));
            }
            return;
        }
        StripeProtocol.takeBracketed(t, o, Targets.offsetSlot(c, offset));
    }

    /**
     * Before the log probe of a muted call whose outcome a {@code logCas*} probe decides (a compare-and-set through
     * a static field's VarHandle, whose class's initialization runs muted): the call's own accesses are logged again.
     */
    public static void unmute(ThreadLog t) {
        t.mutedCalls--;
    }

    /**
     * Log probe after a compare-and-set that returns whether it succeeded: its INTERLOCKED event at {@code site}
     * when {@code ok}, else at {@code failedSite}, the same instruction registered with the failed mode of its
     * flavour (a failed CAS only reads; the kind stays INTERLOCKED, a locked instruction all the same, so the
     * store-buffer models see the same events whatever the outcome). Then the stripe is released.
     */
    public static void logCas(boolean ok, ThreadLog t, int site, int failedSite) {
        logCall(t, ok ? site : failedSite, Kinds.INTERLOCKED);
    }

    /** {@link #logCas} after an int-typed compareAndExchange: it succeeded when the witness is the expected value. */
    public static void logCasI(int witness, int expected, ThreadLog t, int site, int failedSite) {
        logCall(t, witness == expected ? site : failedSite, Kinds.INTERLOCKED);
    }

    /** {@link #logCasI} for a long. */
    public static void logCasJ(long witness, long expected, ThreadLog t, int site, int failedSite) {
        logCall(t, witness == expected ? site : failedSite, Kinds.INTERLOCKED);
    }

    /** {@link #logCasI} for a float, compared by raw bits as VarHandle and Unsafe compare (NaN is NaN, -0.0 not 0.0). */
    public static void logCasF(float witness, float expected, ThreadLog t, int site, int failedSite) {
        logCall(t, Float.floatToRawIntBits(witness) == Float.floatToRawIntBits(expected) ? site : failedSite,
                Kinds.INTERLOCKED);
    }

    /** {@link #logCasI} for a double, compared by raw bits. */
    public static void logCasD(double witness, double expected, ThreadLog t, int site, int failedSite) {
        logCall(t, Double.doubleToRawLongBits(witness) == Double.doubleToRawLongBits(expected) ? site : failedSite,
                Kinds.INTERLOCKED);
    }

    /**
     * {@link #logCasI} for a reference: the same object; when {@code handle} is a VarHandle whose variable is of a
     * primitive type (called with reference types, the JDK unboxes the arguments and boxes the witness), the same
     * value, floats and doubles by raw bits.
     */
    public static void logCasA(Object witness, Object expected, Object handle, ThreadLog t, int site, int failedSite) {
        boolean ok = witness == expected || (handle instanceof VarHandle h && h.varType().isPrimitive()
                && sameBoxedValue(witness, expected));
        logCall(t, ok ? site : failedSite, Kinds.INTERLOCKED);
    }

    /** Whether two boxes of a primitive type hold the same value (floats and doubles by raw bits). */
    private static boolean sameBoxedValue(Object a, Object b) {
        if (a == null || b == null || a.getClass() != b.getClass()) {
            return false;
        }
        if (a instanceof Float f) {
            return Float.floatToRawIntBits(f) == Float.floatToRawIntBits((Float) b);
        }
        if (a instanceof Double d) {
            return Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits((Double) b);
        }
        Class<?> c = a.getClass();
        return (c == Integer.class || c == Long.class || c == Short.class || c == Byte.class || c == Character.class
                || c == Boolean.class) && a.equals(b);
    }

    /** Log probe after a bracketed call: the event of kind {@code kind}, then the stripe is released. */
    public static void logCall(ThreadLog t, int site, int kind) {
        if (t.rangeStripeCount > 0 && t.nestedSkips == 0) {
            StripeProtocol.logRange(t, kind, site); // a view VarHandle's access: an event per byte
        } else {
            StripeProtocol.log(t, kind, site, StripeProtocol.NO_VALUE);
        }
        unlock(t);
    }

    // ------------------------------------------------------------------ registration of accessors

    /** After {@code AtomicXFieldUpdater.newUpdater(owner, ..., name)}: remembers the updater's field. */
    public static void updaterCreated(Object updater, Class<?> owner, String name) {
        if (updater != null) {
            Targets.updater(updater, owner, name);
        }
    }

    /** After {@code lookup.findVarHandle(owner, name, type)} or {@code findStaticVarHandle}. */
    public static void fieldHandleCreated(VarHandle handle, Class<?> owner, String name, boolean isStatic) {
        if (handle != null) {
            Targets.fieldHandle(handle, owner, name, isStatic);
        }
    }

    /** After {@code MethodHandles.arrayElementVarHandle(type)}. */
    public static void arrayHandleCreated(VarHandle handle) {
        if (handle != null) {
            Targets.arrayHandle(handle);
        }
    }

    /** After {@code unsafe.objectFieldOffset(field)}. */
    public static void offsetCreated(long offset, Field field) {
        if (field != null) {
            Targets.offset(field, offset);
        }
    }
}
