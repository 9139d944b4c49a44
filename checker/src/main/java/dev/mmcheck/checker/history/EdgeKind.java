package dev.mmcheck.checker.history;

/** The kinds of edges a cycle in an explanation goes through. */
public enum EdgeKind {
    /** Program order: both operations are in one thread, the first one earlier. */
    PO("po"),
    /** Program order between two operations on the same variable (the TSO coherence condition). */
    PO_LOC("po-loc"),
    /** Write-read: the read returned the value the write wrote. */
    WR("wr"),
    /** Store order chosen by the search (a candidate store order being tried). */
    WW("ww"),
    /** Store order every witness must contain (the partial store order pww or wpww). */
    WW_FORCED("ww"),
    /** Store order the recorded times force (relaxed time order between writes, or through a read). */
    WW_TIME("ww"),
    /** Read-write: the read returned a value the store order places before the write. */
    RW("rw"),
    /** Relaxed time order: the first operation ended (relaxed commit time) before the second was issued. */
    RT("time");

    private final String label;

    EdgeKind(String label) {
        this.label = label;
    }

    /** The short label shown on arrows, e.g. "po". */
    public String label() {
        return label;
    }
}
