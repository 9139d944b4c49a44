package dev.mmcheck.samples.litmus;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** How a litmus test's shared variables are accessed: the four Java access modes compared. */
public enum Variant {
    /** Plain reads and writes. */
    PLAIN("plain"),
    /** getOpaque / setOpaque. */
    OPAQUE("opaque"),
    /** getAcquire / setRelease. */
    RELEASE_ACQUIRE("rel-acq"),
    /** getVolatile / setVolatile (all accesses volatile: the JMM promises SC). */
    VOLATILE("volatile");

    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final String label;

    Variant(String label) {
        this.label = label;
    }

    /** The short name used in tables and on the command line. */
    public String label() {
        return label;
    }

    /** Writes {@code value} to {@code memory[index]} in this mode. */
    public void write(long[] memory, int index, long value) {
        switch (this) {
            case PLAIN:
                memory[index] = value;
                break;
            case OPAQUE:
                CELL.setOpaque(memory, index, value);
                break;
            case RELEASE_ACQUIRE:
                CELL.setRelease(memory, index, value);
                break;
            default:
                CELL.setVolatile(memory, index, value);
        }
    }

    /** Reads {@code memory[index]} in this mode. */
    public long read(long[] memory, int index) {
        switch (this) {
            case PLAIN:
                return memory[index];
            case OPAQUE:
                return (long) CELL.getOpaque(memory, index);
            case RELEASE_ACQUIRE:
                return (long) CELL.getAcquire(memory, index);
            default:
                return (long) CELL.getVolatile(memory, index);
        }
    }

    /** The variant called {@code label}, or null. */
    public static Variant parse(String label) {
        for (Variant v : values()) {
            if (v.label.equalsIgnoreCase(label) || v.name().equalsIgnoreCase(label)) {
                return v;
            }
        }
        return null;
    }
}
