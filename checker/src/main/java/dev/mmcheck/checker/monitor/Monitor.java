package dev.mmcheck.checker.monitor;

/**
 * An on-the-fly analysis of a linearized SC event stream.
 *
 * <p>The checker calls {@link #event} for each event before it advances the happens-before clocks
 * past it, so that the clocks describe the stream up to the previous event (as the papers' monitors
 * need for {@code e ->hb* prev}). Thread and address ids are dense slots. Checker thread only.
 */
public interface Monitor {

    /** Which analysis this is. */
    Analysis analysis();

    /** Makes room for thread slots {@code 0..threads-1}. */
    void ensureThreads(int threads);

    /** Makes room for address id {@code address}. */
    void ensureAddress(int address);

    /** Processes event number {@code seq}: checks, commits and buffers as the monitor's figure says. */
    void event(int kind, int thread, int operand, int site, long seq);

    /** Commits every buffered store without checks and forgets all state (used by a clock reset). */
    void reset();

    /** Stores committed early because a buffer reached its bound (0 when never). */
    long forcedCommits();
}
