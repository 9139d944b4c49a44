package dev.mmcheck.checker.report;

import dev.mmcheck.checker.event.Site;

/**
 * One transaction of a serializability cycle, as a report shows it.
 *
 * @param thread the thread's name
 * @param site   where it begins: the first line of the atomic method, or the event itself for an event
 *               outside any atomic method (a transaction of its own)
 * @param atomic whether it is an invocation of an atomic method (false: a single event outside one)
 */
public record TxInfo(String thread, Site site, boolean atomic) {

    /** {@code Pool.takeHead (T1, Pool.java:12)}, or {@code event (T1, Pool.java:40)} outside atomic methods. */
    public String describe() {
        String simple = site.className().substring(site.className().lastIndexOf('.') + 1);
        String what = atomic ? (site.method().isEmpty() ? "transaction" : (simple.isEmpty() ? "" : simple + ".")
                + site.method()) : "single event";
        return what + " (" + thread + ", " + site.location() + ")";
    }
}
