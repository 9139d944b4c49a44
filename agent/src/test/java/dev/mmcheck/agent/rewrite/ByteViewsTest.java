package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.fixtures.jdk.ByteViews;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Targets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static dev.mmcheck.runtime.Kinds.INTERLOCKED;
import static dev.mmcheck.runtime.Kinds.LOAD;
import static dev.mmcheck.runtime.Kinds.RELEASE_STORE;
import static dev.mmcheck.runtime.Kinds.STORE;
import static dev.mmcheck.runtime.Kinds.VOLATILE_STORE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * View VarHandles (MethodHandles.byteArrayViewVarHandle, byteBufferViewVarHandle): an access of N bytes at byte index
 * i is an access of the byte elements i..i+N-1 in its mode, on the addresses plain byte accesses and overlapping
 * views use. Before, they were "VarHandles whose target could not be determined", not logged, and the run INCOMPLETE.
 */
class ByteViewsTest {

    private static Rewritten rewritten;

    @BeforeAll
    static void rewrite() throws Exception {
        EventLog.configure(1 << 14, true); // every load logged
        rewritten = new Rewritten(ByteViews.class);
    }

    /** (kind, slot) of the events on {@code owner}, as "kind@slot". */
    private static List<String> on(Object owner, List<Rewritten.Ev> events) {
        return events.stream().filter(e -> e.object() == owner).map(e -> e.kind() + "@" + e.slot()).toList();
    }

    private static List<String> each(int kind, int from, int n) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = from; i < from + n; i++) {
            out.add(kind + "@" + i);
        }
        return out;
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> out = new java.util.ArrayList<>();
        for (List<String> p : parts) {
            out.addAll(p);
        }
        return out;
    }

    @Test
    void anAccessOfNBytesIsAnAccessOfEachByteInItsMode() throws Exception {
        Object o = rewritten.instance(ByteViews.class);
        Object bytes = o.getClass().getField("bytes").get(o);
        long unlogged = Targets.unloggedHandles();
        List<Rewritten.Ev> e = rewritten.run(o, "arrayModes");
        assertEquals(concat(each(STORE, 4, 4), each(LOAD, 4, 4), each(RELEASE_STORE, 8, 4), each(INTERLOCKED, 8, 4),
                each(INTERLOCKED, 8, 4), each(LOAD, 0, 8), each(STORE, 2, 2)), on(bytes, e),
                "set, getVolatile, setRelease, getAndAdd, compareAndSet (int); getAcquire (long); setOpaque (short)");
        assertEquals(unlogged, Targets.unloggedHandles(), "nothing left unlogged");
    }

    @Test
    void aBuffersBytesAreItsArraysOrItsDirectRootsElements() throws Exception {
        Object o = rewritten.instance(ByteViews.class);
        Object bytes = o.getClass().getField("bytes").get(o);
        ByteBuffer direct = (ByteBuffer) o.getClass().getField("direct").get(o);
        long unlogged = Targets.unloggedHandles();
        List<Rewritten.Ev> e = rewritten.run(o, "buffers");
        assertEquals(concat(each(VOLATILE_STORE, 24, 4), each(LOAD, 24, 4)), on(bytes, e),
                "the slice starts at 16 of the array; the read-only view reads the same bytes");
        assertEquals(concat(each(STORE, 8, 8), each(LOAD, 8, 8)), on(direct, e),
                "the direct slice's bytes are its root's, from 8; the root's own view reads them");
        assertEquals(unlogged, Targets.unloggedHandles());
    }

    @Test
    void anAccessThatThrowsLogsNothingAndHoldsNothing() throws Exception {
        Object o = rewritten.instance(ByteViews.class);
        Object bytes = o.getClass().getField("bytes").get(o);
        for (int i = 0; i < 3; i++) {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
                List<Rewritten.Ev> e = rewritten.run(o, "throwing");
                assertEquals(each(LOAD, 60, 4), on(bytes, e), "out of bounds, misaligned: nothing; the last, in bounds, "
                        + "after both threw: a stripe left held would hang it");
            });
        }
    }

    /**
     * Store buffering across a view and plain bytes: T1 stores an int through the view and reads byte 4; T2 stores
     * byte 4 and reads the int. A race under TSO, seen only if the view's bytes and the plain bytes are one address each.
     */
    @Test
    void aViewConflictsWithTheBytesItOverlaps() throws Exception {
        Object o = rewritten.instance(ByteViews.class);
        List<Rewritten.Ev> t1 = rewritten.run(o, "viewStoreByteLoad");
        List<Rewritten.Ev> t2 = rewritten.run(o, "byteStoreViewLoad");
        assertFalse(new Replay(rewritten).feed(0, t1).feed(1, t2).violations().isEmpty(), "the store-buffering race");
        assertTrue(new Replay(rewritten).feed(0, t1.stream().filter(x -> !(x.object() instanceof byte[]) || x.slot() == 4)
                .toList()).feed(1, t2.stream().filter(x -> !(x.object() instanceof byte[]) || x.slot() == 4).toList())
                .violations().isEmpty(), "without the view's bytes (as before, unlogged): nothing");
    }
}
