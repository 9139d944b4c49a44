package dev.mmcheck.agent.check;

/**
 * What the checker thread remembers of one thread's log ({@code runtime.ThreadLog}) besides the ring's own consumer
 * index: whether the log's start was fed, the hand-overs fed, and what the solo periods' looks saw. Kept here, on the
 * consumer's side, so that the runtime has no field the checker thread writes except through the ring's and the
 * hand-over's documented protocol ({@code soConsumerIndex}, {@code releaseHold}, {@code clearRing}, {@code release}).
 * One per log, made when the checker first meets the log, kept by {@link Logs}. Checker thread only.
 */
final class LogCursor {

    /**
     * Whether the checker has fed another thread's start of this thread. A thread that logs nothing of its own (an
     * empty task has nothing to instrument) can end while its start still waits in the starting thread's log; its log
     * is ended only once it has events or its start has been fed.
     */
    boolean startFed;
    /** The largest event count at which one of this log's solo periods ended and whose hand-over the checker has fed, -1 when none. */
    long handOverFed = -1;
    /** This log's producer index when the checker last looked at it for a solo period. */
    long producedAtLastLook = -1;
    /** Whether it had produced events since the look before that one. */
    boolean producingAtLastLook;
    /** This log's producer index at the checker's last look for a thread logging alone (runtime.Solo#lookedAlone). */
    long producedAtAloneLook = -1;
}
