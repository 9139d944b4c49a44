package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A call that only reads a map is logged by its receiver's class (docs/agent.md). */
class MapReadProbeTest {

    @Test
    void aConcurrentHashMapReadIsOneAcquireLoadAfterTheCallAndOtherMapsKeepTheirTreatment() {
        ThreadLog t = new ThreadLog(921, Thread.currentThread(), 64);
        ConcurrentHashMap<String, String> chm = new ConcurrentHashMap<>();
        Probes.logMapReadBefore(chm, t, 4, 1);
        assertEquals(0, t.lvProducerIndex(), "no fence before: a read releases nothing");
        Probes.logMapReadAfter(chm, t, 4, 1);
        assertEquals(1, t.lvProducerIndex(), "one event after");
        assertEquals(Kinds.LOAD, t.lpInt(0, ThreadLog.KIND), "a load of the JDK's synchronization address");
        assertEquals(Probes.JUC, t.lpInt(0, ThreadLog.SLOT));
        Probes.logMapReadBefore(chm, t, 4, 1);
        Probes.logMapReadAfter(chm, t, 4, 1);
        assertEquals(1, t.lvProducerIndex(), "a repeated load with nothing between is left out, as any");
        ThreadLog other = new ThreadLog(923, Thread.currentThread(), 64);
        Probes.logJuc(other, 5);
        Probes.logMapReadAfter(chm, t, 4, 0);
        assertEquals(2, t.lvProducerIndex(), "after another thread's interlocked event there, the load is logged again");

        ThreadLog u = new ThreadLog(922, Thread.currentThread(), 64);
        ConcurrentSkipListMap<String, String> skip = new ConcurrentSkipListMap<>();
        Probes.logMapReadBefore(skip, u, 4, 1);
        Probes.logMapReadAfter(skip, u, 4, 1);
        assertEquals(2, u.lvProducerIndex(), "another concurrent map: interlocked before and after, as any JDK synchronization");
        assertEquals(Kinds.INTERLOCKED, u.lpInt(0, ThreadLog.KIND));
        assertEquals(Kinds.INTERLOCKED, u.lpInt(1, ThreadLog.KIND));
        Probes.logMapReadBefore(new HashMap<>(), u, 4, 0);
        Probes.logMapReadAfter(new HashMap<>(), u, 4, 0);
        assertEquals(2, u.lvProducerIndex(), "a HashMap through java.util.Map: nothing");
        Probes.logMapReadBefore(skip, u, 4, 0);
        Probes.logMapReadAfter(skip, u, 4, 0);
        assertEquals(4, u.lvProducerIndex(), "a concurrent map through java.util.Map: interlocked before and after");
    }
}
