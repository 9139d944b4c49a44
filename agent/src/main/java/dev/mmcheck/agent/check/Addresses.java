package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.runtime.Kinds;

/**
 * Address identities under the memory bound: the checker's tables grow with the address ids in use (per id, its
 * clocks' record, whose size grows with the threads, and the heap's entries). When an id would reach the limit, all
 * history is forgotten, as at a clock reset, and ids start again (counted in the report). Checker thread only.
 */
final class Addresses {

    private final Checker checker;
    private final Heap heap;
    private final EventSink trace;
    private final SelfCheck selfCheck;
    private final long memoryBound;
    /** The first address id past the bound. */
    private int addressLimit;
    /** The checker's bytes per address when {@link #addressLimit} was computed. */
    private long bytesPerAddress;

    /** Ids of {@code heap}'s objects for {@code checker}, its tables bounded by {@code memoryBound} bytes. */
    Addresses(Checker checker, Heap heap, EventSink trace, SelfCheck selfCheck, long memoryBound) {
        this.checker = checker;
        this.heap = heap;
        this.trace = trace;
        this.selfCheck = selfCheck;
        this.memoryBound = memoryBound;
        checker.limitMemory(memoryBound); // also when a new thread widens every record (Checker.slot)
        update();
    }

    /** Recomputes the limit when a new thread widened every record since it was computed. */
    void updateIfWidened() {
        if (checker.bytesPerAddress() != bytesPerAddress) {
            // a new thread widened every record: fewer addresses fit the bound, and the checker grows
            // its table no further than the bound, one id at a time past it (Checker.ensureAddress)
            update();
        }
    }

    /** The id of {@code object}'s {@code slot}, all addresses forgotten first when a new id would pass the limit. */
    int of(Object object, int slot) {
        int a = heap.address(object, slot);
        if (a >= addressLimit) {
            forgetAll();
            a = heap.address(object, slot);
        }
        return a;
    }

    /** Recomputes the limit from the checker's bytes per address and the heap's. */
    void update() {
        bytesPerAddress = checker.bytesPerAddress();
        long perAddress = bytesPerAddress + Heap.BYTES_PER_ADDRESS;
        addressLimit = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(1024, memoryBound / perAddress));
    }

    /** The bytes the checker's and the heap's tables take for the ids in use, roughly (progress lines). */
    long tableBytes() {
        return (long) heap.addressIdBound() * (checker.bytesPerAddress() + Heap.BYTES_PER_ADDRESS);
    }

    /** The memory bound, in bytes. */
    long bound() {
        return memoryBound;
    }

    private void forgetAll() {
        if (trace != null) {
            // a replay of the trace must not take a forgotten id's new address for its old one
            for (int a = 0; a < heap.addressIdBound(); a++) {
                trace.event(Kinds.ADDRESS_DEAD, 0, a, -1);
            }
        }
        checker.forgetAddresses();
        heap.forgetAll();
        if (selfCheck != null) {
            selfCheck.forgetAll();
        }
        update();
    }
}
