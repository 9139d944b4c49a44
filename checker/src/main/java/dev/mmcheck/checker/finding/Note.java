package dev.mmcheck.checker.finding;

/**
 * Something the user should know about how a check went, typed so that nothing has to read it back
 * from its text: how serious it is, what kind of thing happened, which analysis it concerns, how many
 * times, and the sentence the summary prints.
 *
 * @param severity what it means for the verdict
 * @param kind     a stable name for what happened (docs/report-format.md lists them)
 * @param analysis the analysis it concerns ({@code tso}, {@code tsoser}...), or empty for the whole run
 * @param count    how many times it happened (events, stores, classes...), 0 when not a count
 * @param text     the sentence the summary prints
 */
public record Note(Severity severity, String kind, String analysis, long count, String text) {

    /** What a note means for the verdict. */
    public enum Severity {
        /** Something the run says it checked was not checked: an analysis failed, events or code went unchecked. */
        INCOMPLETE,
        /** Everything was checked, but a bound was reached and some violations may have been missed. */
        DEGRADED,
        /** How the check went; no consequence for the verdict. */
        INFO
    }

    /** A note that makes the run incomplete. */
    public static Note incomplete(String kind, String analysis, long count, String text) {
        return new Note(Severity.INCOMPLETE, kind, analysis, count, text);
    }

    /** A note that a bound was reached. */
    public static Note degraded(String kind, String analysis, long count, String text) {
        return new Note(Severity.DEGRADED, kind, analysis, count, text);
    }

    /** A note with no consequence for the verdict. */
    public static Note info(String kind, String analysis, long count, String text) {
        return new Note(Severity.INFO, kind, analysis, count, text);
    }

    /** Whether this note makes the run incomplete. */
    public boolean isIncomplete() {
        return severity == Severity.INCOMPLETE;
    }
}
