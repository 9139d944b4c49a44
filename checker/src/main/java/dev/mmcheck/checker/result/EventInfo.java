package dev.mmcheck.checker.result;

import dev.mmcheck.checker.event.Site;

/**
 * One event as a report shows it.
 *
 * @param role   what the event is in the violation: store, prev, access, or step (on a path)
 * @param thread the thread's name
 * @param op     the operation, as in {@link dev.mmcheck.checker.event.EventKind#label()}
 * @param site   where it ran
 * @param field  the field, array element or monitor it accessed; empty when none
 */
public record EventInfo(String role, String thread, String op, Site site, String field) {

    /** {@code store of x by T1 at Dekker.java:12}. */
    public String describe() {
        StringBuilder b = new StringBuilder(op);
        if (!field.isEmpty()) {
            b.append(' ').append(field);
        }
        b.append(" by ").append(thread).append(" at ").append(site.describe());
        return b.toString();
    }
}
