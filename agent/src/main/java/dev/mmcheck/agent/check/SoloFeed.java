package dev.mmcheck.agent.check;

/**
 * What the solo periods' coordinator ({@link SoloPeriods}) needs of the loop it runs in: draining the logs, feeding a
 * hand-over ring's entries to the checker, and whether checking goes on. {@link LoopFeed} in a run; a unit test's
 * fake otherwise (SoloPeriodsTest). Checker thread only.
 */
interface SoloFeed {

    /** Drains every log once, new ones taken in; whether any event was taken. */
    boolean drainAll();

    /** Whether checking has stopped on a failure. */
    boolean failed();

    /** Whether the loop has been asked to stop. */
    boolean stopping();

    /** The checker thread (its own log, if it has one, never logs). */
    Thread thread();

    /** Whether the thread numbered {@code serial} has a store still buffered in the checker's view (Checker.storesBuffered). */
    boolean storesBuffered(int serial);

    /** Feeds a fence ({@code kind}) of the ring of thread {@code serial} at {@code site}, counted as added. */
    void feedFence(int kind, int serial, int site);

    /**
     * Feeds an access of the ring of thread {@code serial} to ({@code object}, {@code slot}), counted as added; its
     * address is found as Feed finds it (nothing fed under overhead=log).
     */
    void feedAccess(int kind, int serial, Object object, int slot, int site);
}
