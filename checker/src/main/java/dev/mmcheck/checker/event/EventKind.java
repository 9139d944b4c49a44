package dev.mmcheck.checker.event;

import dev.mmcheck.runtime.Kinds;

import java.util.Locale;

/**
 * What an event does, one constant per row of the Java-to-model mapping table (docs/mapping.md).
 *
 * <p>The int {@link #code()} is what event buffers and binary traces carry; {@link #of(int)} maps it
 * back. The codes are {@code dev.mmcheck.runtime.Kinds}' constants, the one list of them (the runtime writes
 * them); this enum adds what the checker needs: a label, the operand, whether the event reads or writes. Codes
 * are part of the binary trace format: never renumber, only append.
 */
public enum EventKind {
    /** Plain read, getOpaque, getAcquire, volatile read: a load in every model. */
    LOAD(Kinds.LOAD, "load", Operand.ADDRESS, true, false),
    /** Plain write, setOpaque: a buffered store. */
    STORE(Kinds.STORE, "store", Operand.ADDRESS, false, true),
    /** setRelease, lazySet, putOrdered: a buffered store that, in PSO, commits after the thread's earlier stores. */
    RELEASE_STORE(Kinds.RELEASE_STORE, "release-store", Operand.ADDRESS, false, true),
    /** Volatile write, setVolatile: a store followed by a full fence. */
    VOLATILE_STORE(Kinds.VOLATILE_STORE, "volatile-store", Operand.ADDRESS, false, true),
    /**
     * CAS, getAndSet, getAndAdd, compareAndExchange: an interlocked read-modify-write; also a compare-and-set that
     * failed (only a read, but a locked instruction all the same), which its site's mode says ({@link SiteModes}).
     */
    INTERLOCKED(Kinds.INTERLOCKED, "cas", Operand.ADDRESS, true, true),
    /** fullFence: flushes the thread's store buffer(s). */
    FULL_FENCE(Kinds.FULL_FENCE, "fence", Operand.NONE, false, false),
    /** releaseFence, storeStoreFence, storeFence: in PSO later stores commit after earlier ones; nothing in TSO. */
    STORE_STORE_FENCE(Kinds.STORE_STORE_FENCE, "storestore-fence", Operand.NONE, false, false),
    /** acquireFence, loadLoadFence, loadFence: nothing in TSO or PSO; recorded so a trace says what ran. */
    LOAD_FENCE(Kinds.LOAD_FENCE, "load-fence", Operand.NONE, false, false),
    /** monitorenter and the entry of a synchronized method: interlocked on the monitor (a full fence in PSO). */
    MONITOR_ENTER(Kinds.MONITOR_ENTER, "monitor-enter", Operand.ADDRESS, true, true),
    /** monitorexit and the exit of a synchronized method, also on exception: interlocked on the monitor. */
    MONITOR_EXIT(Kinds.MONITOR_EXIT, "monitor-exit", Operand.ADDRESS, true, true),
    /** Thread.start: the starting thread's earlier events happen before the started thread's; a full fence. */
    THREAD_START(Kinds.THREAD_START, "start", Operand.THREAD, false, false),
    /** Thread.join returned: the joined thread's events happen before the joiner's later ones; a full fence. */
    THREAD_JOIN(Kinds.THREAD_JOIN, "join", Operand.THREAD, false, false),
    /** The thread has ended: its buffers drain and its state may be released. */
    THREAD_END(Kinds.THREAD_END, "end", Operand.NONE, false, false),
    /** An atomic method begins (used by the serializability checks). */
    TX_BEGIN(Kinds.TX_BEGIN, "tx-begin", Operand.NONE, false, false),
    /** An atomic method ends, normally or by an exception. */
    TX_END(Kinds.TX_END, "tx-end", Operand.NONE, false, false),
    /** The address will not be accessed again (its object was collected); its id may be reused. */
    ADDRESS_DEAD(Kinds.ADDRESS_DEAD, "dead", Operand.ADDRESS, false, false);

    /** What the event's second operand names. */
    public enum Operand {
        /** no operand */
        NONE,
        /** a memory address (or a monitor) */
        ADDRESS,
        /** another thread */
        THREAD
    }

    private static final EventKind[] BY_CODE = values();

    static {
        for (int i = 0; i < BY_CODE.length; i++) {
            if (BY_CODE[i].code != i) {
                throw new ExceptionInInitializerError("EventKind's constants are not in Kinds' order at code " + i);
            }
        }
    }

    private final int code;
    private final String label;
    private final Operand operand;
    private final boolean reads;
    private final boolean writes;

    EventKind(int code, String label, Operand operand, boolean reads, boolean writes) {
        this.code = code;
        this.label = label;
        this.operand = operand;
        this.reads = reads;
        this.writes = writes;
    }

    /** The stable code carried by buffers and binary traces. */
    public int code() {
        return code;
    }

    /** The name used in text traces and reports. */
    public String label() {
        return label;
    }

    /** What the operand of this kind names. */
    public Operand operand() {
        return operand;
    }

    /** Whether the event reads its address. */
    public boolean reads() {
        return reads;
    }

    /** Whether the event writes its address. */
    public boolean writes() {
        return writes;
    }

    /** Whether the event is a memory access to an address (load, store or interlocked, monitors included). */
    public boolean isAccess() {
        return reads || writes;
    }

    /** The kind with the given code. */
    public static EventKind of(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("no event kind has code " + code);
        }
        return BY_CODE[code];
    }

    /** Whether {@code code} names a kind. */
    public static boolean isValidCode(int code) {
        return code >= 0 && code < BY_CODE.length;
    }

    /**
     * Parses a text-trace operation name or one of its aliases, some of which also name a site's access mode
     * (trace.TextTraceReader); null when unknown.
     */
    public static EventKind parse(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "load": case "ld": case "read": case "volatile-load": case "load-acquire":
            case "opaque-load": case "get":
                return LOAD;
            case "store": case "st": case "write": case "opaque-store": case "release-fenced-store":
                return STORE;
            case "release-store": case "store-release": case "lazyset": case "lazy-set":
            case "put-ordered": case "set-release":
                return RELEASE_STORE;
            case "volatile-store": case "set-volatile": case "vstore":
                return VOLATILE_STORE;
            case "cas": case "interlocked": case "il": case "rmw": case "get-and-set": case "get-and-add":
            case "compare-and-exchange": case "cas-acquire": case "cas-release": case "cas-plain": case "cas-failed":
            case "cas-acquire-failed": case "cas-release-failed": case "cas-plain-failed":
            case "juc-optimistic-read": case "juc-validate": case "juc-write-lock":
                return INTERLOCKED;
            case "fence": case "full-fence":
                return FULL_FENCE;
            case "storestore-fence": case "storestore": case "release-fence": case "store-fence":
            case "storestore-only-fence":
                return STORE_STORE_FENCE;
            case "load-fence": case "loadload-fence": case "acquire-fence":
                return LOAD_FENCE;
            case "monitor-enter": case "enter": case "lock":
                return MONITOR_ENTER;
            case "monitor-exit": case "exit": case "unlock":
                return MONITOR_EXIT;
            case "start":
                return THREAD_START;
            case "join":
                return THREAD_JOIN;
            case "end":
                return THREAD_END;
            case "tx-begin": case "begin-tx":
                return TX_BEGIN;
            case "tx-end": case "end-tx":
                return TX_END;
            case "dead":
                return ADDRESS_DEAD;
            default:
                return null;
        }
    }
}
