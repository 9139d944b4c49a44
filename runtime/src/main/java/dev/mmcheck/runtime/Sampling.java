package dev.mmcheck.runtime;

/**
 * {@code sample=R}: plain accesses are logged only on a fraction R of the objects (arrays included),
 * chosen per run by a seeded hash of each object's identity; every access of a sampled object is
 * logged, and synchronization (volatile accesses, atomics, VarHandles, Unsafe, fences, monitors, thread
 * start and join, java.util.concurrent) is logged on every object, as are static fields (docs/sampling.md
 * says why objects and not time windows, and why the checker then runs PSO only).
 *
 * <p>The decision is a pure function of the object's identity hash and the run's seed, so the
 * application threads (which skip an unsampled object's plain accesses) and the checker thread (which
 * commits a store to an unsampled object at once, since other threads' plain accesses to it are not
 * seen) agree on it without sharing anything. Configured once before the application starts; read by
 * any thread; allocates nothing.
 */
public final class Sampling {

    /** Objects are sampled when their mixed identity hash, as an unsigned 32-bit number, is below this. */
    private static long threshold = 1L << 32;
    /** Whether some objects are not sampled (sample below 1). */
    static boolean on;
    private static int seedMix;
    private static double rate = 1;
    private static long seed;

    private Sampling() {
    }

    /** Samples a fraction {@code rate} (0 < rate ≤ 1) of the objects, chosen by {@code seed}. Before the application starts. */
    public static void configure(double rate, long seed) {
        configure(rate, seed, false);
    }

    /**
     * {@link #configure(double, long)}; with {@code syncAsFences} ({@code sync=fences}) the
     * synchronization accesses of unsampled objects are logged only as the fences they make
     * ({@link #syncAsFence}). Before the application starts.
     */
    public static void configure(double rate, long seed, boolean syncAsFences) {
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("sampling rate " + rate + " is not in (0, 1]");
        }
        Sampling.syncAsFences = syncAsFences && rate < 1;
        Sampling.rate = rate;
        Sampling.seed = seed;
        Sampling.seedMix = (int) (seed ^ (seed >>> 32)) * 0x9E3779B9 | 1;
        Sampling.threshold = rate >= 1 ? 1L << 32 : (long) Math.ceil(rate * (1L << 32));
        Sampling.on = rate < 1;
    }

    /** The fraction of objects sampled. */
    public static double rate() {
        return rate;
    }

    /** The seed that chose them. */
    public static long seed() {
        return seed;
    }

    /** Whether some objects' plain accesses go unlogged. */
    public static boolean on() {
        return on;
    }

    /** sync=fences: the synchronization of unsampled objects is logged as fences, without addresses. */
    static boolean syncAsFences;

    /** Whether sync=fences is on. */
    public static boolean syncAsFences() {
        return syncAsFences;
    }

    /**
     * Whether a synchronization access of address ({@code object}, {@code slot}) is logged only as the
     * fence it makes (sync=fences): on an unsampled object (java.util.concurrent's one address is drawn as
     * an object is), but never on a static field (its owner token, or a Class) or a thread's start, which
     * stay whole. Loads are
     * then not logged and stores, atomics and monitors become full fences (StripeProtocol.write): what
     * the monitors need of them on the thread's side, without the address that would tie them to other
     * threads' accesses (SampledObjectsDifferentialTest checks every report stays genuine). Any thread.
     */
    static boolean syncAsFence(Object object, int slot) {
        return syncAsFences && slot != Probes.START && !(object instanceof StaticOwners.Token)
                && !(object instanceof Class) && !sampled(object);
    }

    /** Whether the plain accesses of {@code object} (not null) are logged. Any thread. */
    public static boolean sampled(Object object) {
        if (!on) {
            return true;
        }
        int h = (System.identityHashCode(object) ^ seedMix) * 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return (h & 0xffffffffL) < threshold;
    }

    /**
     * Whether every access to address ({@code object}, {@code slot}) is logged, which the checker thread
     * needs to know before it keeps a store to it buffered: true for a sampled object, a static field
     * (its token), a pseudo-field (monitor, thread start, an atomic's value) and an element of an
     * Atomic*Array, none of which plain instructions reach; false for a field or element of an
     * unsampled object, whose plain accesses are not logged. Any thread.
     */
    public static boolean fullyLogged(Object object, int slot) {
        return !on || object == null || slot < 0 || object instanceof StaticOwners.Token
                || object instanceof java.util.concurrent.atomic.AtomicIntegerArray
                || object instanceof java.util.concurrent.atomic.AtomicLongArray
                || object instanceof java.util.concurrent.atomic.AtomicReferenceArray
                || sampled(object);
    }
}
