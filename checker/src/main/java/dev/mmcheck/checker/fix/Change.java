package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.event.Site;

/**
 * One source-level change a fix may make: a fence at an instruction, a stronger mode for one access, or a field made
 * volatile. Immutable; equal changes are one change (the hitting set counts it once, whichever findings need it).
 *
 * @param kind  what to write
 * @param site  the instruction it is written at (with the call that reached it when it is a helper's access; its mode
 *              left out); for
 *              {@link Kind#VOLATILE_FIELD}, the store that asked for it (where the report points)
 * @param field  for {@link Kind#VOLATILE_FIELD} the field, objects left out ({@code Ring.tail}); else empty
 * @param access the access at the site as a report names it ({@code the store to Ring.tail}): words only, not part of
 *               what makes two changes one
 */
public record Change(Kind kind, Site site, String field, String access) {

    /** What a change writes, each with what it costs per execution of the instruction(s) it changes (docs/fix.md). */
    public enum Kind {
        /** {@code VarHandle.fullFence()} right after the instruction. */
        FULL_FENCE_AFTER(1.0, 1.0),
        /** {@code VarHandle.fullFence()} right before the instruction. */
        FULL_FENCE_BEFORE(1.0, 1.0),
        /** {@code VarHandle.releaseFence()} right before a store. */
        RELEASE_FENCE_BEFORE(0.3, 1.0),
        /** {@code VarHandle.acquireFence()} right after a load. */
        ACQUIRE_FENCE_AFTER(0.3, 1.0),
        /** {@code VarHandle.acquireFence()} right before a load: the thread's earlier loads are ordered before it. */
        ACQUIRE_FENCE_BEFORE(0.3, 1.0),
        /** The store made a volatile store ({@code setVolatile}, {@code set} instead of {@code lazySet}). */
        VOLATILE_STORE(1.0, 0.5),
        /** The store made a release store ({@code setRelease}, {@code lazySet}). */
        RELEASE_STORE(0.1, 0.5),
        /** The load made an acquire load ({@code getAcquire}). */
        ACQUIRE_LOAD(0.1, 0.5),
        /** The load made a volatile load ({@code getVolatile}). */
        VOLATILE_LOAD(0.1, 0.5),
        /** The field declared {@code volatile}: every store to it a volatile store, every load a volatile load. */
        VOLATILE_FIELD(1.0, 0.5);

        private final double weight;
        private final double edit;

        Kind(double weight, double edit) {
            this.weight = weight;
            this.edit = edit;
        }

        /** The price of the edit itself: 1 for a line written (a fence), 0.5 for a mode changed in place. */
        public double edit() {
            return edit;
        }

        /** The cost of one execution, against a full fence's 1.0: a store's for {@link #VOLATILE_FIELD}. */
        public double weight() {
            return weight;
        }

        /** Whether it gives one access a stronger mode (a store's or a load's), where the access is written. */
        public boolean changesMode() {
            return this == VOLATILE_STORE || this == RELEASE_STORE || this == ACQUIRE_LOAD || this == VOLATILE_LOAD;
        }

        /** Whether it inserts a fence event rather than changing an access. */
        public boolean insertsFence() {
            return this == FULL_FENCE_AFTER || this == FULL_FENCE_BEFORE || this == RELEASE_FENCE_BEFORE
                    || this == ACQUIRE_FENCE_AFTER || this == ACQUIRE_FENCE_BEFORE;
        }
    }

    /**
     * The edit's price for a mode change at a plain access ({@code x.f = v}, {@code a[i]}, or a VarHandle's plain
     * get/set, which a run cannot tell apart): a VarHandle to declare and the access written through it, dearer than a
     * fence's line, so a fence that does as much is chosen at the same price per execution.
     */
    public static final double HANDLE_EDIT = 2.0;

    /** Keeps of the site the instruction alone: its mode is what the run gave it, which a change may strengthen. */
    public Change {
        site = kind.insertsFence() ? Rewrite.instruction(site) : Rewrite.instruction(site).base();
    }

    /**
     * Whether an event at {@code s} is one this change changes: a fence is written at the instruction as reached
     * through its call (the caller's line, for a helper's access), or, named with no call, at the instruction itself
     * for every caller; a mode where the access is written, so for every caller of a helper.
     */
    public boolean changes(Site s) {
        Site i = Rewrite.instruction(s);
        return site.equals(kind.insertsFence() && site.caller() != null ? i : i.base());
    }

    /** The change {@code kind} at {@code site}, where the run made {@code access}. */
    public static Change at(Kind kind, Site site, String access) {
        return new Change(kind, site, "", access);
    }

    /** Field {@code field} made volatile, asked for by the access {@code access} at {@code site}. */
    public static Change volatileField(String field, Site site, String access) {
        return new Change(Kind.VOLATILE_FIELD, site, field, access);
    }

    /** Equal when kind, instruction and field are: the words of {@link #access} do not count. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Change c && kind == c.kind && site.equals(c.site) && field.equals(c.field);
    }

    @Override
    public int hashCode() {
        return (kind.hashCode() * 31 + site.hashCode()) * 31 + field.hashCode();
    }

    /**
     * Where a user writes it: the instruction's line, or, for a helper's access, the line of the call that reached it
     * ({@code Ring.java:30}).
     */
    public String location() {
        return site.caller() != null ? site.caller().location() : site.location();
    }

    private String volatileStoreWords() {
        if (access.startsWith("the release store")) {
            return "set() or setVolatile instead of lazySet/setRelease";
        }
        if (access.contains("[]")) {
            return "an array VarHandle's setVolatile, or AtomicXxxArray.set";
        }
        return "a VarHandle's setVolatile, or set() instead of setOpaque/setPlain";
    }

    /** The file and line a user edits, and what to write there, in one line ({@code Ring.java:30: ...}). */
    public String line() {
        return location() + ": " + what();
    }

    /** What to write, in words a user can follow. */
    public String what() {
        String inside = site.caller() != null ? " (" + access + " at " + site.location() + " inside it)" : "";
        String target = site.caller() != null ? "the call" : access;
        return switch (kind) {
            case FULL_FENCE_AFTER -> "put VarHandle.fullFence() right after " + target + inside;
            case FULL_FENCE_BEFORE -> "put VarHandle.fullFence() right before " + target + inside;
            case RELEASE_FENCE_BEFORE -> "put VarHandle.releaseFence() right before " + target + inside;
            case ACQUIRE_FENCE_AFTER -> "put VarHandle.acquireFence() right after " + target + inside;
            case ACQUIRE_FENCE_BEFORE -> "put VarHandle.acquireFence() right before " + target + inside;
            case VOLATILE_STORE -> "make " + access + " a volatile store (" + volatileStoreWords() + ")";
            case RELEASE_STORE -> "make " + access + " a release store (setRelease, or lazySet)";
            case ACQUIRE_LOAD -> "make " + access + " an acquire load (getAcquire)";
            case VOLATILE_LOAD -> "make " + access + " a volatile load (getVolatile, or get() instead of getAcquire/"
                    + "getOpaque/getPlain)";
            case VOLATILE_FIELD -> "declare " + field + " volatile (every access to it becomes volatile)";
        };
    }

    /** A short stable name for tests and JSON: {@code FULL_FENCE_AFTER@Dekker.java:21}. */
    @Override
    public String toString() {
        return kind + "@" + (field.isEmpty() ? "" : field + "@") + site.location()
                + (site.caller() != null ? "<-" + site.caller().location() : "");
    }
}
