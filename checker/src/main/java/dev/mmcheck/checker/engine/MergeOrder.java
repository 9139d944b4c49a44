package dev.mmcheck.checker.engine;

/**
 * The rule by which the agent's checker loop merges the threads' logs into one stream: when the
 * event at the head of a thread's log may be fed. The logs are taken in program order; between threads
 * the merge knows the order of the accesses under one stripe (each event carries its stripe's sequence
 * number) and, under {@code sample=R}, the order of the flushes (each flush carries a global ticket and
 * every other event the number of flushes it saw: the runtime's {@code Flushes}, docs/sampling.md,
 * "Fences and the merge"). Any order this rule allows must give only genuine reports:
 * SampledObjectsDifferentialTest's merge tests feed random programs' logs in random orders it allows.
 * Stateless; any thread.
 */
public final class MergeOrder {

    private MergeOrder() {
    }

    /**
     * Whether an event may be fed now: its stripe's earlier accesses ({@code expected}, per stripe, the
     * sequence number due next) are fed when it has a stripe ({@code stripe >= 0}); and, when
     * {@code tickets} (sampling), it is the next flush ({@code ticket}, its ticket {@code epoch} equal to
     * the flushes fed, {@code flushesFed}) or an event whose {@code epoch} flushes have all been fed.
     */
    public static boolean mayFeed(int[] expected, int stripe, int seq, boolean tickets, boolean ticket, long epoch,
            long flushesFed) {
        if (stripe >= 0 && expected[stripe] != seq) {
            return false; // an earlier access to this stripe is still in another thread's log
        }
        return !tickets || (ticket ? epoch == flushesFed : epoch <= flushesFed);
    }
}
