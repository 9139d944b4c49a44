package dev.mmcheck.runtime;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** sample=R: which objects are sampled, and that the plain-access probes log nothing on the others. */
class SamplingTest {

    @AfterEach
    void everything() {
        Sampling.configure(1, 0);
    }

    private static Object unsampled() {
        for (;;) {
            Object o = new int[4];
            if (!Sampling.sampled(o)) {
                return o;
            }
        }
    }

    private static Object sampled() {
        for (;;) {
            Object o = new int[4];
            if (Sampling.sampled(o)) {
                return o;
            }
        }
    }

    @Test
    void aFractionOfTheObjectsIsSampledEachAlwaysTheSameWay() {
        Sampling.configure(0.1, 7);
        List<Object> objects = new ArrayList<>();
        int in = 0;
        for (int i = 0; i < 100_000; i++) {
            Object o = new Object();
            objects.add(o);
            in += Sampling.sampled(o) ? 1 : 0;
        }
        assertTrue(in > 9_000 && in < 11_000, "about a tenth sampled: " + in);
        int again = 0;
        for (Object o : objects) {
            again += Sampling.sampled(o) ? 1 : 0;
        }
        assertEquals(in, again, "the decision is a function of the object");
        Sampling.configure(0.1, 8);
        int other = 0;
        int both = 0;
        for (Object o : objects) {
            if (Sampling.sampled(o)) {
                other++;
            }
        }
        Sampling.configure(0.1, 7);
        for (Object o : objects) {
            boolean a = Sampling.sampled(o);
            Sampling.configure(0.1, 8);
            both += a && Sampling.sampled(o) ? 1 : 0;
            Sampling.configure(0.1, 7);
        }
        assertTrue(other > 9_000 && other < 11_000, "another seed samples as many: " + other);
        assertTrue(both < 2_000, "another seed samples other objects: " + both + " in common");
    }

    @Test
    void addressesNoPlainInstructionReachesAreAlwaysFullyLogged() {
        Sampling.configure(0.01, 3);
        Object out = unsampled();
        assertFalse(Sampling.fullyLogged(out, 0), "an element of an unsampled array");
        assertTrue(Sampling.fullyLogged(out, Probes.MONITOR), "its monitor");
        assertTrue(Sampling.fullyLogged(StaticOwners.of(5), 5), "a static field");
        AtomicIntegerArray atomics = new AtomicIntegerArray(4);
        assertTrue(Sampling.fullyLogged(atomics, 2), "an element of an Atomic*Array");
        assertTrue(Sampling.fullyLogged(sampled(), 0), "a sampled object");
        Sampling.configure(1, 3);
        assertTrue(Sampling.fullyLogged(out, 0), "everything, when everything is sampled");
        assertThrows(IllegalArgumentException.class, () -> Sampling.configure(0, 1));
    }

    @Test
    void plainAccessesOfUnsampledObjectsTakeNoStripeAndLogNothing() {
        Sampling.configure(0.05, 11);
        ThreadLog t = new ThreadLog(900, Thread.currentThread(), 64);
        int[] out = (int[]) unsampled();
        out[1] = 42;
        long before = t.lvProducerIndex();
        Probes.lockPlainField(out, t, 3);
        assertEquals(-1, t.held, "no stripe for a plain field of an unsampled object");
        Probes.logStoreI(1, t, 0, Kinds.STORE);
        Probes.unlock(t);
        Probes.lockElement(out, 1, t);
        assertEquals(-1, t.held, "nor for an element");
        assertEquals(42, Probes.loadElementI(out, 1, t, 0));
        assertEquals(before, t.lvProducerIndex(), "nothing logged");

        int[] in = (int[]) sampled();
        Probes.lockElement(in, 1, t);
        assertTrue(t.held >= 0, "a sampled array's element takes its stripe");
        Probes.logStoreI(5, t, 0, Kinds.STORE);
        in[1] = 5; // the application's own store, between the probes
        Probes.unlock(t);
        assertEquals(5, Probes.loadElementI(in, 1, t, 0)); // repeats this thread's last access: left out
        Probes.lockField(out, t, 3);
        assertTrue(t.held >= 0, "a volatile field is synchronization: logged on every object");
        Probes.logLoadI(0, t, 0);
        assertEquals(before + 2, t.lvProducerIndex(), "the sampled array's store and the volatile load are logged");
    }

    /**
     * sync=fences: an unsampled object's synchronization is logged as the fence it makes and nothing
     * else. With no store logged since the thread's last flush nothing is logged at all and no stripe is
     * taken; after a logged store a volatile load is still not logged, but a volatile store is, as one full
     * fence without address, and the next one (nothing to flush) is left out. A sampled object's
     * synchronization and a static field's stay whole.
     */
    @Test
    void synchronizationOfUnsampledObjectsIsLoggedOnlyAsTheFencesItMakes() {
        Sampling.configure(0.05, 11, true);
        assertTrue(Sampling.syncAsFences());
        ThreadLog t = new ThreadLog(901, Thread.currentThread(), 64);
        Object out = unsampled();
        long before = t.lvProducerIndex();
        Probes.lockField(out, t, 3);
        assertEquals(-1, t.held, "nothing buffered: no stripe, no event");
        Probes.logStoreI(1, t, 0, Kinds.VOLATILE_STORE);
        Probes.unlock(t);
        assertEquals(before, t.lvProducerIndex(), "nothing logged before a store");

        int[] in = (int[]) sampled();
        Probes.lockElement(in, 2, t);
        Probes.logStoreI(5, t, 0, Kinds.STORE);
        Probes.unlock(t);
        assertEquals(before + 1, t.lvProducerIndex(), "the sampled array's plain store");
        Probes.lockField(out, t, 3);
        Probes.logLoadI(0, t, 0);
        assertEquals(-1, t.held);
        assertEquals(before + 1, t.lvProducerIndex(), "a volatile load of an unsampled object is not logged");
        Probes.lockField(out, t, 3);
        Probes.logStoreI(1, t, 7, Kinds.VOLATILE_STORE);
        Probes.unlock(t);
        assertEquals(before + 2, t.lvProducerIndex(), "the volatile store is logged");
        assertEquals(Kinds.FULL_FENCE, t.lpInt(before + 1, ThreadLog.KIND), "as a full fence");
        assertEquals(-1, t.lpInt(before + 1, ThreadLog.STRIPE), "with no address");
        assertEquals(null, t.lpObject(before + 1));
        Probes.lockField(out, t, 3);
        Probes.logStoreI(2, t, 7, Kinds.VOLATILE_STORE);
        Probes.unlock(t);
        assertEquals(before + 2, t.lvProducerIndex(), "nothing to flush since: left out");
        assertEquals(4, t.syncAsFences(), "four synchronization accesses of the unsampled object");

        Probes.lockElement(in, 2, t);
        Probes.logStoreI(6, t, 0, Kinds.STORE);
        Probes.unlock(t);
        Object drawn = sampled();
        Probes.lockField(drawn, t, 3);
        Probes.logStoreI(1, t, 0, Kinds.VOLATILE_STORE);
        Probes.unlock(t);
        assertEquals(Kinds.VOLATILE_STORE, t.lpInt(before + 3, ThreadLog.KIND), "a sampled object's volatile store stays whole");
        assertTrue(t.lpInt(before + 3, ThreadLog.STRIPE) >= 0);
        Probes.lockStatic(t, 5);
        Probes.logLoadI(0, t, 0);
        assertEquals(before + 5, t.lvProducerIndex(), "a static field's access stays whole");
        assertEquals(Kinds.LOAD, t.lpInt(before + 4, ThreadLog.KIND));
    }

    @Test
    void syncAsFencesIsOffWithoutSampling() {
        Sampling.configure(1, 3, true);
        assertFalse(Sampling.syncAsFences(), "sync=fences means nothing when every object is sampled");
    }

    /**
     * Under sampling every logged event carries the global flush count (Flushes): an event that flushes
     * under sampling (a fence, a volatile store, a store to an object not drawn) takes the next ticket and
     * is marked, anything else records the count it saw, so the checker's merge can keep each flush
     * before whatever another thread did after it. Without sampling nothing is counted.
     */
    @Test
    void underSamplingEachFlushTakesATicketAndEveryOtherEventTheCountItSaw() {
        Sampling.configure(0.05, 12);
        ThreadLog t = new ThreadLog(902, Thread.currentThread(), 64);
        long before = t.lvProducerIndex();
        int[] in = (int[]) sampled();
        Probes.lockElement(in, 1, t);
        Probes.logStoreI(1, t, 0, Kinds.STORE);
        Probes.unlock(t);
        Probes.logFence(t, 0, Kinds.FULL_FENCE);
        Object out = unsampled();
        Probes.lockField(out, t, 3);
        Probes.logStoreI(1, t, 0, Kinds.VOLATILE_STORE);
        Probes.unlock(t);
        Probes.lockElement(in, 2, t);
        Probes.logLoadI(0, t, 0);
        assertEquals(before + 4, t.lvProducerIndex());
        assertEquals(0, t.lpInt(before, ThreadLog.FLAGS) & ThreadLog.TICKET, "a plain store of a drawn object: no ticket");
        long fence = t.lpEpoch(before + 1);
        assertTrue((t.lpInt(before + 1, ThreadLog.FLAGS) & ThreadLog.TICKET) != 0, "the fence takes a ticket");
        assertTrue(t.lpEpoch(before) <= fence, "the store saw no later flush");
        assertTrue((t.lpInt(before + 2, ThreadLog.FLAGS) & ThreadLog.TICKET) != 0, "so does the volatile store");
        assertTrue(t.lpEpoch(before + 2) > fence, "tickets count up");
        assertEquals(0, t.lpInt(before + 3, ThreadLog.FLAGS) & ThreadLog.TICKET, "a load takes none");
        assertTrue(t.lpEpoch(before + 3) > t.lpEpoch(before + 2), "but has seen both flushes");

        Sampling.configure(1, 0);
        ThreadLog full = new ThreadLog(903, Thread.currentThread(), 64);
        Probes.logFence(full, 0, Kinds.FULL_FENCE);
        assertEquals(0, full.lpInt(0, ThreadLog.FLAGS) & ThreadLog.TICKET, "no tickets in a full run");
        assertEquals(0, full.lpEpoch(0));
    }

    /**
     * A bracketed call (here an AtomicInteger's) writes its event only after the call has run, when another
     * thread may already have seen its store through accesses that are not logged: under sampling its flush
     * ticket is taken by the lock probe, before the call, and the event carries that one. A bracketed call
     * that logs nothing (it threw) still publishes its ticket, on a no-op event, so the merge is not held up.
     */
    @Test
    void aBracketedCallTakesItsTicketBeforeItRunsAndAlwaysPublishesIt() {
        Sampling.configure(0.05, 13);
        ThreadLog t = new ThreadLog(904, Thread.currentThread(), 64);
        java.util.concurrent.atomic.AtomicInteger atomic = new java.util.concurrent.atomic.AtomicInteger();
        long before = t.lvProducerIndex();
        Probes.lockAtomic(atomic, t);
        assertEquals(-1, t.pendingTicket, "a call that only loads takes no ticket");
        Probes.logCall(t, 0, Kinds.LOAD);
        before = t.lvProducerIndex();
        Probes.bracketWrites(t);
        Probes.lockAtomic(atomic, t);
        long ticket = t.pendingTicket;
        assertTrue(ticket >= 0, "the ticket is taken before the call");
        Probes.logFence(new ThreadLog(905, Thread.currentThread(), 64), 0, Kinds.FULL_FENCE); // another thread's flush meanwhile
        atomic.set(1);
        Probes.logCall(t, 0, Kinds.VOLATILE_STORE);
        assertEquals(before + 1, t.lvProducerIndex());
        assertTrue((t.lpInt(before, ThreadLog.FLAGS) & ThreadLog.TICKET) != 0);
        assertEquals(ticket, t.lpEpoch(before), "the event carries the ticket taken before the call, not a later one");
        assertEquals(-1, t.pendingTicket);

        Probes.bracketWrites(t);
        Probes.lockAtomic(atomic, t);
        long second = t.pendingTicket;
        Probes.unlock(t); // the call threw: no log probe
        assertEquals(before + 2, t.lvProducerIndex(), "a no-op event publishes the ticket");
        assertEquals(Kinds.LOAD_FENCE, t.lpInt(before + 1, ThreadLog.KIND));
        assertEquals(second, t.lpEpoch(before + 1));
        assertTrue((t.lpInt(before + 1, ThreadLog.FLAGS) & ThreadLog.TICKET) != 0);
        assertEquals(-1, t.lpInt(before + 1, ThreadLog.SITE), "with no site: the checker feeds it to no analysis");
    }
}
