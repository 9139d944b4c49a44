package dev.mmcheck.checker.event;

/** The names behind the ids of an event stream, as reports show them. */
public interface Names {

    /** Name of thread {@code id}. */
    String threadName(int id);

    /** Name of address {@code id}: a field of an object, an array element, a monitor. */
    String addressName(int id);

    /**
     * What address {@code id} is, with the object left out: equal for two addresses exactly when their names
     * are equal once object numbers and element indices are dropped ({@code Node#3.next} and {@code Node#9.next};
     * {@code int[]#2[0]} and {@code int[]#5[7]}), or finer. Findings of one race keep apart what reaches another
     * field or array by it (docs/report-format.md, "One finding per race"). Called for every sighting of a
     * finding: allocates nothing.
     */
    long addressShape(int id);

    /**
     * An address's name with the object left out: {@code Node#3.next} is {@code Node.next}, {@code int[]#2[7]} is
     * {@code int[][]}: the field or array a race is on, whichever object.
     */
    static String withoutObject(String name) {
        return name.replaceAll("#\\d+", "").replaceAll("\\[\\d+]", "[]");
    }

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
