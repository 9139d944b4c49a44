package dev.mmcheck.checker.event;

/**
 * Consumes a stream of events in the order the checker must see them: a linearization of the
 * observed run's happens-before relation, each thread's events in program order.
 *
 * <p>Ids index a {@link Symbols} table: {@code thread} a thread, {@code operand} an address or
 * (for start and join) a thread, or -1 when the kind takes none, {@code site} a site or -1.
 * Called by one thread at a time.
 */
@FunctionalInterface
public interface EventSink {

    /** Consumes one event; {@code kind} is an {@link EventKind#code()}. */
    void event(int kind, int thread, int operand, int site);
}
