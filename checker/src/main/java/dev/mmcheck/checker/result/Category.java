package dev.mmcheck.checker.result;

import java.util.Locale;

/**
 * What kind of problem a finding is, from the access modes the code chose on each side: the first
 * question a library author asks of a report (docs/report-format.md, "Categories").
 */
public enum Category {
    /**
     * A plain access on either side: a data race under the Java memory model too, where the compiler
     * may reorder or hoist it as well as the hardware; almost always a bug.
     */
    RACE("error", "a plain access on either side: also a data race under the Java memory model, where the "
            + "compiler may reorder it too"),
    /**
     * Both sides chose weaker-than-volatile modes on purpose (release, opaque, acquire; or volatile on
     * one side): the reordering is one the code allowed; whether the algorithm tolerates it is the
     * question (a stale index read and retried is fine; a lost wake-up is not).
     */
    RELAXED("warning", "both sides chose weaker-than-volatile modes (release, opaque, acquire): the reordering is "
            + "permitted by what the code asked for; the question is whether the algorithm tolerates it"),
    /** Methods declared atomic interleave in a way no serial run explains (a serializability check). */
    ATOMICITY("error", "methods declared atomic interleave in a way no serial order of them explains");

    private final String sarifLevel;
    private final String explanation;

    Category(String sarifLevel, String explanation) {
        this.sarifLevel = sarifLevel;
        this.explanation = explanation;
    }

    /** The name in reports and options: {@code race}, {@code relaxed}, {@code atomicity}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** SARIF's level for it: {@code error} or {@code warning}. */
    public String sarifLevel() {
        return sarifLevel;
    }

    /** A sentence saying what it means. */
    public String explanation() {
        return explanation;
    }

    /** The category named {@code label}, or null. */
    public static Category parse(String label) {
        for (Category c : values()) {
            if (c.label().equals(label.trim().toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        return null;
    }

    /**
     * The access mode of an event in a report: its site's mode when the code chose one the kind does not
     * say (volatile, acquire, opaque), else what its kind says (plain for loads and stores). A read-modify-write is
     * {@code interlocked} whatever its flavour, which follows ({@code interlocked-acquire}, {@code interlocked-plain}:
     * a weakCompareAndSetPlain is atomic, never a data race), and so is a failed compare-and-set ({@code
     * interlocked-failed}, {@code interlocked-acquire-failed}).
     */
    public static String mode(EventInfo e) {
        String site = e.site().mode();
        if (e.op().equals("cas")) {
            return site.isEmpty() ? INTERLOCKED : INTERLOCKED + "-" + site;
        }
        return site.isEmpty() ? kindMode(e.op()) : site;
    }

    private static final String INTERLOCKED = "interlocked";

    /** What an event's kind (its {@code op}) says of its mode when its site says nothing. */
    private static String kindMode(String op) {
        return switch (op) {
            case "release-store" -> "release";
            case "volatile-store" -> "volatile";
            case "cas" -> INTERLOCKED;
            case "monitor-enter", "monitor-exit" -> "lock";
            default -> "plain";
        };
    }

    /**
     * The site mode of an event of kind {@code op} that a report shows as {@code reported} ({@link #mode}): its
     * inverse, for reading reports back (Merge).
     */
    public static String siteMode(String op, String reported) {
        if (reported.equals(kindMode(op))) {
            return "";
        }
        if (op.equals("cas") && reported.startsWith(INTERLOCKED + "-")) {
            return reported.substring(INTERLOCKED.length() + 1);
        }
        return reported;
    }

    /** The category of a store-buffer finding: a race when either side is plain, else relaxed. */
    public static Category of(EventInfo store, EventInfo access) {
        return plain(mode(store)) || plain(mode(access)) ? RACE : RELAXED;
    }

    /** Whether a mode is a plain access's: plain, or a final field's read (plain, which the jmm analysis does not check, JLS 17.5). */
    private static boolean plain(String mode) {
        return mode.equals("plain") || mode.equals("final");
    }
}
