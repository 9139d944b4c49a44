package dev.mmcheck.checker.monitor;

import dev.mmcheck.runtime.Kinds;


/**
 * The rules the PSO monitor needs when some accesses are not logged ({@code sample=R}, docs/sampling.md).
 * An access that is left out can commit stores the monitor still holds buffered: another thread's access
 * to a store's address commits it; and in Java's PSO a store may commit only after every store of an
 * older generation of its thread (a release store or a StoreStore fence starts a generation), so a
 * left-out store of a younger generation that commits forces the older ones out too. A store kept
 * buffered past such a commit could be reported against a later access although the run had committed
 * it. Hence:
 * <ul>
 *   <li>a plain or release store to an address whose accesses are not all logged commits at once: it is
 *       handed to the monitors as a volatile store (a store followed by a full fence);</li>
 *   <li>a StoreStore fence is handed to them as a full fence, and a release store to a fully logged
 *       address is preceded by one ({@link #flushFirst}): then no store of an older generation is ever
 *       buffered behind a younger one, and no left-out store can force one out.</li>
 * </ul>
 * Committing stores early is a step the store-buffer automaton allows, so these rules can only take
 * reports away (SampledObjectsDifferentialTest). Stateless; any thread.
 */
public final class PartlyLogged {

    private PartlyLogged() {
    }

    /**
     * The event code to check for an event of {@code code} on an address of which every access is logged
     * ({@code everyAccessLogged}) or not (an event with no address counts as fully logged).
     */
    public static int kind(int code, boolean everyAccessLogged) {
        if (code == Kinds.STORE_STORE_FENCE) {
            return Kinds.FULL_FENCE;
        }
        if (!everyAccessLogged && (code == Kinds.STORE || code == Kinds.RELEASE_STORE)) {
            return Kinds.VOLATILE_STORE;
        }
        return code;
    }

    /** Whether the monitors must see a full fence of the event's thread just before it. */
    public static boolean flushFirst(int code, boolean everyAccessLogged) {
        return everyAccessLogged && code == Kinds.RELEASE_STORE;
    }
}
