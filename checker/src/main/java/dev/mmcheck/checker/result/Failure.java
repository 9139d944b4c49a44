package dev.mmcheck.checker.result;

import java.util.ArrayList;
import java.util.List;

/**
 * A failure inside mmcheck: which stage threw, at which event, and the exception with its stack, so
 * that a report can say exactly what stopped instead of passing for "no violations".
 *
 * @param stage     what failed: an analysis ({@code tso}, {@code pso}, {@code sober}, {@code scser},
 *                  {@code tsoser}), {@code core} (thread slots and clocks, on which every analysis depends), {@code names}
 *                  (naming a violation), or a stage of the agent ({@code checker-loop})
 * @param event     the number of the event being processed (0-based), or -1 when not at an event
 * @param exception the exception's class and message
 * @param stack     the exception's stack frames, innermost first (at most {@link #FRAMES}), then its causes
 */
public record Failure(String stage, long event, String exception, List<String> stack) {

    /** Stack frames kept per exception. */
    public static final int FRAMES = 40;

    /** The failure of {@code stage} at {@code event} with {@code t}. */
    public static Failure of(String stage, long event, Throwable t) {
        List<String> stack = new ArrayList<>();
        for (Throwable c = t; c != null && stack.size() < 4 * FRAMES; c = c.getCause()) {
            if (c != t) {
                stack.add("caused by " + c);
            }
            StackTraceElement[] frames = c.getStackTrace();
            for (int i = 0; i < frames.length && i < FRAMES; i++) {
                stack.add(String.valueOf(frames[i]));
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return new Failure(stage, event, String.valueOf(t), List.copyOf(stack));
    }

    /** One sentence: what failed, where, and with what. */
    public String describe() {
        String what = switch (stage) {
            case "core" -> "the checker's core (thread slots, clocks, history window: every analysis) failed";
            case "names" -> "naming a violation failed";
            case "checker-loop" -> "the checker thread failed";
            default -> "the " + stage + " analysis failed";
        };
        return what + (event >= 0 ? " at event " + event : "") + ": " + exception;
    }
}
