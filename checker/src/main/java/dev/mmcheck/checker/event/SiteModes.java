package dev.mmcheck.checker.event;

/**
 * The access modes a site carries ({@link Site#mode()}): what the code chose at an instruction beyond what its
 * event's kind says, as the agent registers them and traces carry them (docs/mapping.md, "Access modes").
 *
 * <p>A load is {@code volatile}, {@code acquire} or {@code opaque} (or empty: plain); a store {@code opaque}, or
 * {@code release} or {@code acquire} when a fence right next to a plain access orders it so. A read-modify-write
 * ({@link EventKind#INTERLOCKED}) is empty for the volatile flavour, else {@code acquire}, {@code release} or
 * {@code plain}; an instruction that can fail (the compare-and-set family) has a second site, the same instruction
 * with the mode {@link #failed(String)} of its flavour, which the event names when the comparison failed: a failed
 * CAS only reads, but its event keeps the kind INTERLOCKED (it is a locked instruction all the same, a full fence
 * for the store-buffer models). A {@link EventKind#STORE_STORE_FENCE} is {@code release} (releaseFence, Unsafe's
 * storeFence) or {@code storestore} (storeStoreFence), a {@link EventKind#LOAD_FENCE} {@code acquire} (acquireFence,
 * Unsafe's loadFence) or {@code loadload} (loadLoadFence); either empty when not said (the final-field freeze at a
 * constructor's end, a trace from before fences had modes). A call into {@code java.util.concurrent} logged as an
 * interlocked event on its synchronization (docs/mapping.md) is empty, or for {@code StampedLock} what the JDK does
 * there: {@link #OPTIMISTIC_READ} (tryOptimisticRead: a volatile read of the state), {@link #VALIDATE} (validate: an
 * acquire fence, then that read) or {@link #WRITE_LOCK} (taking the write lock: a compare-and-set of the state and a
 * storeStoreFence). Every other kind's mode is empty.
 */
public final class SiteModes {

    /** StampedLock.tryOptimisticRead's events: a volatile read of the lock's state. */
    public static final String OPTIMISTIC_READ = "optimistic-read";
    /** StampedLock.validate's events: an acquire fence, then a volatile read of the lock's state. */
    public static final String VALIDATE = "validate";
    /** StampedLock's write-lock acquisitions: a volatile compare-and-set of the state, then a storeStoreFence. */
    public static final String WRITE_LOCK = "write-lock";

    /** A volatile load. */
    public static final String VOLATILE = "volatile";
    /** An acquire load, an acquire read-modify-write, or an acquire fence. */
    public static final String ACQUIRE = "acquire";
    /** A release read-modify-write, a release fence, or a plain store a release fence right before it orders. */
    public static final String RELEASE = "release";
    /** An opaque load or store. */
    public static final String OPAQUE = "opaque";
    /** A read-modify-write with plain memory effects (weakCompareAndSetPlain): still atomic, never a data race. */
    public static final String PLAIN = "plain";
    /** VarHandle.storeStoreFence: orders stores before it with stores after it, and nothing else. */
    public static final String STORESTORE = "storestore";
    /** VarHandle.loadLoadFence: orders loads before it with loads after it, and nothing else. */
    public static final String LOADLOAD = "loadload";
    /** A compare-and-set of the volatile flavour that failed (only a read); the suffix of the other flavours'. */
    public static final String FAILED = "failed";

    private static final String FAILED_SUFFIX = "-" + FAILED;

    private SiteModes() {
    }

    /**
     * The mode of the site a compare-and-set of flavour {@code flavour} ({@code ""} volatile, {@code acquire},
     * {@code release}, {@code plain}) logs when it failed: {@code failed}, {@code acquire-failed}...
     */
    public static String failed(String flavour) {
        return flavour.isEmpty() ? FAILED : flavour + FAILED_SUFFIX;
    }

    /** The flavour of a read-modify-write's mode, failed or not: {@code acquire-failed} is {@code acquire}. */
    public static String flavour(String mode) {
        return mode.equals(FAILED) ? "" : mode.endsWith(FAILED_SUFFIX)
                ? mode.substring(0, mode.length() - FAILED_SUFFIX.length()) : mode;
    }
}
