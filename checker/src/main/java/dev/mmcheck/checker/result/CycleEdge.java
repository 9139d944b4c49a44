package dev.mmcheck.checker.result;

/**
 * One edge of a serializability cycle: transaction {@code from} must come before transaction
 * {@code to}, because of the two conflicting events {@code source} (in {@code from}) and
 * {@code target} (in {@code to}).
 *
 * @param from   index of the source transaction in the cycle's list
 * @param to     index of the target transaction
 * @param kind   {@code program-order} (same thread), {@code conflict} (two threads, an order every
 *               execution keeps), {@code conflict-observed} (two threads, an order some executions
 *               reverse, taken as observed) or {@code conflict-late} (taken against the observed
 *               order: a write commits late)
 * @param source the event of {@code from}
 * @param target the event of {@code to}
 * @param late   for {@code conflict-late}: which of the two events is the write that commits late
 *               ({@code source} or {@code target}), or the buffered read that is ordered late; empty otherwise
 */
public record CycleEdge(int from, int to, String kind, EventInfo source, EventInfo target, String late) {

    /** {@code conflict-late}: the edge runs against the observed order. */
    public boolean isLate() {
        return kind.equals("conflict-late");
    }
}
