package dev.mmcheck.checker.result;

import dev.mmcheck.checker.finding.Analysis;

/**
 * Says which fence, or which {@code volatile}, removes a violation.
 *
 * <p>The violation's store e stayed buffered in its thread while a later event x of the same thread
 * was already seen by another thread: x is where the happens-before path from e to prev leaves e's
 * thread. Ordering e before x removes it: under TSO x is a load, so a full fence (or making the stored
 * field volatile, which is a store plus a full fence); under PSO x may also be a store to another
 * field, which a StoreStore fence or a release store at x already orders.
 */
final class Advice {

    private Advice() {
    }

    /** The advice for a violation of {@code analysis} whose path leaves the store's thread at {@code leaving}. */
    static String of(Analysis analysis, EventInfo store, EventInfo leaving) {
        String field = field(store.field());
        String orVolatile = ", or " + stronger(store, field);
        if (leaving == null) {
            return "put a full fence (VarHandle.fullFence()) right after the store to " + field + " at "
                    + at(store.site()) + orVolatile;
        }
        String at = at(store.site());
        String where = at.equals(at(leaving.site()))
                ? "between the store to " + field + " and the " + leaving.op() + " of " + field(leaving.field())
                        + " (both at " + at + ")"
                : "after the store at " + at + ", before the " + leaving.op() + " at " + at(leaving.site());
        boolean laterStore = leaving.op().contains("store");
        if (analysis == Analysis.PSO && laterStore) {
            return "the store to " + field(leaving.field()) + " at " + at(leaving.site()) + " can become "
                    + "visible before the store to " + field + " at " + at(store.site()) + ": make it a release "
                    + "store (setRelease/lazySet), put VarHandle.storeStoreFence() " + where + orVolatile;
        }
        return "the " + leaving.op() + " of " + field(leaving.field()) + " at " + at(leaving.site())
                + " can run while the store to " + field + " at " + at(store.site()) + " is still buffered: "
                + "put a full fence (VarHandle.fullFence()) " + where + orVolatile;
    }

    /**
     * The advice for a finding of the access-mode analysis (docs/jmm-model.md, "Findings"): the write {@code store}
     * is ordered before {@code access} in the run only through the path, which leaves the store's thread at
     * {@code leaving} and enters the access's thread at {@code entering} (from {@code source}); {@code threads} on
     * it, 0 when the path is not retained; {@code fencedBeforeLeaving}: the store's thread made a release (or full)
     * fence between the store and {@code leaving}, so the write there already releases; {@code
     * fullFenceBeforeLeaving}: a full fence. Says which access needs which mode, then where the reordering can
     * happen (a store-buffering shape, a store then a load of the same thread, with no full fence or volatile store:
     * x86 too).
     */
    static String jmm(EventInfo store, EventInfo access, EventInfo leaving, EventInfo source, EventInfo entering,
            int threads, boolean fencedBeforeLeaving, boolean fullFenceBeforeLeaving) {
        boolean write = access.op().contains("store") || access.op().equals("cas") && !failed(access);
        String what = write
                ? "the " + access.op() + " of " + field(access.field()) + " at " + at(access.site())
                        + " can be ordered before the store to " + field(store.field()) + " at " + at(store.site())
                        + " that it follows in this run"
                : "the " + access.op() + " of " + field(access.field()) + " at " + at(access.site())
                        + " can read an older value than the store at " + at(store.site());
        String fix;
        if (entering == null || source == null) {
            fix = "no release/acquire chain orders them: write " + field(store.field()) + " with a release or "
                    + "volatile store, or put VarHandle.fullFence() after the store at " + at(store.site())
                    + ", and read it with getAcquire at " + at(access.site());
        } else if (reads(entering) && writes(source)) {
            // the path enters the access's thread by a read of another thread's write: a release/acquire pair there
            StringBuilder b = new StringBuilder();
            if (!acquires(entering)) {
                b.append("read ").append(field(entering.field())).append(" with getAcquire at ").append(at(entering.site()))
                        .append(" (or put VarHandle.acquireFence() right after that read)");
            }
            if (leaving != null && writes(leaving) && !releases(leaving) && !fencedBeforeLeaving
                    && leaving.site().equals(source.site())) {
                b.append(b.length() == 0 ? "" : ", and ").append("write ").append(field(leaving.field()))
                        .append(" with setRelease at ").append(at(leaving.site()))
                        .append(" (or put VarHandle.releaseFence() right before that write)");
            }
            fix = b.length() > 0 ? b.toString()
                    : "the release/acquire pair " + at(source.site()) + " -> " + at(entering.site()) + " does not "
                            + "carry the order across " + threads + " threads: make the accesses on the path volatile, "
                            + "or put VarHandle.fullFence() between each thread's two accesses on it";
        } else {
            // a read followed by another thread's write, or two writes: no release/acquire pair orders that
            StringBuilder weak = new StringBuilder();
            for (EventInfo e : new EventInfo[] {store, source, entering, access}) {
                String m = Category.mode(e);
                if (!m.equals("volatile") && !m.startsWith("interlocked") && !m.equals("lock")) {
                    String one = "the " + e.op() + " at " + at(e.site());
                    if (weak.indexOf(one) < 0) {
                        weak.append(weak.length() == 0 ? "" : ", ").append(one);
                    }
                }
            }
            fix = "the " + source.op() + " of " + field(source.field()) + " at " + at(source.site()) + " and the "
                    + entering.op() + " of " + field(entering.field()) + " at " + at(entering.site())
                    + " are ordered only by the run's interleaving, which release and acquire cannot keep: make "
                    + (weak.length() == 0 ? "these accesses" : weak) + " volatile, or put VarHandle.fullFence() in "
                    + "each thread between its two accesses: after the " + store.op() + " at " + at(store.site())
                    + " and before the " + source.op() + " at " + at(source.site()) + "; after the "
                    + entering.op() + " at " + at(entering.site()) + " and before the " + access.op() + " at "
                    + at(access.site());
        }
        boolean storeBuffering = source != null && entering != null && reads(source) && !writes(source)
                && writes(entering) && !Category.mode(store).equals("volatile")
                && !Category.mode(store).startsWith("interlocked") && !fullFenceBeforeLeaving;
        return what + ": " + fix + ". " + where(store, access, leaving, entering, threads, write, storeBuffering);
    }

    /** Where the reordering of a jmm finding can happen: the JIT, ARMv8 and POWER hardware, or the model alone. */
    private static String where(EventInfo store, EventInfo access, EventInfo leaving, EventInfo entering,
            int threads, boolean write, boolean storeBuffering) {
        if (storeBuffering) {
            return "Where: any hardware with a store buffer, x86 included (the store can wait while the later load "
                    + "of its thread runs), ARMv8, POWER and the JIT.";
        }
        boolean plain = false;
        boolean allReleaseWrites = write;
        for (EventInfo e : new EventInfo[] {store, access, leaving, entering}) {
            if (e == null) {
                continue;
            }
            String m = Category.mode(e);
            plain |= m.equals("plain") || m.equals("final");
            allReleaseWrites &= writes(e) && releases(e);
        }
        if (plain) {
            return "Where: the JIT may reorder plain accesses on any hardware, x86 included, and ARMv8 and POWER "
                    + "hardware may too.";
        }
        if (allReleaseWrites) {
            return "Where: the model (C++20 release stores) allows it; ARMv8 and POWER hardware keep release stores "
                    + "in order, so today it is a portability risk rather than an observed failure.";
        }
        if (threads >= 3) {
            return "Where: the model and POWER hardware (not multi-copy atomic) allow it; ARMv8, which is multi-copy "
                    + "atomic, does not.";
        }
        return "Where: ARMv8 and POWER hardware (and the JIT); not x86.";
    }

    private static boolean failed(EventInfo e) {
        return e.site().mode().endsWith("failed");
    }

    private static boolean reads(EventInfo e) {
        return e.op().equals("load") || e.op().equals("cas") || e.op().equals("monitor-enter");
    }

    private static boolean writes(EventInfo e) {
        return e.op().contains("store") || e.op().equals("cas") && !failed(e) || e.op().equals("monitor-exit");
    }

    private static boolean acquires(EventInfo e) {
        String m = e.site().mode();
        return e.op().equals("monitor-enter") || m.startsWith("volatile") || m.startsWith("acquire")
                || e.op().equals("cas") && (m.isEmpty() || m.equals("failed"));
    }

    private static boolean releases(EventInfo e) {
        String m = e.site().mode();
        return e.op().equals("release-store") || e.op().equals("volatile-store") || e.op().equals("monitor-exit")
                || e.op().equals("cas") && (m.isEmpty() || m.startsWith("release"));
    }

    /** The stronger store that removes it, in words the code can follow. */
    private static String stronger(EventInfo store, String field) {
        boolean release = store.op().equals("release-store");
        if (field.startsWith("Atomic") && field.endsWith(".value") || field.contains("Atomic") && field.contains("[")) {
            return "store with set() (a volatile store) instead of " + (release ? "lazySet()/setRelease()"
                    : "setPlain()/setOpaque()");
        }
        if (field.contains("[")) {
            return "store the element with a volatile-mode access (VarHandle.setVolatile, AtomicReferenceArray.set, "
                    + "Unsafe.putXxxVolatile)" + (release ? " instead of the release store" : "");
        }
        if (release) {
            return "use a volatile store (VarHandle.setVolatile, Atomic*.set, Unsafe.putXxxVolatile) instead of the "
                    + "release store";
        }
        return "make " + field + " volatile";
    }

    /** Where a site is, with the call that reached it when it is a helper's access: the line to change may be the caller's. */
    private static String at(dev.mmcheck.checker.event.Site s) {
        return s.caller() == null ? s.location() : s.location() + " (called from " + s.caller().location() + ")";
    }

    /** The field an address belongs to: {@code Node#3.next} is field {@code Node.next}. */
    static String field(String address) {
        return address.replaceAll("#\\d+", "");
    }
}
