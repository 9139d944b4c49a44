package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A call that only reads a map is logged by its receiver's class (docs/agent.md). */
class MapReadProbeTest {

    @Test
    void aConcurrentHashMapReadIsJdkSynchronizationOutsideASoloPeriodAndOtherMapsKeepTheirTreatment() {
        ThreadLog t = new ThreadLog(921, Thread.currentThread(), 64);
        ConcurrentHashMap<String, String> chm = new ConcurrentHashMap<>();
        Probes.logMapReadBefore(chm, t, 4, 0);
        Probes.logMapReadAfter(chm, t, 4, 0);
        assertEquals(2, t.lvProducerIndex(), "interlocked before and after, as any JDK synchronization");
        assertEquals(Kinds.INTERLOCKED, t.lpInt(0, ThreadLog.KIND));
        assertEquals(Kinds.INTERLOCKED, t.lpInt(1, ThreadLog.KIND));

        ThreadLog u = new ThreadLog(922, Thread.currentThread(), 64);
        ConcurrentSkipListMap<String, String> skip = new ConcurrentSkipListMap<>();
        Probes.logMapReadBefore(skip, u, 4, 1);
        Probes.logMapReadAfter(skip, u, 4, 1);
        assertEquals(2, u.lvProducerIndex(), "another concurrent map: interlocked before and after");
        Probes.logMapReadBefore(new HashMap<>(), u, 4, 0);
        Probes.logMapReadAfter(new HashMap<>(), u, 4, 0);
        assertEquals(2, u.lvProducerIndex(), "a HashMap through java.util.Map: nothing");
        Probes.logMapReadBefore(skip, u, 4, 0);
        Probes.logMapReadAfter(skip, u, 4, 0);
        assertEquals(4, u.lvProducerIndex(), "a concurrent map through java.util.Map: interlocked before and after");
    }
}
