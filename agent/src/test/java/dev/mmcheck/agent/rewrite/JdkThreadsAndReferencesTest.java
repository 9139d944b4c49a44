package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.fixtures.jdk.ThreadsAndReferences;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.Violation;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Probes;
import dev.mmcheck.runtime.Unmodelled;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.mmcheck.runtime.Kinds.FULL_FENCE;
import static dev.mmcheck.runtime.Kinds.INTERLOCKED;
import static dev.mmcheck.runtime.Kinds.LOAD;
import static dev.mmcheck.runtime.Kinds.MONITOR_ENTER;
import static dev.mmcheck.runtime.Kinds.MONITOR_EXIT;
import static dev.mmcheck.runtime.Kinds.STORE;
import static dev.mmcheck.runtime.Kinds.THREAD_JOIN;
import static dev.mmcheck.runtime.Kinds.VOLATILE_STORE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDK's memory-relevant methods beyond java.util.concurrent: a reference's referent is a field of the reference
 * object (get and refersTo read it, clear and enqueue write it), an interrupt synchronizes with the points that see
 * it, a thread found ended (isAlive, getState, a timed join) is a join; calls that may synchronize in ways the model
 * does not follow are full fences, counted by method for the run's note.
 */
class JdkThreadsAndReferencesTest {

    private static Rewritten rewritten;

    @BeforeAll
    static void rewrite() throws Exception {
        EventLog.configure(1 << 14, true); // every load logged (the self-check's): a repeated one is not left out
        rewritten = new Rewritten(ThreadsAndReferences.class);
    }

    private static List<Integer> on(int slot, List<Rewritten.Ev> events) {
        return Rewritten.kinds(events.stream().filter(e -> e.slot() == slot).toList());
    }

    @Test
    void aReferentIsAFieldOfItsReference() throws Exception {
        Object o = rewritten.instance(ThreadsAndReferences.class);
        List<Rewritten.Ev> e = rewritten.run(o, "references");
        assertEquals(List.of(LOAD, LOAD, LOAD, STORE, STORE), on(Probes.REFERENT, e),
                "get, refersTo, an inherited get, clear, enqueue");
        Object weak = o.getClass().getField("weak").get(o);
        assertEquals(4, e.stream().filter(x -> x.slot() == Probes.REFERENT && x.object() == weak).count());
        int enqueue = e.size() - 1;
        while (e.get(enqueue).kind() != FULL_FENCE) {
            enqueue--;
        }
        assertEquals(STORE, e.get(enqueue - 1).kind(), "enqueue clears, then its queue (not modelled): a full fence");
    }

    @Test
    void anOverrideIsSeenThroughItsOwnCallOfTheJdksMethod() throws Exception {
        Object o = rewritten.instance(ThreadsAndReferences.class);
        assertEquals(List.of(LOAD), on(Probes.REFERENT, rewritten.run(o, "overridden")),
                "the override's super.get(), once: the call of the override itself is not bracketed");
        assertEquals(List.of(), on(Probes.REFERENT, rewritten.run(o, "phantomGet")), "a phantom's get reads nothing");
    }

    /**
     * The weak-value cache of the issue: the writer publishes the new reference with setRelease, then clears the old;
     * the reader reads the slot, finds the old reference's value gone, reads the slot again and sees the same old
     * reference: null for a present key. PSO lets the clear commit before the release store; TSO does not. Before,
     * Reference.get and clear were no events at all and nothing was reported.
     */
    @Test
    void theWeakValuePatternIsAPsoFinding() throws Exception {
        Object o = rewritten.instance(ThreadsAndReferences.class);
        List<Rewritten.Ev> slot = rewritten.run(o, "readSlot");
        List<Rewritten.Ev> writer = rewritten.run(o, "publishThenClear");
        List<Rewritten.Ev> rest = rewritten.run(o, "readValueThenSlotAgain");
        List<Violation> v = new Replay(rewritten).feed(1, slot).feed(0, writer).feed(1, rest).violations();
        assertTrue(v.stream().anyMatch(x -> x.analysis() == Analysis.PSO), "PSO: " + v);
        assertFalse(v.stream().anyMatch(x -> x.analysis() == Analysis.TSO), "TSO keeps the stores in order: " + v);
        List<Rewritten.Ev> unmodelled = rest.stream().filter(x -> x.slot() != Probes.REFERENT).toList();
        List<Rewritten.Ev> writerUnmodelled = writer.stream().filter(x -> x.slot() != Probes.REFERENT).toList();
        assertTrue(new Replay(rewritten).feed(1, slot).feed(0, writerUnmodelled).feed(1, unmodelled).violations()
                .isEmpty(), "without the referent's events, as before: nothing");
        Object fixed = rewritten.instance(ThreadsAndReferences.class);
        List<Rewritten.Ev> s2 = rewritten.run(fixed, "readSlot");
        List<Rewritten.Ev> w2 = rewritten.run(fixed, "publishVolatileThenClear");
        List<Rewritten.Ev> r2 = rewritten.run(fixed, "readValueThenSlotAgain");
        assertTrue(new Replay(rewritten).feed(1, s2).feed(0, w2).feed(1, r2).violations().isEmpty(),
                "published with a volatile store, the clear cannot pass it: clean");
    }

    @Test
    void anInterruptIsAStoreOfTheThreadsStatusThatChecksRead() throws Exception {
        List<Rewritten.Ev> e = rewritten.run(rewritten.instance(ThreadsAndReferences.class), "interrupts");
        assertEquals(List.of(VOLATILE_STORE, LOAD, INTERLOCKED, LOAD), on(Probes.INTERRUPTED, e),
                "interrupt; isInterrupted; interrupted() that found it set and cleared it; one that found it clear");
        assertEquals(List.of("", "volatile", "", "volatile"), e.stream().filter(x -> x.slot() == Probes.INTERRUPTED)
                .map(x -> rewritten.sites.get(x.site()).mode()).toList(),
                "the modes: a volatile store (its kind says it), volatile reads, a clear of the volatile flavour");
        Object thread = e.stream().filter(x -> x.slot() == Probes.INTERRUPTED).findFirst().orElseThrow().object();
        assertEquals("interrupts", ((Thread) thread).getName(), "the status of the thread interrupted");
    }

    @Test
    void aThreadFoundEndedIsJoined() throws Exception {
        List<Rewritten.Ev> e = rewritten.run(rewritten.instance(ThreadsAndReferences.class), "ended");
        assertEquals(3, e.stream().filter(x -> x.kind() == THREAD_JOIN).count(), "isAlive false, TERMINATED, timedJoin");
        List<Rewritten.Ev> w = rewritten.run(rewritten.instance(ThreadsAndReferences.class), "timedWait");
        assertEquals(List.of(MONITOR_ENTER, MONITOR_EXIT, MONITOR_ENTER, MONITOR_EXIT),
                Rewritten.kinds(w.stream().filter(x -> x.kind() == MONITOR_ENTER || x.kind() == MONITOR_EXIT).toList()),
                "synchronized, the timed wait's release and retake, the end of the block");
    }

    @Test
    void aReflectiveAccessOfAVolatileFieldIsACountedFence() throws Exception {
        Map<String, Long> before = Unmodelled.counts();
        List<Rewritten.Ev> e = rewritten.run(rewritten.instance(ThreadsAndReferences.class), "reflective");
        assertEquals(2, e.stream().filter(x -> x.kind() == FULL_FENCE).count(), "setInt and getInt of the volatile "
                + "field; the plain field's setInt nothing: " + Rewritten.kinds(e));
        Map<String, Long> after = Unmodelled.counts();
        assertEquals(before.getOrDefault("Field.setInt (volatile)", 0L) + 1, after.get("Field.setInt (volatile)"));
        assertEquals(before.getOrDefault("Field.getInt (volatile)", 0L) + 1, after.get("Field.getInt (volatile)"));
    }

    @Test
    void callsThatMaySynchronizeAndAreNotModelledAreCountedFences() throws Exception {
        Map<String, Long> before = Unmodelled.counts();
        List<Rewritten.Ev> e = rewritten.run(rewritten.instance(ThreadsAndReferences.class), "unmodelled");
        assertEquals(3, e.stream().filter(x -> x.kind() == FULL_FENCE).count(), "poll, the array's toString, "
                + "reachabilityFence: " + Rewritten.kinds(e));
        Map<String, Long> after = Unmodelled.counts();
        for (String m : List.of("ReferenceQueue.poll", "AtomicIntegerArray.toString", "Reference.reachabilityFence")) {
            assertEquals(before.getOrDefault(m, 0L) + 1, after.get(m), m);
        }
        assertFalse(after.containsKey("AtomicIntegerArray.length"), "a final field: nothing");
        assertEquals(2, e.stream().filter(x -> x.slot() == Probes.VALUE && x.kind() == LOAD).count(),
                "AtomicLong's and AtomicReference's toString are volatile reads");
    }
}
