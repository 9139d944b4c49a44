package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.fixtures.jdk.Synchronizers;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.Probes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Synchronization per object (runtime.SyncObjects): each synchronizer's calls on an address of its own, so that two
 * unrelated synchronizers never order each other (on one shared address they did, and made a false report: jcstress's
 * AdvancedJMM_03_NonMCA_Coherence, a path from one actor's await on one CyclicBarrier to another actor's return from
 * a different one), and the edges the JDK makes across objects kept: a lock and its conditions, a read-write lock's
 * two locks, a stamped lock's views, a concurrent collection's views, iterators and entries, a phaser tree's root, a
 * barrier's action, a synchronized collection's mutex, a parked thread; executors and futures on the shared address.
 */
class JdkSynchronizationTest {

    private static Rewritten rewritten;

    @BeforeAll
    static void rewrite() throws Exception {
        EventLog.configure(1 << 14, false);
        rewritten = new Rewritten(Synchronizers.class);
    }

    /** The events of the JDK's synchronization (a java.util.concurrent call's, a wrapped function's, a monitor's). */
    private static List<Rewritten.Ev> sync(List<Rewritten.Ev> events) {
        List<Rewritten.Ev> out = new ArrayList<>();
        for (Rewritten.Ev e : events) {
            boolean jdk = e.kind() == Kinds.INTERLOCKED && (e.slot() == Probes.JUC || e.slot() == Probes.MONITOR);
            if (jdk || e.kind() == Kinds.MONITOR_ENTER || e.kind() == Kinds.MONITOR_EXIT) {
                out.add(e);
            }
        }
        return out;
    }

    /** The distinct objects of {@code events}, in order of first appearance. */
    private static List<Object> objects(List<Rewritten.Ev> events) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Object> out = new ArrayList<>();
        for (Rewritten.Ev e : events) {
            if (seen.add(e.object())) {
                out.add(e.object());
            }
        }
        return out;
    }

    private static Object field(Object o, String name) throws ReflectiveOperationException {
        return o.getClass().getField(name).get(o);
    }

    private static List<Object> syncObjects(Object o, String method) throws Exception {
        List<Rewritten.Ev> s = sync(rewritten.run(o, method));
        assertFalse(s.isEmpty(), method + " logs its synchronization");
        return objects(s);
    }

    /**
     * Three threads, sequenced by time only: T1 stores x and loads y; T3 stores y and counts latch 1 down; T2 counts
     * latch 2 down and loads x. Nothing orders T3 before T2, so no execution makes the cycle T1.load y -> T3.store y
     * -> T2.load x -> T1.store x: with each latch on its own address there is no report. On one shared address (the
     * model before) the two latches ordered T3 before T2 and the cycle was reported: a false report.
     */
    @Test
    void twoUnrelatedSynchronizersDoNotOrderEachOther() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        List<Rewritten.Ev> t1 = rewritten.run(o, "storeThenLoad");
        List<Rewritten.Ev> t3 = rewritten.run(o, "storeThenFirstLatch");
        List<Rewritten.Ev> t2 = rewritten.run(o, "secondLatchThenLoad");
        assertEquals(List.of(field(o, "latch1")), objects(sync(t3)), "latch 1's address");
        assertEquals(List.of(field(o, "latch2")), objects(sync(t2)), "latch 2's address");
        assertTrue(new Replay(rewritten).feed(1, t1).feed(3, t3).feed(2, t2).violations().isEmpty(),
                "no path from T3 to T2, no report");
        Object shared = Probes.JUC_OBJECT;
        assertFalse(new Replay(rewritten).feed(1, t1).feed(3, onOneAddress(t3, shared)).feed(2, onOneAddress(t2, shared))
                .violations().isEmpty(), "on one address for all, the false report of before");
    }

    /** {@code events} with every synchronization event moved to {@code shared}'s address (the model before). */
    private static List<Rewritten.Ev> onOneAddress(List<Rewritten.Ev> events, Object shared) {
        List<Rewritten.Ev> out = new ArrayList<>();
        for (Rewritten.Ev e : events) {
            boolean s = e.kind() == Kinds.INTERLOCKED && e.slot() == Probes.JUC;
            out.add(s ? new Rewritten.Ev(e.kind(), e.slot(), shared, e.value(), e.site()) : e);
        }
        return out;
    }

    @Test
    void aLockAndItsConditionsAreOneAddress() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        List<Object> seen = syncObjects(o, "lockAndCondition");
        assertEquals(1, seen.size(), "lock, signalAll, await, unlock: " + seen);
        assertNotSame(field(o, "condition"), seen.get(0), "the condition's calls are on the lock's address");
    }

    @Test
    void aReadWriteLocksTwoLocksItsConditionAndItselfAreOneAddress() throws Exception {
        assertEquals(1, syncObjects(rewritten.instance(Synchronizers.class), "readWrite").size());
    }

    @Test
    void aStampedLocksViewsAreItsAddress() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        assertEquals(List.of(field(o, "stamped")), syncObjects(o, "stampedViews"));
    }

    @Test
    void aConcurrentMapsViewsIteratorsEntriesAndFunctionsAreItsAddress() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        List<Rewritten.Ev> s = sync(rewritten.run(o, "mapViews"));
        assertEquals(List.of(field(o, "map")), objects(s));
        assertTrue(s.size() >= 2 * 7 + 2, "put, values, iterator, next, entrySet, iterator, next, setValue, keySet, add, "
                + "computeIfAbsent, and the mapping function's begin and end: " + s.size());
    }

    @Test
    void sortedAndCopyOnWriteCollectionsReachTheirBackingObject() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        List<Object> seen = syncObjects(o, "sortedAndCopyOnWrite");
        assertEquals(4, seen.size(), "the sorted map (sub-maps, views, iterators), the set's map (its descending set's "
                + "too), the copy-on-write set's list, the list (its sub-list): " + seen);
        assertSame(field(o, "sorted"), seen.get(0));
        assertTrue(seen.contains(field(o, "cowList")));
        assertFalse(seen.contains(field(o, "sortedSet")) || seen.contains(field(o, "cowSet")), "their backing objects");
    }

    @Test
    void aQueueIsItsAddress() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        assertEquals(List.of(field(o, "queue")), syncObjects(o, "queue"));
    }

    @Test
    void aPhaserTreeIsItsRootsAddress() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        assertEquals(List.of(field(o, "root")), syncObjects(o, "phasers"));
    }

    @Test
    void aBarriersActionRunsOnTheBarriersAddress() throws Exception {
        List<Rewritten.Ev> s = sync(rewritten.run(rewritten.instance(Synchronizers.class), "barrier"));
        assertEquals(4, s.size(), "await before, the action's begin and end, await after");
        assertEquals(1, objects(s).size());
        assertTrue(objects(s).get(0) instanceof java.util.concurrent.CyclicBarrier);
    }

    @Test
    void tasksFuturesAndCompletionStagesShareOneAddress() throws Exception {
        List<Object> seen = syncObjects(rewritten.instance(Synchronizers.class), "tasks");
        assertEquals(List.of(Probes.JUC_OBJECT), seen, "the executor, its task, the future, the stages and their function");
    }

    @Test
    void aParkAndAnUnparkOfAThreadAreOnTheThread() throws Exception {
        List<Object> seen = syncObjects(rewritten.instance(Synchronizers.class), "parkUnpark");
        assertEquals(1, seen.size());
        assertEquals("parkUnpark", ((Thread) seen.get(0)).getName(), "the thread that ran them (Rewritten.run names it)");
    }

    @Test
    void aSynchronizedCollectionsCallsAreOnItsMutexsMonitor() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        List<Rewritten.Ev> s = sync(rewritten.run(o, "monitors"));
        assertEquals(List.of(field(o, "synced"), field(o, "vector")), objects(s));
        for (Rewritten.Ev e : s) {
            assertEquals(Probes.MONITOR, e.slot(), "the monitor the application's synchronized block takes too");
        }
    }

    /** Finding the address through the JDK's fields allocates nothing per event (the probes' rule). */
    @Test
    void findingTheAddressAllocatesNothing() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        java.lang.reflect.Method hot = o.getClass().getMethod("hot", int.class);
        long[] allocated = new long[1];
        long[] events = new long[1];
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                dev.mmcheck.runtime.ThreadLog log = EventLog.current();
                com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean)
                        java.lang.management.ManagementFactory.getThreadMXBean();
                for (int warm = 0; warm < 20; warm++) {
                    hot.invoke(o, 500);
                    log.soConsumerIndex(log.lvProducerIndex()); // play the checker: free the ring
                }
                long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
                long from = log.lvProducerIndex();
                hot.invoke(o, 500);
                events[0] = log.lvProducerIndex() - from;
                allocated[0] = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                log.soConsumerIndex(log.lvProducerIndex());
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        assertTrue(events[0] >= 5_000, events[0] + " events");
        assertTrue(allocated[0] < 2_048, allocated[0] + " bytes allocated for " + events[0] + " events");
    }

    @Test
    void aCallThatThrowsStillLogsItsEventAfter() throws Exception {
        Object o = rewritten.instance(Synchronizers.class);
        List<Rewritten.Ev> s = sync(rewritten.run(o, "throwsOut"));
        assertEquals(2, s.size(), "before and after acquire(-1), which throws");
        assertEquals(List.of(field(o, "semaphore")), objects(s));
    }
}
