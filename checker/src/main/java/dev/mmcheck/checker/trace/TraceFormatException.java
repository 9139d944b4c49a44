package dev.mmcheck.checker.trace;

/**
 * Bad input in a trace file: the message names the file, the line or byte offset, and what is wrong,
 * in one line fit to show a user as it is.
 */
public final class TraceFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    /** {@code where} is "file:line" or "file: offset N"; {@code what} says what is wrong there. */
    public TraceFormatException(String where, String what) {
        super(where + ": " + what);
    }
}
