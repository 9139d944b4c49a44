package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** ThreadLocalRandom.current() is logged as JDK synchronization at each thread's first call only (docs/agent.md). */
class ThreadLocalRandomProbeTest {

    @Test
    void eachThreadsFirstCallIsLoggedAsAnInterlockedEventAndNoLaterOne() {
        ThreadLog t = new ThreadLog(911, Thread.currentThread(), 64);
        Probes.logJucFirst(t, 3);
        assertEquals(1, t.lvProducerIndex(), "the first call: the seed's initialization, a full fence");
        assertEquals(Kinds.INTERLOCKED, t.lpInt(0, ThreadLog.KIND));
        for (int i = 0; i < 3; i++) {
            Probes.logJucFirst(t, 3);
        }
        assertEquals(1, t.lvProducerIndex(), "later calls touch only the thread's own seed");
        ThreadLog other = new ThreadLog(912, Thread.currentThread(), 64);
        other.muted = true;
        Probes.logJucFirst(other, 3);
        assertEquals(0, other.lvProducerIndex(), "a muted call logs nothing");
        other.muted = false;
        Probes.logJucFirst(other, 3);
        assertEquals(1, other.lvProducerIndex(), "so the next call is the one logged");
    }
}
