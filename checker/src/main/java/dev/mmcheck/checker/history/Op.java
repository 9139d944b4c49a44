package dev.mmcheck.checker.history;

/**
 * One read or write of a history: the {@code index}-th operation (0-based) of its thread, with the
 * variable it accesses and the value it wrote or returned, and, in a timed history, the times it was
 * issued and completed. {@code line} is where it was written in its file (0 when not from a file).
 */
public record Op(int id, int thread, int index, boolean write, int var, long value, long issue, long complete,
        int line) {

    /** True for a read. */
    public boolean read() {
        return !write;
    }
}
