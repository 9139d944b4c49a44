package dev.mmcheck.checker.oracle;

/** Knobs of the differential tests, settable by system properties for nightly runs. */
final class DifferentialSupport {

    private DifferentialSupport() {
    }

    /** Random programs per test: {@code -Dmmcheck.diff.programs=N} (default 5000). */
    static int programs() {
        return Integer.getInteger("mmcheck.diff.programs", 5000);
    }

    /** The seed: {@code -Dmmcheck.diff.seed=S}. */
    static long seed() {
        return Long.getLong("mmcheck.diff.seed", 20261125L);
    }
}
