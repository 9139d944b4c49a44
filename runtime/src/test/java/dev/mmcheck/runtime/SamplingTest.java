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
}
