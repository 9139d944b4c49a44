package dev.mmcheck.checker.jmm;

/**
 * One robustness violation: at {@code event} (thread {@code thread}, location {@code location}) some
 * execution of the same program under the model is not sequentially consistent, because the event can
 * read, or be placed in the location's write order after, the write {@code visibleWrite}, which is older
 * than the write {@code scWrite} that the SC run already orders before the event.
 *
 * <p>Writes are named by the ids their events were given ({@link #INITIAL} for the location's initial
 * value) and by their stamps (the k-th write to the location has stamp k).
 *
 * @param kind          a stale read, or a write (or read-modify-write) placed before a write it follows in SC
 * @param thread        the thread of the event
 * @param location      the location it accesses
 * @param event         the event's id
 * @param scWrite       the id of the latest write to the location that is SC-ordered before the event (for a
 *                      write placement, the latest such write that is not a read-modify-write)
 * @param scStamp       its stamp
 * @param visibleWrite  the id of the write the model lets the event read (or be placed right after)
 * @param visibleStamp  its stamp
 */
public record RobustnessViolation(Kind kind, int thread, int location, long event, long scWrite, int scStamp,
        long visibleWrite, int visibleStamp) {

    /** The id that names a location's initial value. */
    public static final long INITIAL = -1;

    /** What the alternative execution does differently at the event. */
    public enum Kind {
        /** The read (or a compare-and-set, failing) can read the older write: a stale read. */
        STALE_READ,
        /** The write (or read-modify-write, a compare-and-set succeeding) can be ordered right after the older write. */
        WRITE_PLACEMENT
    }

    @Override
    public String toString() {
        return kind + " at event " + event + " (thread " + thread + ", location " + location + "): can "
                + (kind == Kind.STALE_READ ? "read " : "be placed right after ") + name(visibleWrite, visibleStamp)
                + " though SC orders " + name(scWrite, scStamp) + " before it";
    }

    private static String name(long id, int stamp) {
        return (id == INITIAL ? "the initial value" : "write " + id) + " (#" + stamp + ")";
    }
}
