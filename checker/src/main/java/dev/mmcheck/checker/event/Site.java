package dev.mmcheck.checker.event;

/**
 * One source location: the instruction (or trace line) an event came from, and, for an access inside
 * a helper that its caller points at a field or element, the call that reached it.
 *
 * @param className fully qualified class, or empty when unknown (hand-written traces)
 * @param method    method name, or empty when unknown
 * @param file      source file name such as {@code Dekker.java}
 * @param line      source line, or 0 when unknown
 * @param bci       bytecode index, or -1 when unknown
 * @param mode      the access mode the code chose there when the event's kind does not say it ({@link SiteModes}):
 *                  {@code volatile}, {@code acquire} or {@code opaque} for a load, {@code opaque} for a store;
 *                  {@code acquire} or {@code release} for a plain load or store that a fence right next
 *                  to it orders so; a read-modify-write's flavour ({@code acquire}, {@code release}, {@code
 *                  plain}; empty for volatile), with {@code -failed} on the site a failed compare-and-set
 *                  logs ({@code failed} alone for volatile); a fence's ({@code release}, {@code storestore},
 *                  {@code acquire}, {@code loadload}); empty for a plain access and wherever the kind says it
 *                  all (release and volatile stores, full fences, monitors)
 * @param caller    the call through which the event's method was reached, when the site is a helper's access
 *                  whose field or element its caller chose (docs/report-format.md, "One finding per race"), else null: its
 *                  class, method, file and line (no bytecode index, mode or caller of its own)
 */
public record Site(String className, String method, String file, int line, int bci, String mode, Site caller) {

    /** A site reached through no known call. */
    public Site(String className, String method, String file, int line, int bci, String mode) {
        this(className, method, file, line, bci, mode, null);
    }

    /** A site with no mode of its own (a plain access, or one whose kind says its mode). */
    public Site(String className, String method, String file, int line, int bci) {
        this(className, method, file, line, bci, "");
    }

    /**
     * Keeps a caller to what reports show of it: class, method, file and line; it has no caller of its own, and a
     * lambda's body is named without javac's number ({@code lambda$run$1} is {@code lambda$run}): two lambdas on one
     * line are one call for a reader, and the number changes with unrelated edits.
     */
    public Site {
        if (caller != null) {
            String m = caller.method().matches("lambda\\$.*\\$\\d+") ? caller.method().replaceAll("\\$\\d+$", "")
                    : caller.method();
            if (caller.caller() != null || caller.bci() != -1 || !caller.mode().isEmpty() || !m.equals(caller.method())) {
                caller = new Site(caller.className(), m, caller.file(), caller.line(), -1);
            }
        }
    }

    /** A site known only by file and line, as in hand-written traces. */
    public static Site at(String file, int line) {
        return new Site("", "", file, line, -1);
    }

    /**
     * This site reached through the call at {@code call} (its class, method, file and line: its own caller, bytecode
     * index and mode are dropped), or without a caller when null.
     */
    public Site calledFrom(Site call) {
        return new Site(className, method, file, line, bci, mode, call);
    }

    /** This site without its caller: the instruction itself. */
    public Site base() {
        return caller == null ? this : new Site(className, method, file, line, bci, mode);
    }

    /** {@code File.java:12}, the form reports use. */
    public String location() {
        return line > 0 ? file + ":" + line : file;
    }

    /**
     * {@code File.java:12 (Class.method)} when the method is known, else {@link #location()}; with a caller,
     * {@code , called from Ring.java:30 (Ring.write)} after it.
     */
    public String describe() {
        String self = method.isEmpty() ? location() : location() + " (" + simple(className) + method + ")";
        return caller == null ? self : self + ", called from " + caller.describe();
    }

    private static String simple(String className) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return simple.isEmpty() ? "" : simple + ".";
    }
}
