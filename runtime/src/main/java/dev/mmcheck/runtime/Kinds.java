package dev.mmcheck.runtime;

/**
 * The event kinds' codes: the one list, for the runtime that writes them and the checker that reads them. The
 * codes 0-15 are the checker's ({@code dev.mmcheck.checker.event.EventKind} names each, in this order; the checker
 * compiles against these constants, which javac copies into its classes, so it needs no runtime class when it
 * runs); the codes from 32 on exist only between the runtime and the agent's checker thread. Codes are part of
 * the binary trace format: never renumber, only append. Constants only: nothing here may need initializing.
 */
public final class Kinds {

    private Kinds() {
    }

    /** a load (plain, opaque, acquire or volatile read) */
    public static final int LOAD = 0;
    /** a plain or opaque store */
    public static final int STORE = 1;
    /** setRelease, lazySet, putOrdered */
    public static final int RELEASE_STORE = 2;
    /** a volatile store */
    public static final int VOLATILE_STORE = 3;
    /** CAS and read-modify-write */
    public static final int INTERLOCKED = 4;
    /** full fence */
    public static final int FULL_FENCE = 5;
    /** StoreStore fence (release fence, constructor freeze) */
    public static final int STORE_STORE_FENCE = 6;
    /** LoadLoad fence (acquire fence) */
    public static final int LOAD_FENCE = 7;
    /** monitorenter, entry of a synchronized method */
    public static final int MONITOR_ENTER = 8;
    /** monitorexit, exit of a synchronized method */
    public static final int MONITOR_EXIT = 9;
    /** Thread.start */
    public static final int THREAD_START = 10;
    /** Thread.join returned */
    public static final int THREAD_JOIN = 11;
    /** the thread ended (written by the checker thread, never by probes) */
    public static final int THREAD_END = 12;
    /** an atomic method began */
    public static final int TX_BEGIN = 13;
    /** an atomic method ended */
    public static final int TX_END = 14;
    /** the address's object was collected, its id may be reused (written by the checker thread, never by probes) */
    public static final int ADDRESS_DEAD = 15;

    /** A started thread's first event: orders it after the start (runtime only). */
    public static final int THREAD_BEGIN = 32;
    /**
     * Logged by a thread before its first event after another thread's solo period ended ({@link Solo}): the
     * checker commits that thread's stores once it has fed its events up to the count in the value, before
     * anything this thread logs after it (runtime only).
     */
    public static final int SOLO_END = 33;
}
