package dev.mmcheck.agent.check;

/**
 * What the solo periods' coordinator ({@link SoloPeriods}) needs of the runtime: runtime.Solo's protocol (claim,
 * confirm, the pending hand-over), runtime.Stripes' locks for the sweep, and what it reads and clears of a thread's log
 * ({@code L}: runtime.ThreadLog in a run, {@link RuntimeSolo}). An interface so that a unit test can drive the
 * coordinator without the real runtime (SoloPeriodsTest). Checker thread only.
 */
interface SoloRuntime<L> {

    // ------------------------------------------------------------ runtime.Solo

    /** Whether periods may be granted (Solo.enabled). */
    boolean enabled();

    /** Why a period's end could not be handed over exactly, or null (Solo.broken). */
    String broken();

    /** The log whose period ended and whose hand-over is not fed yet, or null (Solo.pending). */
    L pending();

    /** The pending log's event count when its period ended (Solo.pendingCount). */
    long pendingCount();

    /** The name of the thread that ended the pending period (Solo.pendingEndedBy). */
    String pendingEndedBy();

    /** The hand-over of {@code log}'s period is fed (Solo.handedOver). */
    void handedOver(L log);

    /** Whether a period is claimed or on (Solo.claimed). */
    boolean claimed();

    /** Claims a period for {@code log}; whether it did (Solo.claim). */
    boolean claim(L log);

    /** Whether the claim for {@code log} still stands (Solo.claimedFor). */
    boolean claimedFor(L log);

    /** Starts the period claimed for {@code log}, {@code lone} when no other live thread has a log; whether it did (Solo.confirm). */
    boolean confirm(L log, boolean lone);

    /** Gives up the claim for {@code log} (Solo.confirmNot). */
    void confirmNot(L log);

    /** The look's finding for schedule=active: {@code log} logged alone over the last two looks, or null (Solo.lookedAlone). */
    void lookedAlone(L log, long now);

    // ------------------------------------------------------------ runtime.Stripes

    /** How many stripes there are (Stripes.COUNT). */
    int stripes();

    /** Takes stripe {@code s} if it is free; whether it did (Stripes.tryLock). */
    boolean tryLock(int s);

    /** Releases stripe {@code s} (Stripes.unlock). */
    void unlock(int s);

    // ------------------------------------------------------------ a log (runtime.ThreadLog)

    /** Events {@code log} has published (lvProducerIndex). */
    long produced(L log);

    /** Events of {@code log} the checker has consumed (lpConsumerIndex). */
    long consumed(L log);

    /** The count past which {@code log} is held for its hand-over, -1 when none (lvHoldAt). */
    long holdAt(L log);

    /** Releases {@code log}'s hold, its hand-over fed (releaseHold). */
    void releaseHold(L log);

    /** Entries in {@code log}'s hand-over ring (ringSize). */
    int ringSize(L log);

    /** The kind of the ring's {@code i}-th entry, oldest first (ringKind). */
    int ringKind(L log, int i);

    /** Its object (ringObject). */
    Object ringObject(L log, int i);

    /** Its slot (ringSlot). */
    int ringSlot(L log, int i);

    /** Its site (ringSite). */
    int ringSite(L log, int i);

    /** The fence before the ring's entries, 0 for none (ringFence). */
    int ringFence(L log);

    /** That fence's site (ringFenceSite). */
    int ringFenceSite(L log);

    /** Empties {@code log}'s ring, its entries fed (clearRing). */
    void clearRing(L log);

    /** {@code log}'s thread id (serial). */
    int serial(L log);

    /** {@code log}'s thread's name (name). */
    String name(L log);

    /** {@code log}'s thread, null once collected (thread). */
    Thread thread(L log);
}
