package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.event.Codes;

/**
 * The one rule the store-buffer monitors need when some accesses are not logged ({@code sample=R},
 * docs/sampling.md): a store to an address whose accesses are not all logged must not stay buffered,
 * since the unlogged access of another thread that would have committed it is never seen, and a store
 * kept buffered past it could be reported against a later access although the run had committed it.
 * Such a store is therefore handed to the monitors as a volatile store (a store followed by a full
 * fence): committing early is a step the store-buffer automaton allows, and it can only take reports
 * away. Stateless; any thread.
 */
public final class PartlyLogged {

    private PartlyLogged() {
    }

    /**
     * The event code to check for an event of {@code code} on an address of which every access is logged
     * ({@code everyAccessLogged}) or not: a plain or release store to a partly logged address becomes a
     * volatile store; everything else is unchanged.
     */
    public static int kind(int code, boolean everyAccessLogged) {
        if (!everyAccessLogged && (code == Codes.STORE || code == Codes.RELEASE_STORE)) {
            return Codes.VOLATILE_STORE;
        }
        return code;
    }
}
