package dev.mmcheck.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread's event log: a single-producer single-consumer ring of events, written by its thread
 * (the producer) and read by the checker thread (the consumer), in the vocabulary of JCTools'
 * {@code SpscArrayQueue}: {@code lv}/{@code sv} volatile load/store, {@code lp}/{@code sp} plain,
 * {@code so} ordered (release) store.
 *
 * <p>An event is {@link #INTS} ints plus one object reference (the accessed object, or null):
 * kind, site, slot (field id, array index or pseudo-field), stripe, stripe sequence, flags, a 64-bit
 * value (the value stored or loaded, for the self-check; the joined thread's event count for a join),
 * under {@code sample=R} a 64-bit flush count ({@link Flushes}), and the site of the call that reached the
 * method that logged it ({@link Probes#callFrom}).
 * The producer writes an event's slots with plain stores and then publishes it with an ordered store
 * of the producer index, so the consumer, which reads the producer index with a volatile load, sees
 * whole events. When the ring is full the producer waits for the consumer: no event is ever dropped.
 * Writing into preallocated arrays, it allocates nothing per event.
 */
public final class ThreadLog {

    /** ints per event */
    public static final int INTS = 11;
    /** offset of the kind */
    public static final int KIND = 0;
    /** offset of the site id */
    public static final int SITE = 1;
    /** offset of the slot: field id, array index or pseudo-field */
    public static final int SLOT = 2;
    /** offset of the stripe, -1 when the event has no address */
    public static final int STRIPE = 3;
    /** offset of the stripe's sequence number */
    public static final int SEQ = 4;
    /** offset of the flags */
    public static final int FLAGS = 5;
    /** flag: the value is the value read or written (for the self-check) */
    public static final int HAS_VALUE = 1;
    /** offset of the value's low 32 bits */
    public static final int VALUE_LOW = 6;
    /** offset of the value's high 32 bits */
    public static final int VALUE_HIGH = 7;
    /** offset of the flush count's low 32 bits (sample=R: {@link Flushes}) */
    public static final int EPOCH_LOW = 8;
    /** offset of the flush count's high 32 bits */
    public static final int EPOCH_HIGH = 9;
    /** flag: the event flushes under sampling and its flush count is its ticket (sample=R: {@link Flushes}) */
    public static final int TICKET = 2;
    /** offset of the site of the call that reached the method that logged the event, -1 when none ({@link Probes#callFrom}) */
    public static final int CALLER = 10;

    private static final VarHandle PRODUCER;
    private static final VarHandle CONSUMER;
    private static final VarHandle WINDOW;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCER = l.findVarHandle(ThreadLog.class, "producerIndex", long.class);
            CONSUMER = l.findVarHandle(ThreadLog.class, "consumerIndex", long.class);
            WINDOW = l.findVarHandle(ThreadLog.class, "window", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // released (emptied) once the thread has ended and every event is consumed
    private int[] ints;
    private Object[] objects;
    private final int mask;
    private final int serial;
    private final WeakReference<Thread> thread;
    private final String name;

    // written by the producer only
    private volatile long producerIndex;
    private long consumerCache;
    /** Set while this thread runs agent code that must not log (the re-entrancy guard). */
    boolean muted;
    /** How many user functions of atomics (getAndUpdate...) this thread is inside: their accesses are not logged. */
    int mutedCalls;
    /** The atomic-method nesting depth (for transactions). */
    int atomicDepth;
    /** Times the producer found the ring full and waited (back-pressure). */
    long waits;
    // the stripe held between a lock probe and its log-and-unlock probe, -1 when none
    int held = -1;
    /** Lock probes skipped because a stripe was already held (a nested access: see Probes.take). */
    int nestedSkips;
    /** How many accesses were not logged because they ran nested inside another's probes. */
    long nested;
    Object heldObject;
    int heldSlot;
    /** Loads not logged because they repeat this thread's last access to the address (see Probes). */
    long elided;
    /**
     * How many times this thread may have learned something or made a store: counted at every event it
     * logs except a load that repeats its last access to the address with no write since (such a load
     * joins a write the thread already knows). A repeated load is left out only when this count has not
     * moved since the thread's last access to the address (StripeProtocol.write). Owner only.
     */
    int knowledge;
    /**
     * Whether this thread logged a plain or release store since its last fence, volatile store,
     * interlocked operation, monitor or thread start/join: a StoreStore fence logged without one orders
     * nothing (docs/agent.md, "Fences that are not logged"). Owner only.
     */
    boolean storesSinceFence;
    /**
     * Whether this thread logged a plain or release store since its last full fence, volatile store,
     * interlocked operation, monitor or thread start/join (a StoreStore fence does not count: it flushes
     * only under sampling): a full fence logged without one has nothing to flush. Owner only.
     */
    boolean storesSinceFlush;
    /** Under sampling: the flush ticket a bracketed call took before it ran, for its event, -1 when none (StripeProtocol.takeBracketed). */
    long pendingTicket = -1;
    /** Set by Probes.bracketWrites for the next bracketed call's lock probe: the call writes. */
    boolean bracketWrites;
    /** Set by a lock probe whose synchronization access is to be logged only as a fence (sync=fences). */
    boolean fenceOnly;
    /** Synchronization accesses logged only as fences, or not at all, under sync=fences (racy read). */
    long syncAsFences;
    /** Static final fields (by id, the first 8192) this thread has read once: later reads are not logged. */
    private final long[] staticFinalsSeen = new long[128];

    /**
     * Whether this thread read static final field {@code field} before, marking it read. Field ids past
     * the bitmap's end are never marked: every read of them is logged. Owner only.
     */
    boolean seenStaticFinal(int field) {
        int w = field >>> 6;
        if (field < 0 || w >= staticFinalsSeen.length) {
            return false;
        }
        long bit = 1L << field;
        if ((staticFinalsSeen[w] & bit) != 0) {
            return true;
        }
        staticFinalsSeen[w] |= bit;
        return false;
    }

    /** StoreStore fences not logged because no store came since the last fence (racy read). */
    long fencesLeftOut;

    /** Whether this thread's first ThreadLocalRandom.current() was logged (Probes.logJucFirst). Owner only. */
    boolean randomSeeded;

    // view VarHandles (Views, StripeProtocol.takeRange), owner only
    /** The distinct stripes of the bytes a view access holds, ascending (the first is {@link #held}). */
    final int[] rangeStripes = new int[8];
    /** How many of them are held, 0 when no view access is in progress. */
    int rangeStripeCount;
    /** The element index of the first byte a view access touches. */
    int rangeFirst;
    /** How many bytes it touches. */
    int rangeSize;

    // synchronization objects (SyncObjects), owner only
    /** The object whose address stands for the java.util.concurrent call this thread is inside, null when none. */
    Object syncObject;
    /** That address's pseudo-field. */
    int syncSlot;
    /** The pseudo-field of the address SyncObjects.of last returned the object of. */
    int syncSlotOut;

    // solo periods (Solo)
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
     * The event count past which the checker must not feed this log until it has fed the fence that ends its
     * solo period, -1 when none: set by this thread when it ends its own period, cleared by the checker.
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

    /** The write count an optimistic repeated load validates against. */
    int optimisticWrites;

    /** Site whose caller chain is to be recorded after the stripe is released (Contexts), -1 when none. */
    int contextSite = -1;
    /** The site of the call that reached the method running now, -1 when none (Probes.callFrom). Owner only. */
    int caller = -1;

    // schedule=active (Schedule), owner only
    /** Monitors this thread holds now (as logged). */
    int monitorDepth;
    /** Site of the plain or release store whose store-buffering window is open, -1 when none. */
    int windowSite = -1;
    /** The address of that store. */
    Object windowObject;
    int windowSlot;
    /** Accesses to other addresses since that store. */
    int windowAccesses;
    /** Site of the last plain or release store with no full fence since, -1 when none (Schedule.beforeClosing). */
    int closingSite = -1;
    /** Accesses since that store. */
    int closingAccesses;
    /** Site of the store whose window a pause is due for after the stripe is released, -1 when none. */
    int pauseSite = -1;
    /** Whether that pause is a coin toss after a j.u.c. synchronizer rather than a window's. */
    boolean pauseCoin;
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

    /**
     * The stripe this thread takes around an event no address orders (a fence, a transaction bracket, a
     * join): not for ordering (the event says stripe -1) but so that the checker's sweep of every
     * stripe at exit also waits for such an event in flight (Probes.offerUnordered).
     */
    final int handshakeStripe;

    // written by the consumer only
    private volatile long consumerIndex;

    ThreadLog(int serial, Thread thread, int capacity) {
        int c = Integer.highestOneBit(Math.max(64, capacity));
        this.ints = new int[c * INTS];
        this.objects = new Object[c];
        this.mask = c - 1;
        this.serial = serial;
        this.mark = serial;
        this.thread = new WeakReference<>(thread);
        // a virtual thread has no name unless given one: its id names it in reports, never its carrier (getName is
        // final; the id is read through EventLog.idOf, never an application's override of getId)
        this.name = !thread.getName().isEmpty() ? thread.getName()
                : (EventLog.isVirtual(thread) ? "virtual-" : "thread-") + EventLog.idOf(thread, serial);
        java.util.Arrays.fill(cacheStripe, -1);
        this.handshakeStripe = Stripes.of(this, 0);
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

    /** Pauses left out because the thread had spent its budget (racy read). Any thread. */
    public long pausesOverBudget() {
        return pausesOverBudget;
    }

    /** This log's thread id: dense, in order of first event, never reused. Any thread. */
    public int serial() {
        return serial;
    }

    /** StoreStore fences not logged because they ordered no store (racy read). Any thread. */
    public long fencesLeftOut() {
        return fencesLeftOut;
    }

    /** Accesses not logged because they ran nested inside another access's probes (racy read). Any thread. */
    public long nestedAccesses() {
        return nested;
    }

    /** Synchronization accesses this thread logged only as fences, or not at all, under sync=fences (racy read). Any thread. */
    public long syncAsFences() {
        return syncAsFences;
    }

    /** Plain accesses this thread left out in solo periods (racy read). Any thread. */
    public long soloLeftOut() {
        return soloLeftOut;
    }

    /** svHoldAt: the checker holds this log's events past {@code count} until it has fed the hand-over (Solo). Owner only. */
    void svHoldAt(long count) {
        holdAt = count;
    }

    /** lvHoldAt: the count past which this log is held, -1 when none. Read by the consumer after lvProducerIndex. */
    public long lvHoldAt() {
        return holdAt;
    }

    /** Releases the hold, once the fence that ends the period is fed. Consumer only. */
    public void releaseHold() {
        holdAt = -1;
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

    /** Loads this thread did not log because they repeated its last access (racy read). Any thread. */
    public long elidedLoads() {
        return elided;
    }

    /** Forgets the repeated-access cache (at transaction boundaries). Owner only. */
    void forgetRepeats() {
        java.util.Arrays.fill(cacheObject, null);
        java.util.Arrays.fill(cacheStripe, -1);
    }

    /** Times this thread waited for the checker because its log was full. Any thread (racy read). */
    public long backPressureWaits() {
        return waits;
    }

    /** The thread's name when its log was created. Any thread. */
    public String name() {
        return name;
    }

    /** The thread, or null once it has been collected. Any thread. */
    public Thread thread() {
        return thread.get();
    }

    // ---------------------------------------------------------------- producer side (owner thread)

    /**
     * Writes one event and publishes it. Producer only. Waits while the ring is full.
     */
    void offer(int kind, int site, Object object, int slot, int stripe, int seq, long value) {
        offer(kind, site, object, slot, stripe, seq, 0, value);
    }

    /** {@link #offer(int, int, Object, int, int, int, long)} with flags. Producer only. */
    void offer(int kind, int site, Object object, int slot, int stripe, int seq, int flags, long value) {
        long p = (long) PRODUCER.get(this); // plain load of our own index
        if (p - consumerCache > mask) {
            waitForSpace(p);
        }
        int i = (int) p & mask;
        int at = i * INTS;
        int[] e = ints;
        e[at + KIND] = kind;
        e[at + SITE] = site;
        e[at + SLOT] = slot;
        e[at + STRIPE] = stripe;
        e[at + SEQ] = seq;
        e[at + VALUE_LOW] = (int) value;
        e[at + VALUE_HIGH] = (int) (value >>> 32);
        e[at + CALLER] = caller;
        if (Sampling.on) {
            // under the event's stripe (or the handshake stripe): see Flushes
            long epoch;
            if (pendingTicket >= 0) {
                epoch = pendingTicket; // taken before the bracketed call ran (StripeProtocol.takeBracketed)
                pendingTicket = -1;
                flags |= TICKET;
            } else if (Flushes.flushes(kind, object, slot)) {
                epoch = Flushes.ticket();
                flags |= TICKET;
            } else {
                epoch = Flushes.seen();
            }
            e[at + EPOCH_LOW] = (int) epoch;
            e[at + EPOCH_HIGH] = (int) (epoch >>> 32);
        }
        e[at + FLAGS] = flags;
        objects[i] = object;
        PRODUCER.setRelease(this, p + 1); // soProducerIndex: the event's slots are visible first
        if (kind != Kinds.LOAD) {
            knowledge++; // a load counts itself, unless it repeats (StripeProtocol.write)
        }
        if (kind == Kinds.STORE || kind == Kinds.RELEASE_STORE) {
            storesSinceFence = true;
            storesSinceFlush = true;
        } else if (kind != Kinds.LOAD && kind != Kinds.LOAD_FENCE && kind != Kinds.TX_BEGIN && kind != Kinds.TX_END
                && kind != Kinds.THREAD_BEGIN) {
            storesSinceFence = false; // a fence, volatile store, interlocked op, monitor, start or join: PSO flushes or starts a generation
            if (kind != Kinds.STORE_STORE_FENCE) {
                storesSinceFlush = false; // PSO flushes the thread's buffers (a CAS is a full fence in Java)
            }
        }
    }

    private void waitForSpace(long p) {
        int spins = 0;
        while (p - (consumerCache = (long) CONSUMER.getVolatile(this)) > mask) {
            waits++;
            if (++spins < 64) {
                Thread.onSpinWait();
            } else if (spins < 256) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(50_000L);
            }
        }
    }

    // ---------------------------------------------------------------- consumer side (checker thread)

    /** lvProducerIndex: events published so far. Any thread. */
    public long lvProducerIndex() {
        return (long) PRODUCER.getVolatile(this);
    }

    /** The consumer's index: events consumed so far. Consumer only. */
    public long lpConsumerIndex() {
        return (long) CONSUMER.get(this);
    }

    /** Int {@code field} of event {@code index} (not yet consumed, already published). Consumer only. */
    public int lpInt(long index, int field) {
        return ints[((int) index & mask) * INTS + field];
    }

    /** The 64-bit value of event {@code index}. Consumer only. */
    public long lpValue(long index) {
        int at = ((int) index & mask) * INTS;
        return (ints[at + VALUE_LOW] & 0xffffffffL) | ((long) ints[at + VALUE_HIGH] << 32);
    }

    /** The flush count of event {@code index} (sample=R: {@link Flushes}); its ticket when it has the TICKET flag. Consumer only. */
    public long lpEpoch(long index) {
        int at = ((int) index & mask) * INTS;
        return (ints[at + EPOCH_LOW] & 0xffffffffL) | ((long) ints[at + EPOCH_HIGH] << 32);
    }

    /** The object of event {@code index}. Consumer only. */
    public Object lpObject(long index) {
        return objects[(int) index & mask];
    }

    /**
     * Frees the ring once the thread has terminated and every event has been consumed: the log itself
     * stays (a later join reads its counts) but no longer holds its buffers. Consumer only.
     */
    public void release() {
        ints = new int[0];
        objects = new Object[0];
    }

    /** soConsumerIndex: events up to {@code index} are consumed; their slots may be reused. Consumer only. */
    public void soConsumerIndex(long index) {
        long from = (long) CONSUMER.get(this);
        for (long i = from; i < index; i++) {
            objects[(int) i & mask] = null; // do not keep consumed objects alive
        }
        CONSUMER.setRelease(this, index);
    }
}
