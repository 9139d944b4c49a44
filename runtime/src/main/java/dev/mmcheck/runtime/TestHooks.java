package dev.mmcheck.runtime;

/**
 * Where a test framework tells mmcheck that a test begins and ends (the JUnit 5 extension,
 * {@code dev.mmcheck.junit5}): findings first seen between the two are the test's. The agent installs
 * the {@link Bridge} at start-up; without the agent nothing is installed and {@link #attached()} says
 * so. Called on the test's thread, outside any probe; {@link #end} waits for the checker.
 */
public final class TestHooks {

    /** What the agent does at a test's boundaries. */
    public interface Bridge {
        /** Test {@code name} begins. */
        void begin(String name);

        /**
         * Test {@code name} ended: waits (at most {@code timeoutMillis}) until the checker has taken every
         * event logged so far, and returns the summary paragraphs of the findings first seen since the test
         * began, one string each (empty: none).
         */
        String[] end(String name, long timeoutMillis);

        /**
         * How to reproduce test {@code name}'s findings offline, after its {@link #end}: a sentence naming the {@code
         * mmcheck replay} command of its own trace ({@code trace=} with {@code %t}) or of the run's, or null when no
         * trace is written.
         */
        default String reproduce(String name) {
            return null;
        }
    }

    private static volatile Bridge bridge;

    private TestHooks() {
    }

    /** Installs the agent's bridge. At start-up, by the agent. */
    public static void install(Bridge b) {
        bridge = b;
    }

    /** How to reproduce test {@code name}'s findings offline (see {@link Bridge#reproduce}), or null. The test's thread. */
    public static String reproduce(String name) {
        Bridge b = bridge;
        return b == null ? null : b.reproduce(name);
    }

    /** Whether the agent is attached and checking. Any thread. */
    public static boolean attached() {
        return bridge != null;
    }

    /** Test {@code name} begins. The test's thread. */
    public static void begin(String name) {
        Bridge b = bridge;
        if (b != null) {
            b.begin(name);
        }
    }

    /** Test {@code name} ended: the findings first seen during it (see {@link Bridge#end}). The test's thread. */
    public static String[] end(String name, long timeoutMillis) {
        Bridge b = bridge;
        return b == null ? new String[0] : b.end(name, timeoutMillis);
    }

    /** The seed schedule=active draws from now. */
    public static long seed() {
        return Schedule.seed;
    }

    /** Reseeds schedule=active: threads whose log is made from now on draw their pauses from {@code seed}. */
    public static void reseed(long seed) {
        Schedule.seed = seed;
    }
}
