package dev.mmcheck.checker.history;

/** The weaker, polynomial-time criteria of the gradual-consistency paper, reported alongside SC and TSO. */
public enum Criterion {
    /** Weak causal consistency. */
    CC("CC"),
    /** Causal convergence. */
    CCV("CCv"),
    /** Causal memory. */
    CM("CM"),
    /** Convergent causal memory: implied by SC, and its pww is part of every SC store order. */
    CCM("CCM"),
    /** Weak convergent causal memory: implied by TSO, and its wpww is part of every TSO store order. */
    WCCM("wCCM");

    private final String label;

    Criterion(String label) {
        this.label = label;
    }

    /** The name as the paper writes it, e.g. "CCv". */
    public String label() {
        return label;
    }
}
