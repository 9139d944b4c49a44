package dev.mmcheck.checker.engine;

/**
 * A failure to inject into a check, for testing that failures are reported and the other analyses go
 * on: when event number {@code event} reaches stage {@code stage}, that stage throws. Stages are the
 * analyses' names ({@code tso}, {@code pso}, {@code sober}, {@code scser}, {@code tsoser}, {@code jmm}), {@code core}
 * (thread slots and clocks: every analysis) and {@code names} (naming the first violation at or after
 * the event).
 *
 * @param stage where to fail
 * @param event the event number (0-based) at which to fail
 */
public record Fault(String stage, long event) {

    /** The stages a fault can be injected into. */
    public static final java.util.List<String> STAGES = java.util.List.of("tso", "pso", "sober", "scser", "tsoser",
            "jmm", "core", "names");

    /** Parses {@code STAGE@EVENT}; null when malformed. */
    public static Fault parse(String text) {
        int at = text.indexOf('@');
        if (at <= 0 || !STAGES.contains(text.substring(0, at))) {
            return null;
        }
        try {
            long e = Long.parseLong(text.substring(at + 1));
            return e < 0 ? null : new Fault(text.substring(0, at), e);
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    /** Throws the injected failure if this is its stage and its event has come. */
    void check(String at, long seq) {
        if (stage.equals(at) && seq >= event) {
            throw new IllegalStateException("failure injected into " + stage + " at event " + event);
        }
    }
}
