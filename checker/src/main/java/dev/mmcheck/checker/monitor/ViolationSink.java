package dev.mmcheck.checker.monitor;

/**
 * Receives the violations a monitor finds while it processes the current event.
 *
 * <p>The current event is the access e_i that exposes the violation, and the previous event of its
 * thread is prev; the monitor names the third event, the store e that is still buffered in another
 * thread and happens before prev. Called on the checker thread, synchronously.
 */
@FunctionalInterface
public interface ViolationSink {

    /** Store {@code (storeThread, storeSeq)} could still be buffered when the current event runs. */
    void violation(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
            long storeSeq);
}
