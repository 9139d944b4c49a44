package dev.mmcheck.runtime;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Under {@code sample=R}: one global count of the flushes logged so far, which gives the checker's
 * merge the order between a thread's flush and every event of another thread that came after it.
 *
 * <p>The merge knows the order of two threads' events only where they touch one address (the
 * stripes). In a full run every chain of cause and effect between threads runs through logged
 * accesses, so that is enough; in a sampled run a chain can run through accesses that were left out
 * (a plain flag in an object not drawn), and the merge could feed the reader's accesses before the
 * writer's fence and hold a store as buffered that the fence had committed (S28; docs/sampling.md,
 * "Fences and the merge"). So every logged event that flushes under sampling takes a ticket (the
 * count before it, then counts itself) and every other logged event records the count it saw: the
 * checker feeds the flushes in ticket order and an event only once every flush it saw is fed. Both
 * are taken while the event's stripe is held, and before anything the flush orders can be seen by
 * another thread: inside {@link ThreadLog#offer}, which runs before a store and after a load, fence or
 * monitor, and for a bracketed call (an atomic, updater, VarHandle or Unsafe access, whose event is
 * written after the call) in its lock probe ({@link StripeProtocol#takeBracketed}). So the merge's
 * constraints (program order, stripe order, ticket order) all follow the order things happened and
 * can always be met. Any thread; allocates nothing.
 */
final class Flushes {

    /** The count. */
    private static final AtomicLong COUNT = new AtomicLong();

    private Flushes() {
    }

    /** Takes the next ticket: the number of flushes logged before this one. Under the event's stripe. */
    static long ticket() {
        return COUNT.getAndIncrement();
    }

    /** The number of flushes that have taken a ticket so far. Under the event's stripe. */
    static long seen() {
        return COUNT.get();
    }

    /** Whether an event of {@code kind} to ({@code object}, {@code slot}) flushes its thread under sampling (PartlyLogged). */
    static boolean flushes(int kind, Object object, int slot) {
        switch (kind) {
            case Kinds.LOAD, Kinds.LOAD_FENCE, Kinds.TX_BEGIN, Kinds.TX_END, Kinds.THREAD_BEGIN:
                return false;
            case Kinds.STORE:
                // a store to an address not every access of which is logged is handed over as a volatile store
                return object != null && !Sampling.fullyLogged(object, slot);
            default:
                return true;
        }
    }
}
