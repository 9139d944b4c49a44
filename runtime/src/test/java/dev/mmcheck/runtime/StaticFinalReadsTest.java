package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A static final is logged at each thread's first read only (docs/agent.md). */
class StaticFinalReadsTest {

    @Test
    void eachThreadsFirstReadIsLoggedAndNoLaterOne() throws Exception {
        int field = 77;
        ThreadLog t = new ThreadLog(901, Thread.currentThread(), 64);
        long before = t.lvProducerIndex();
        Probes.lockStaticFinal(t, field);
        assertTrue(t.held >= 0, "the first read takes the field's stripe");
        Probes.logLoadI(5, t, 0);
        assertEquals(before + 1, t.lvProducerIndex(), "and is logged");
        for (int i = 0; i < 3; i++) {
            Probes.lockStaticFinal(t, field);
            assertEquals(-1, t.held, "a later read takes no stripe");
            Probes.logLoadI(5, t, 0);
        }
        assertEquals(before + 1, t.lvProducerIndex(), "and is not logged");
        ThreadLog other = new ThreadLog(902, Thread.currentThread(), 64);
        Probes.lockStaticFinal(other, field);
        assertTrue(other.held >= 0, "another thread's first read is logged too");
        Probes.logLoadI(5, other, 0);
        assertEquals(1, other.lvProducerIndex());
        ThreadLog far = new ThreadLog(903, Thread.currentThread(), 64);
        Probes.lockStaticFinal(far, 1 << 20);
        Probes.logLoadI(5, far, 0);
        Probes.lockStaticFinal(far, 1 << 20);
        Probes.logLoadI(5, far, 0);
        assertTrue(far.lvProducerIndex() >= 1, "ids past the bitmap are logged (the repeat is left out by the stripe)");
    }
}
