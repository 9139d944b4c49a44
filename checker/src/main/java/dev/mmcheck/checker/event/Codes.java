package dev.mmcheck.checker.event;

/**
 * The {@link EventKind} codes as compile-time constants, for {@code switch} statements on the hot
 * path (a switch on the enum costs an extra table lookup per event). {@link EventKind} is built from
 * these, so the two cannot disagree.
 */
public final class Codes {

    private Codes() {
    }

    /** {@link EventKind#LOAD} */
    public static final int LOAD = 0;
    /** {@link EventKind#STORE} */
    public static final int STORE = 1;
    /** {@link EventKind#RELEASE_STORE} */
    public static final int RELEASE_STORE = 2;
    /** {@link EventKind#VOLATILE_STORE} */
    public static final int VOLATILE_STORE = 3;
    /** {@link EventKind#INTERLOCKED} */
    public static final int INTERLOCKED = 4;
    /** {@link EventKind#FULL_FENCE} */
    public static final int FULL_FENCE = 5;
    /** {@link EventKind#STORE_STORE_FENCE} */
    public static final int STORE_STORE_FENCE = 6;
    /** {@link EventKind#LOAD_FENCE} */
    public static final int LOAD_FENCE = 7;
    /** {@link EventKind#MONITOR_ENTER} */
    public static final int MONITOR_ENTER = 8;
    /** {@link EventKind#MONITOR_EXIT} */
    public static final int MONITOR_EXIT = 9;
    /** {@link EventKind#THREAD_START} */
    public static final int THREAD_START = 10;
    /** {@link EventKind#THREAD_JOIN} */
    public static final int THREAD_JOIN = 11;
    /** {@link EventKind#THREAD_END} */
    public static final int THREAD_END = 12;
    /** {@link EventKind#TX_BEGIN} */
    public static final int TX_BEGIN = 13;
    /** {@link EventKind#TX_END} */
    public static final int TX_END = 14;
    /** {@link EventKind#ADDRESS_DEAD} */
    public static final int ADDRESS_DEAD = 15;

    /** Number of codes. */
    public static final int COUNT = 16;

    private static final boolean[] ACCESS = new boolean[COUNT];
    private static final boolean[] WRITES = new boolean[COUNT];

    static {
        for (int c = 0; c < COUNT; c++) {
            ACCESS[c] = c == LOAD || c == STORE || c == RELEASE_STORE || c == VOLATILE_STORE || c == INTERLOCKED
                    || c == MONITOR_ENTER || c == MONITOR_EXIT;
            WRITES[c] = ACCESS[c] && c != LOAD;
        }
    }

    /** Whether events of this code access their address operand. */
    public static boolean isAccess(int code) {
        return ACCESS[code];
    }

    /** Whether events of this code write their address. */
    public static boolean writes(int code) {
        return WRITES[code];
    }
}
