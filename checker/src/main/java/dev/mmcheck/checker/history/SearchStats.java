package dev.mmcheck.checker.history;

/**
 * What the store-order enumeration did: {@code placements} frontiers explored (a write placed next in its
 * variable's store order and accepted), {@code tried} candidates considered, how many were pruned by a
 * cycle, by the time order (MODV) and as inactive frontiers, how often it backtracked, at how many points
 * it had a real choice, its deepest stack, and how long it took.
 */
public record SearchStats(long placements, long tried, long prunedCycle, long prunedTime, long prunedInactive,
        long backtracks, long decisions, int maxDepth, long nanos) {
}
