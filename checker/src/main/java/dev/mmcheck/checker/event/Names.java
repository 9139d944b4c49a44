package dev.mmcheck.checker.event;

/** The names behind the ids of an event stream, as reports show them. */
public interface Names {

    /** Name of thread {@code id}. */
    String threadName(int id);

    /** Name of address {@code id}: a field of an object, an array element, a monitor. */
    String addressName(int id);

    /** Source location of site {@code id}. */
    Site siteOf(int id);
}
