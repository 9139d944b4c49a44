package dev.mmcheck.checker.event;

/**
 * One source location: the instruction (or trace line) an event came from.
 *
 * @param className fully qualified class, or empty when unknown (hand-written traces)
 * @param method    method name, or empty when unknown
 * @param file      source file name such as {@code Dekker.java}
 * @param line      source line, or 0 when unknown
 * @param bci       bytecode index, or -1 when unknown
 * @param mode      the access mode the code chose there when the event's kind does not say it: {@code
 *                  volatile}, {@code acquire} or {@code opaque} for a load, {@code opaque} for a store;
 *                  {@code acquire} or {@code release} for a plain load or store that a fence right next
 *                  to it orders so; empty for a plain access and wherever the kind says it all (release,
 *                  volatile store, interlocked)
 */
public record Site(String className, String method, String file, int line, int bci, String mode) {

    /** A site with no mode of its own (a plain access, or one whose kind says its mode). */
    public Site(String className, String method, String file, int line, int bci) {
        this(className, method, file, line, bci, "");
    }

    /** A site known only by file and line, as in hand-written traces. */
    public static Site at(String file, int line) {
        return new Site("", "", file, line, -1);
    }

    /** {@code File.java:12}, the form reports use. */
    public String location() {
        return line > 0 ? file + ":" + line : file;
    }

    /** {@code File.java:12 (Class.method)} when the method is known, else {@link #location()}. */
    public String describe() {
        if (method.isEmpty()) {
            return location();
        }
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return location() + " (" + (simple.isEmpty() ? "" : simple + ".") + method + ")";
    }
}
