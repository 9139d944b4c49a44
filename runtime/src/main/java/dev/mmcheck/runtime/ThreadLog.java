package dev.mmcheck.runtime;

import java.lang.ref.WeakReference;

/**
 * One thread's event log: the object the probes hold for their thread. It is, in layers (superclasses, each in a
 * file of its own):
 * <ul>
 *   <li>{@link EventRing}: the ring alone, a single-producer single-consumer ring of events written by this thread
 *       and read by the checker thread (arrays, indices, {@code lv}/{@code so} accessors, as JCTools'
 *       {@code SpscArrayQueue});</li>
 *   <li>{@link SoloFields}: the solo periods' window, hold and hand-over ring;</li>
 *   <li>{@link ScheduleFields}: schedule=active's windows, pauses and generator;</li>
 *   <li>{@link RepeatCacheFields}: the repeat cache and the knowledge count;</li>
 *   <li>this class: the thread's identity, the probes' guards and in-flight state (held stripe, view ranges,
 *       synchronization objects, sampling's pending ticket), its counts, and {@link #offer}, which writes an event.</li>
 * </ul>
 * Layers, not objects of their own: the probes reach every field of them with the one load of this log they make
 * anyway, where a final field to a ring or a state object would cost one more load per event on the producer's fast
 * path. The checker thread writes nothing here but through the ring's and the hand-over's protocol
 * ({@link #soConsumerIndex}, {@link #release}, {@link #releaseHold}, {@link #clearRing}); what it remembers of a log
 * lives on its side (agent.check.LogCursor).
 */
public final class ThreadLog extends RepeatCacheFields {

    private final int serial;
    private final WeakReference<Thread> thread;
    private final String name;

    /** Set while this thread runs agent code that must not log (the re-entrancy guard). */
    boolean muted;
    /** How many user functions of atomics (getAndUpdate...) this thread is inside: their accesses are not logged. */
    int mutedCalls;
    /** The atomic-method nesting depth (for transactions). */
    int atomicDepth;
    // the stripe held between a lock probe and its log-and-unlock probe, -1 when none
    int held = -1;
    /** Lock probes skipped because a stripe was already held (a nested access: see Probes.take). */
    int nestedSkips;
    /** How many accesses were not logged because they ran nested inside another's probes. */
    long nested;
    Object heldObject;
    int heldSlot;
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

    /** Site whose caller chain is to be recorded after the stripe is released (Contexts), -1 when none. */
    int contextSite = -1;
    /** The site of the call that reached the method running now, -1 when none (Probes.callFrom). Owner only. */
    int caller = -1;

    /**
     * The stripe this thread takes around an event no address orders (a fence, a transaction bracket, a
     * join): not for ordering (the event says stripe -1) but so that the checker's sweep of every
     * stripe at exit also waits for such an event in flight (Probes.offerUnordered).
     */
    final int handshakeStripe;

    /** The log of {@code thread}, numbered {@code serial}, with a ring of at least {@code capacity} events. */
    ThreadLog(int serial, Thread thread, int capacity) {
        super(capacity, serial);
        this.serial = serial;
        this.thread = new WeakReference<>(thread);
        // a virtual thread has no name unless given one: its id names it in reports, never its carrier (getName is
        // final; the id is read through EventLog.idOf, never an application's override of getId)
        this.name = !thread.getName().isEmpty() ? thread.getName()
                : (EventLog.isVirtual(thread) ? "virtual-" : "thread-") + EventLog.idOf(thread, serial);
        this.handshakeStripe = Stripes.of(this, 0);
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

    /** The thread's name when its log was created. Any thread. */
    public String name() {
        return name;
    }

    /** The thread, or null once it has been collected. Any thread. */
    @Override
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
        long p = lpProducerIndex(); // plain load of our own index
        if (p - consumerCache > mask) {
            awaitSpace(p); // lvConsumerIndex until the consumer freed the slot
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
        soProducerIndex(p + 1); // release: the event's slots are visible to the consumer's lvProducerIndex first
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
}
