package dev.mmcheck.checker.event;

import java.util.Arrays;

/**
 * Per thread slot, its last event other than a fence or a transaction bracket: the "prev" of the
 * store-buffer monitors' reports. Written by the engine as events pass, read by the report side when it
 * names a finding. Checker thread only.
 */
public final class LastEvents {

    private long[] seq = new long[16];
    private int[] kind = new int[16];
    private int[] operand = new int[16];
    private int[] site = new int[16];

    /** An empty table: no slot has an event. */
    public LastEvents() {
        Arrays.fill(seq, -1);
    }

    /** Makes room for slots {@code 0..slots-1}. */
    public void ensureSlots(int slots) {
        if (slots > seq.length) {
            int old = seq.length;
            int n = Math.max(slots, old * 2);
            seq = Arrays.copyOf(seq, n);
            kind = Arrays.copyOf(kind, n);
            operand = Arrays.copyOf(operand, n);
            site = Arrays.copyOf(site, n);
            Arrays.fill(seq, old, n, -1);
        }
    }

    /** Slot {@code t}'s last event is now event {@code s}. */
    public void remember(int t, long s, int k, int op, int at) {
        seq[t] = s;
        kind[t] = k;
        operand[t] = op;
        site[t] = at;
    }

    /** Slot {@code t} has no last event (a new or ended thread, or after a reset). */
    public void forget(int t) {
        seq[t] = -1;
    }

    /** The event number of slot {@code t}'s last event, -1 when none. */
    public long seq(int t) {
        return seq[t];
    }

    /** Its kind code. */
    public int kind(int t) {
        return kind[t];
    }

    /** Its operand (address or thread slot). */
    public int operand(int t) {
        return operand[t];
    }

    /** Its site id. */
    public int site(int t) {
        return site[t];
    }
}
