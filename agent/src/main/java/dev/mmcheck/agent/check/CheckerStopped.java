package dev.mmcheck.agent.check;

/**
 * Checking stopped for a reason the run gave, not a fault of the checker (a solo period's end that could not
 * be handed over exactly): reported as an incomplete note of kind {@link #kind}, with no stack.
 */
public final class CheckerStopped extends RuntimeException {
    private final String kind;

    CheckerStopped(String kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    /** The note's kind in the report. */
    public String kind() {
        return kind;
    }
}
