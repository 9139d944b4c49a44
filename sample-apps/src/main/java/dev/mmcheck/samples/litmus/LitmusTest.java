package dev.mmcheck.samples.litmus;

import java.util.ArrayList;
import java.util.List;

/**
 * The classic litmus tests, as per-thread programs of writes and reads over variables x and y. Every
 * write gets its own value (1, 2, ... per variable), so each history says which write each read saw.
 *
 * <p>Tests whose interesting outcome is a final value (2+2W, R, S) add a "final" thread that reads every
 * variable after all threads have been joined. A history has no notion of "after the join", so that
 * alone would say nothing: the final reads could be placed anywhere in a store order. So each thread of
 * such a test ends by writing its own end marker (variable {@code end0}, {@code end1}, ...), and the
 * final thread reads the end markers first, then x and y. Reading a thread's marker puts all of that
 * thread's writes before the final reads (po, wr; and under TSO a thread's writes stay in order), so
 * the final values pin down the store order as the litmus test means them to.
 */
public enum LitmusTest {
    /** Store buffering: each thread writes one variable, then reads the other. */
    SB(false, "W x; R y", "W y; R x"),
    /** Message passing: data then flag; the reader reads the flag then the data. */
    MP(false, "W x; W y", "R y; R x"),
    /** Load buffering: each thread reads one variable, then writes the other. */
    LB(false, "R x; W y", "R y; W x"),
    /** Independent reads of independent writes. */
    IRIW(false, "W x", "W y", "R x; R y", "R y; R x"),
    /** Two writes each, in opposite orders; the final values tell the store order. */
    TWO_PLUS_TWO_W(true, "W x; W y", "W y; W x"),
    /** R: a write pair against a write then a read. */
    R(true, "W x; W y", "W y; R x"),
    /** S: a write pair against a read then a write. */
    S(true, "W x; W y", "R y; W x"),
    /** Write-to-read causality across three threads. */
    WRC(false, "W x", "R x; W y", "R y; R x");

    /** One operation of a thread: a write (of a value fixed per test) or a read of variable {@code var}. */
    public record Step(boolean write, int var, long value) {
    }

    private final boolean finalReads;
    private final List<List<Step>> threads = new ArrayList<>();

    LitmusTest(boolean finalReads, String... programs) {
        this.finalReads = finalReads;
        long[] next = new long[2];
        int thread = 0;
        for (String p : programs) {
            List<Step> steps = new ArrayList<>();
            for (String s : p.split(";")) {
                String[] t = s.trim().split(" ");
                int var = t[1].equals("x") ? 0 : 1;
                boolean write = t[0].equals("W");
                steps.add(new Step(write, var, write ? ++next[var] : 0));
            }
            if (finalReads) {
                steps.add(new Step(true, 2 + thread, 1));
            }
            thread++;
            threads.add(List.copyOf(steps));
        }
    }

    /** The name as litmus tables write it ("2+2W" for {@link #TWO_PLUS_TWO_W}). */
    public String label() {
        return this == TWO_PLUS_TWO_W ? "2+2W" : name();
    }

    /** The programs of the test's threads (not counting the final reads). */
    public List<List<Step>> threads() {
        return threads;
    }

    /** Number of variables: x and y, and with final reads one end marker per thread. */
    public int vars() {
        return 2 + (finalReads ? threads.size() : 0);
    }

    /** The name of variable {@code var}: x, y, end0, end1, ... */
    public static String variableName(int var) {
        return var == 0 ? "x" : var == 1 ? "y" : "end" + (var - 2);
    }

    /** Whether a "final" thread reads every variable after the others are joined. */
    public boolean finalReads() {
        return finalReads;
    }

    /** The test called {@code label}, or null. */
    public static LitmusTest parse(String label) {
        for (LitmusTest t : values()) {
            if (t.label().equalsIgnoreCase(label) || t.name().equalsIgnoreCase(label)) {
                return t;
            }
        }
        return null;
    }
}
