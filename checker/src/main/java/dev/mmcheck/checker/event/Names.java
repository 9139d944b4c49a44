package dev.mmcheck.checker.event;

/** The names behind the ids of an event stream, as reports show them. */
public interface Names {

    /** Name of thread {@code id}. */
    String threadName(int id);

    /** Name of address {@code id}: a field of an object, an array element, a monitor. */
    String addressName(int id);

    /** Source location of site {@code id}. */
    Site siteOf(int id);

    /**
     * A store-buffer finding at these sites was just reported for the first time: names that can learn
     * more about a site (the agent records the callers of its next executions, docs/report-format.md,
     * "Calling context") may start now. Nothing by default.
     */
    default void reported(int storeSite, int accessSite) {
    }
}
