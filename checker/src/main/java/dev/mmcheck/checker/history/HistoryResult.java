package dev.mmcheck.checker.history;

import java.util.Map;

/**
 * Everything checking a history found: which weaker criteria hold (with a cycle for each that does
 * not), the SC and TSO verdicts (null for a model not asked for), and statistics of the stages.
 * {@code criteria} is empty when the criteria were not computed (plain enumeration).
 */
public record HistoryResult(History history, Map<Criterion, Boolean> criteria, Map<Criterion, Explanation> whyNot,
        Verdict sc, Verdict tso, Stats stats) {

    /**
     * Stage statistics: same-variable write pairs (initial writes not counted), how many of them pww and
     * wpww leave unordered (-1 when not computed, i.e. CCM or wCCM fails), fixpoint rounds, and the time
     * spent in the polynomial stages.
     */
    public record Stats(long writePairs, long pwwUnordered, long wpwwUnordered, int hbRounds, int whbRounds,
            long ccmNanos, long wccmNanos) {

        /** Share of write pairs pww leaves unordered, in percent (NaN when not computed or no pairs). */
        public double pwwUnorderedPercent() {
            return pwwUnordered < 0 || writePairs == 0 ? Double.NaN : 100.0 * pwwUnordered / writePairs;
        }

        /** Share of write pairs wpww leaves unordered, in percent (NaN when not computed or no pairs). */
        public double wpwwUnorderedPercent() {
            return wpwwUnordered < 0 || writePairs == 0 ? Double.NaN : 100.0 * wpwwUnordered / writePairs;
        }
    }

    /** Whether every model asked for is consistent. */
    public boolean consistent() {
        return (sc == null || sc.consistent()) && (tso == null || tso.consistent());
    }
}
