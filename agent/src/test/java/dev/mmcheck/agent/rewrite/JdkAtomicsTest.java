package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.fixtures.jdk.Counters;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Probes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.mmcheck.runtime.Kinds.INTERLOCKED;
import static dev.mmcheck.runtime.Kinds.LOAD;
import static dev.mmcheck.runtime.Kinds.STORE;
import static dev.mmcheck.runtime.Kinds.VOLATILE_STORE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every class of java.util.concurrent.atomic beyond Atomic{Integer,Long,Boolean,Reference}, each method family
 * modelled by what the JDK's code does: a striped counter's add is a CAS (an interlocked access of the address that
 * stands for the counter), its sum volatile loads; an accumulator the same, its function run muted; a stamped or
 * markable reference's pair one volatile field. Before, none of them was an event at all: a lock-free queue that
 * orders its slots with LongAdder.increment()/sum() got only false reports.
 */
class JdkAtomicsTest {

    private static Rewritten rewritten;

    @BeforeAll
    static void rewrite() throws Exception {
        EventLog.configure(1 << 14, true);
        rewritten = new Rewritten(Counters.class);
    }

    /** The kinds of the events on {@code atomic}'s value, which every one of them must be. */
    private static List<Integer> on(Object atomic, List<Rewritten.Ev> events) {
        List<Rewritten.Ev> mine = events.stream().filter(e -> e.object() == atomic).toList();
        for (Rewritten.Ev e : mine) {
            assertEquals(Probes.VALUE, e.slot(), "one address stands for the whole object");
        }
        return Rewritten.kinds(mine);
    }

    @Test
    void aStripedCounterAddsWithACasAndSumsWithVolatileLoads() throws Exception {
        Object o = rewritten.instance(Counters.class);
        Object adder = o.getClass().getField("adder").get(o);
        assertEquals(List.of(INTERLOCKED, INTERLOCKED, INTERLOCKED, LOAD, LOAD, LOAD, LOAD, LOAD, LOAD, INTERLOCKED,
                VOLATILE_STORE), on(adder, rewritten.run(o, "adder")),
                "add, increment, decrement; sum, intValue, longValue, doubleValue, shortValue, toString; sumThenReset; reset");
        Object doubles = o.getClass().getField("doubles").get(o);
        assertEquals(List.of(INTERLOCKED, LOAD, LOAD, INTERLOCKED, VOLATILE_STORE), on(doubles, rewritten.run(o, "doubleAdder")));
    }

    @Test
    void anAccumulatorIsACounterWhoseFunctionRunsMuted() throws Exception {
        Object o = rewritten.instance(Counters.class);
        Object max = o.getClass().getField("max").get(o);
        Object dmax = o.getClass().getField("dmax").get(o);
        List<Rewritten.Ev> e = rewritten.run(o, "accumulator");
        assertEquals(List.of(INTERLOCKED, LOAD, LOAD, INTERLOCKED, VOLATILE_STORE), on(max, e),
                "accumulate; get, intValue; getThenReset; reset");
        assertEquals(List.of(INTERLOCKED, LOAD), on(dmax, e));
    }

    @Test
    void aStampedOrMarkedReferenceIsOneVolatilePairAndGetStoresIntoTheHolder() throws Exception {
        Object o = rewritten.instance(Counters.class);
        Object stamped = o.getClass().getField("stamped").get(o);
        List<Rewritten.Ev> e = rewritten.run(o, "stamped");
        assertEquals(List.of(LOAD, LOAD, LOAD, VOLATILE_STORE, INTERLOCKED, INTERLOCKED, INTERLOCKED), on(stamped, e),
                "get(holder), getStamp, getReference; set; compareAndSet, attemptStamp, weakCompareAndSet");
        int get = indexOf(e, stamped);
        Rewritten.Ev holder = e.get(get + 1);
        assertEquals(STORE, holder.kind(), "the JDK's store of the stamp into the holder, as the caller's");
        assertTrue(holder.object() instanceof int[]);
        assertEquals(0, holder.slot());
        Object marked = o.getClass().getField("marked").get(o);
        e = rewritten.run(o, "marked");
        assertEquals(List.of(LOAD, LOAD, VOLATILE_STORE, INTERLOCKED, INTERLOCKED, LOAD), on(marked, e));
        Rewritten.Ev mark = e.get(indexOf(e, marked) + 1);
        assertTrue(mark.object() instanceof boolean[] && mark.kind() == STORE);
        assertEquals(1, rewritten.run(o, "marked").stream().filter(x -> x.object() instanceof boolean[]
                && x.kind() == STORE && x.value() == 1).count(), "the mark's value, for the self-check");
    }

    private static int indexOf(List<Rewritten.Ev> e, Object o) {
        for (int i = 0; i < e.size(); i++) {
            if (e.get(i).object() == o) {
                return i;
            }
        }
        throw new AssertionError("no event on " + o);
    }

    /**
     * The ten lines: two threads each doing {@code c.x = 1; adder.increment(); r += c.y} (and the mirror) were
     * "2 findings: 2 race ... under TSO, PSO", because the increment was no event. It is a full fence: no report, while
     * the same stream with the increment's events left out is reported.
     */
    @Test
    void anIncrementIsAFullFenceBetweenAStoreAndALoad() throws Exception {
        Object o = rewritten.instance(Counters.class);
        List<Rewritten.Ev> left = rewritten.run(o, "left");
        List<Rewritten.Ev> right = rewritten.run(o, "right");
        assertEquals(List.of(STORE, LOAD, INTERLOCKED, LOAD), Rewritten.kinds(left), "x, the field adder, increment, y");
        assertTrue(new Replay(rewritten).feed(0, left).feed(1, right).violations().isEmpty(),
                "the increments fence both threads");
        List<Rewritten.Ev> leftUnmodelled = left.stream().filter(e -> e.kind() != INTERLOCKED).toList();
        List<Rewritten.Ev> rightUnmodelled = right.stream().filter(e -> e.kind() != INTERLOCKED).toList();
        assertFalse(new Replay(rewritten).feed(0, leftUnmodelled).feed(1, rightUnmodelled).violations().isEmpty(),
                "without them, the store-buffering race is reported (the false report of before)");
    }
}
