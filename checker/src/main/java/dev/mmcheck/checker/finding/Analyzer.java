package dev.mmcheck.checker.finding;

import java.util.List;

/**
 * One analysis over the linearized event stream: a store-buffer monitor or a serializability check. The
 * engine feeds every analysis the same events, in the same order, and knows none of them by name; each
 * puts what it finds into its {@link FindingSink}. Thread and address ids are dense slots. Checker
 * thread only. An abstract class, not an interface: the engine calls {@link #event} once per analysis per event, and with
 * three analyses running that call site is megamorphic, where a virtual call costs a table load but an interface call
 * an itable search (JMH TraceBenchmark, tso+pso+jmm: W01 85 to 82 ns per event, W03 unchanged).
 */
public abstract class Analyzer {

    /** Which analysis this is. */
    public abstract Analysis analysis();

    /** Makes room for thread slots {@code 0..threads-1}; nothing for an analysis whose per-thread state grows on demand. */
    public void ensureThreads(int threads) {
    }

    /** Makes room for address id {@code address}; nothing for an analysis whose per-address state grows on demand. */
    public void ensureAddress(int address) {
    }

    /**
     * Processes event number {@code seq}. It is called before the happens-before clocks advance past the
     * event, so that they describe the stream up to the previous event (as the papers' monitors need for
     * {@code e ->hb* prev}).
     */
    public abstract void event(int kind, int thread, int operand, int site, long seq);

    /**
     * Forgets all history (every buffered store committed unchecked): a clock reset. Thread slots are
     * renumbered: {@code renumbered[old]} is the new slot of a live thread, -1 for an ended one.
     */
    public abstract void reset(int[] renumbered);

    /**
     * The stream has ended (so far): whatever the analysis still holds back is reported now. May be called more than
     * once; events may follow (a report written mid-run).
     */
    public void finish() {
    }

    /** What the user should know about how this analysis went: bounds reached, shortcuts taken. */
    public abstract List<Note> notes();

    /**
     * Whether thread slot {@code thread} has a store still buffered in this analysis's view (false for analyses
     * without store buffers): the agent grants a thread a solo period only while no other thread has one.
     */
    public boolean storesBuffered(int thread) {
        return false;
    }

    /** Stores committed early because a buffer reached its bound (0 for analyses without buffers). */
    public long forcedCommits() {
        return 0;
    }

    /** Atomic-method transactions seen (0 for analyses without transactions). */
    public long transactions() {
        return 0;
    }
}
