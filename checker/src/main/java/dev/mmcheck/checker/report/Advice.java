package dev.mmcheck.checker.report;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.report.EventInfo;

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
