package dev.mmcheck.agent.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The self-check: verifies, for every read whose value was recorded, that the checker's order of
 * events implies the value the read actually returned, that is, the value of the last write to that
 * address in the checker's order. A mismatch means the observed run was not the sequentially
 * consistent, linearized run the monitors assume (or a write escaped instrumentation: System.arraycopy,
 * reflection, native code). Reference values are compared by identity hash code. Checker thread only.
 */
public final class SelfCheck {

    private static final byte UNKNOWN = 0;
    private static final byte KNOWN = 1;

    private long[] last = new long[1024];
    private byte[] state = new byte[1024];
    private long reads;
    private long mismatches;
    private final List<String> examples = new ArrayList<>();

    private void ensure(int a) {
        if (a >= last.length) {
            int n = Math.max(a + 1, last.length * 2);
            last = Arrays.copyOf(last, n);
            state = Arrays.copyOf(state, n);
        }
    }

    /** A write of {@code value} to address {@code a}. */
    void wrote(int a, long value) {
        ensure(a);
        last[a] = value;
        state[a] = KNOWN;
    }

    /** A write to {@code a} whose value is not known (a CAS, a monitor operation). */
    void wroteUnknown(int a) {
        ensure(a);
        state[a] = UNKNOWN;
    }

    /** A read of {@code value} from {@code a}; {@code where} describes it, computed only on a mismatch. */
    void read(int a, long value, java.util.function.Supplier<String> where) {
        ensure(a);
        reads++;
        if (state[a] == KNOWN && last[a] != value) {
            mismatches++;
            if (examples.size() < 5) {
                examples.add(where.get() + " returned " + value + " but the last write in the checker's order wrote "
                        + last[a]);
            }
        }
        last[a] = value;
        state[a] = KNOWN;
    }

    /** The address is dead: forget it. */
    void forget(int a) {
        if (a < state.length) {
            state[a] = UNKNOWN;
        }
    }

    /** Every address is forgotten (the checker forgot its address ids at its memory bound). */
    void forgetAll() {
        last = new long[1024];
        state = new byte[1024];
    }

    public long reads() {
        return reads;
    }

    public long mismatches() {
        return mismatches;
    }

    public List<String> examples() {
        return examples;
    }
}
