package dev.mmcheck.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The ring alone of one thread's event log ({@link ThreadLog}): a single-producer single-consumer ring of events,
 * written by its thread (the producer) and read by the checker thread (the consumer), in the vocabulary of JCTools'
 * {@code SpscArrayQueue}: {@code lv}/{@code sv} volatile load/store, {@code lp}/{@code sp} plain, {@code so} ordered
 * (release) store.
 *
 * <p>An event is {@link #INTS} ints plus one object reference (the accessed object, or null):
 * kind, site, slot (field id, array index or pseudo-field), stripe, stripe sequence, flags, a 64-bit
 * value (the value stored or loaded, for the self-check; the joined thread's event count for a join),
 * under {@code sample=R} a 64-bit flush count ({@link Flushes}), and the site of the call that reached the
 * method that logged it ({@link Probes#callFrom}).
 * The producer writes an event's slots with plain stores and then publishes it with an ordered store
 * of the producer index ({@link ThreadLog#offer}), so the consumer, which reads the producer index with a volatile
 * load, sees whole events. When the ring is full the producer waits for the consumer ({@link #awaitSpace}): no event
 * is ever dropped. Writing into preallocated arrays, it allocates nothing per event.
 *
 * <p>Why a superclass and not an object of its own: the probes hold the thread's {@link ThreadLog}; a ring in a final
 * field of it would cost one more load per event on the producer's fast path, a superclass costs none (its fields are
 * the log's). As in JCTools, the fields come in layers, padded apart: the arrays and the mask (read by both sides,
 * written only when the ring is freed), the producer's index and its cache of the consumer's, the consumer's index.
 * The producer's index and the consumer's are thus on different cache lines, and neither shares one with the
 * producer's other state ({@link SoloState} and on), whatever order the JVM lays out each layer's fields in.
 */
public abstract class EventRing extends EventRingPad3 {

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

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCER = l.findVarHandle(EventRingProducerFields.class, "producerIndex", long.class);
            CONSUMER = l.findVarHandle(EventRingConsumerField.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A ring of at least {@code capacity} events (a power of two, at least 64). */
    EventRing(int capacity) {
        super(Integer.highestOneBit(Math.max(64, capacity)));
    }

    // ---------------------------------------------------------------- producer side (owner thread)

    /** lpProducerIndex: the producer's own index, a plain load. Producer only. */
    final long lpProducerIndex() {
        return (long) PRODUCER.get(this);
    }

    /** soProducerIndex: publishes the events before {@code index} (release: their slots are visible first). Producer only. */
    final void soProducerIndex(long index) {
        PRODUCER.setRelease(this, index);
    }

    /**
     * Waits until event {@code p} has a free slot, refreshing the producer's cache of the consumer's index with a
     * volatile load (lvConsumerIndex: the consumer's soConsumerIndex released the slots it consumed). Producer only.
     */
    final void awaitSpace(long p) {
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

    /** Times the producer found the ring full and waited for the checker (back-pressure). Any thread (racy read). */
    public long backPressureWaits() {
        return waits;
    }

    // ---------------------------------------------------------------- consumer side (checker thread)

    /** lvProducerIndex: events published so far (acquire: their slots are visible). Any thread. */
    public long lvProducerIndex() {
        return (long) PRODUCER.getVolatile(this);
    }

    /** The consumer's index: events consumed so far (a plain load of its own index). Consumer only. */
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

    /** soConsumerIndex: events up to {@code index} are consumed; their slots may be reused (release: after the reads). Consumer only. */
    public void soConsumerIndex(long index) {
        long from = (long) CONSUMER.get(this);
        for (long i = from; i < index; i++) {
            objects[(int) i & mask] = null; // do not keep consumed objects alive
        }
        CONSUMER.setRelease(this, index);
    }
}

/** The ring's arrays and mask: read by both sides, written only when the ring is freed ({@link EventRing#release}). */
abstract class EventRingColdFields {
    // released (emptied) once the thread has ended and every event is consumed
    int[] ints;
    Object[] objects;
    final int mask;

    /** Arrays for {@code capacity} events, a power of two. */
    EventRingColdFields(int capacity) {
        this.ints = new int[capacity * EventRing.INTS];
        this.objects = new Object[capacity];
        this.mask = capacity - 1;
    }
}

/** Padding: the producer's index on a cache line of its own (128 bytes, as JCTools: adjacent lines are prefetched). */
abstract class EventRingPad1 extends EventRingColdFields {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;

    EventRingPad1(int capacity) {
        super(capacity);
    }
}

/** The producer's fields. Written by the producer only. */
abstract class EventRingProducerFields extends EventRingPad1 {
    /** Events published (through EventRing's PRODUCER handle). */
    volatile long producerIndex;
    /** The consumer's index as the producer last read it. */
    long consumerCache;
    /** Times the producer found the ring full and waited (back-pressure). */
    long waits;

    EventRingProducerFields(int capacity) {
        super(capacity);
    }
}

/** Padding between the producer's fields and the consumer's index. */
abstract class EventRingPad2 extends EventRingProducerFields {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;

    EventRingPad2(int capacity) {
        super(capacity);
    }
}

/** The consumer's index. Written by the consumer only. */
abstract class EventRingConsumerField extends EventRingPad2 {
    /** Events consumed (through EventRing's CONSUMER handle). */
    volatile long consumerIndex;

    EventRingConsumerField(int capacity) {
        super(capacity);
    }
}

/** Padding between the consumer's index and the producer's other state (the subclasses' fields). */
abstract class EventRingPad3 extends EventRingConsumerField {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;

    EventRingPad3(int capacity) {
        super(capacity);
    }
}
