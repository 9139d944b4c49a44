package dev.mmcheck.checker.jmm;

/**
 * How the monitor reads a volatile access (docs/jmm-model.md, "Volatile"). Both keep volatile store
 * buffering, IRIW, 2+2W and R robust, as the JMM's total order of volatile accesses requires; they differ
 * in what else they order, so each misses what the other finds. Measured against volatile as C11's seq_cst
 * (the tests' oracle), neither reported falsely; SYNCHRONIZATION_ORDER, the default, missed about half as
 * many non-robust programs.
 */
public enum VolatileRule {
    /**
     * An SC fence (RSAN's encoding) before the access, then the access in acquire/release mode. The
     * monitor is then exactly RSAN's on the program with those fences, which the oracle checks at every
     * step; it misses reorderings of non-volatile accesses around an unrelated volatile one.
     */
    LEADING_FENCE,
    /**
     * The default, option (b) of docs/jmm-model.md: a volatile write is a release write whose message keeps the
     * location's earlier ones (it synchronizes with every later volatile read, not only its own), a volatile read an acquire
     * read, and a volatile access is never reported for reading or following a write older than the
     * location's latest volatile write (the run's order is taken as the JMM's synchronization order). No
     * declarative model is known for it, so it is only checked to report genuinely (against volatile as
     * C11's seq_cst); it misses a volatile read that could be stale through non-volatile accesses.
     */
    SYNCHRONIZATION_ORDER
}
