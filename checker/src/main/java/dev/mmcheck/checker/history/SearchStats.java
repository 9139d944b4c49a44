package dev.mmcheck.checker.history;

/**
 * What the store-order enumeration did: {@code placements} frontiers explored (a write placed next in its
 * variable's store order and accepted), {@code tried} candidates considered, how many were pruned by a
 * cycle, by the time order (MODV) and as inactive frontiers, how often it backtracked, at how many points
 * it had a real choice, its deepest stack, how long it took, and how many times it restarted (with
 * times: a new round under another initial order with a larger budget, see HistoryChecker), all rounds
 * counted together.
 */
public record SearchStats(long placements, long tried, long prunedCycle, long prunedTime, long prunedInactive,
        long backtracks, long decisions, int maxDepth, long nanos, int restarts) {
}
