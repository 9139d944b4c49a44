package dev.mmcheck.checker.event;

/**
 * What the checker derives from an event's code on the hot path, as tables indexed by code (a switch on
 * {@link EventKind} costs an extra lookup per event). The codes themselves are {@code dev.mmcheck.runtime.Kinds}'
 * constants, the one list the runtime writes and the checker reads; the tables are built from {@link EventKind}.
 */
public final class Codes {

    private Codes() {
    }

    /** Number of the checker's codes: {@code 0..COUNT-1}. */
    public static final int COUNT = EventKind.values().length;

    private static final boolean[] ACCESS = new boolean[COUNT];
    private static final boolean[] WRITES = new boolean[COUNT];

    static {
        for (EventKind k : EventKind.values()) {
            ACCESS[k.code()] = k.isAccess();
            WRITES[k.code()] = k.writes();
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
