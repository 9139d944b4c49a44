package dev.mmcheck.checker.history;

/**
 * Bad input in a history: the message is one line fit to show a user as it is, starting with
 * "source:line: " when the line is known (or "source: " when it is not).
 */
public final class HistoryFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    /** {@code source} names the file (or stream), {@code line} is 1-based or 0 when unknown. */
    public HistoryFormatException(String source, int line, String what) {
        super(source + (line > 0 ? ":" + line : "") + ": " + what);
    }
}
