package dev.mmcheck.checker.result;

import dev.mmcheck.checker.event.Site;

/**
 * One transaction of a serializability cycle, as a report shows it.
 *
 * @param thread the thread's name
 * @param site   where it begins: the first line of the atomic method, or the first event for events
 *               outside atomic methods (each a transaction of its own; consecutive ones of a thread are
 *               shown as one when only program order leads from one to the next, which changes no cycle)
 * @param atomic whether it is an invocation of an atomic method (false: events outside one)
 */
public record TxInfo(String thread, Site site, boolean atomic) {

    /** {@code Pool.takeHead (T1, Pool.java:12)}, or {@code outside atomic methods (T1, Pool.java:40)}. */
    public String describe() {
        String simple = site.className().substring(site.className().lastIndexOf('.') + 1);
        String what = atomic ? (site.method().isEmpty() ? "transaction" : (simple.isEmpty() ? "" : simple + ".")
                + site.method()) : "outside atomic methods";
        return what + " (" + thread + ", " + site.location() + ")";
    }
}
