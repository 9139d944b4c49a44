package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which address stands for a synchronizer's calls (SyncObjects): the object itself, or the object the JDK really
 * synchronizes on, or the shared address of executors and futures; and, without access to the JDK's internals, the
 * shared address for all of java.util.concurrent, as before. The tests run with the packages the agent opens
 * opened (the module's surefire argLine); the fallback in a JVM without them.
 */
class SyncObjectsTest {

    private final ThreadLog t = EventLog.current();

    private Object of(Object receiver) {
        return SyncObjects.of(receiver, t);
    }

    @Test
    void theInternalsAreOpenHere() {
        assertTrue(SyncObjects.OPEN, "the surefire argLine opens what the agent opens");
    }

    @Test
    void eachSynchronizerHasItsOwnAddress() {
        CountDownLatch a = new CountDownLatch(1);
        CountDownLatch b = new CountDownLatch(1);
        assertSame(a, of(a));
        assertNotSame(of(a), of(b), "two latches never order each other");
        assertEquals(Probes.JUC, t.syncSlotOut);
    }

    @Test
    void aLocksConditionsAndAReadWriteLocksTwoLocksShareTheLocksQueue() {
        ReentrantLock lock = new ReentrantLock();
        assertSame(of(lock), of(lock.newCondition()));
        assertNotSame(lock, of(lock), "the queue (its sync), which the conditions name too");
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        assertSame(of(rw), of(rw.readLock()));
        assertSame(of(rw), of(rw.writeLock()));
        assertSame(of(rw), of(rw.writeLock().newCondition()));
        StampedLock s = new StampedLock();
        assertSame(s, of(s.asReadLock()));
        assertSame(s, of(s.asReadWriteLock()));
    }

    @Test
    void viewsIteratorsAndEntriesAreTheirCollections() {
        ConcurrentHashMap<String, String> map = new ConcurrentHashMap<>(java.util.Map.of("k", "v"));
        assertSame(map, of(map.values()));
        assertSame(map, of(map.entrySet().iterator()));
        assertSame(map, of(map.entrySet().iterator().next()));
        assertSame(map, of(map.keySet("d")));
        ConcurrentSkipListSet<Integer> set = new ConcurrentSkipListSet<>();
        assertSame(of(set), of(set.descendingSet()), "both reach the one map under them");
        assertSame(of(set), of(set.descendingSet().headSet(3).iterator()));
    }

    @Test
    void aPhaserTreeIsItsRoot() {
        Phaser root = new Phaser();
        Phaser child = new Phaser(new Phaser(root), 1);
        assertSame(root, of(child));
    }

    @Test
    void executorsFuturesAndStaticCallsShareOneAddress() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            assertSame(Probes.JUC_OBJECT, of(pool));
            assertSame(Probes.JUC_OBJECT, of(pool.submit(() -> 1)));
            assertSame(Probes.JUC_OBJECT, of(java.util.concurrent.CompletableFuture.completedFuture(1)));
            assertSame(Probes.JUC_OBJECT, of(null), "a static call names no object");
        } finally {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void synchronizedCollectionsAreTheirMutexsMonitor() {
        List<String> list = Collections.synchronizedList(new ArrayList<>());
        assertSame(list, of(list));
        assertEquals(Probes.MONITOR, t.syncSlotOut);
        java.util.Hashtable<String, String> table = new java.util.Hashtable<>();
        assertSame(table, of(table.keySet()), "a Hashtable's views synchronize on the table");
        assertEquals(Probes.MONITOR, t.syncSlotOut);
        Vector<String> v = new Vector<>();
        assertSame(v, of(v));
        assertEquals(Probes.MONITOR, t.syncSlotOut);
        assertSame(Probes.IO_OBJECT, of(System.out), "java.io: one address");
    }

    /** In a JVM without the opened packages: one address for all of java.util.concurrent. */
    @Test
    void withoutTheInternalsEveryJucCallKeepsTheSharedAddress() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                SyncObjectsTest.class.getName() + "$Closed").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("closed shared shared shared own\n", out.replace("\r", ""), out);
    }

    /** The child's main: prints what SyncObjects does without access to the JDK's internals. */
    static final class Closed {
        public static void main(String[] args) throws IOException {
            ThreadLog t = EventLog.current();
            ReentrantLock lock = new ReentrantLock();
            CountDownLatch latch = new CountDownLatch(1);
            System.out.print(SyncObjects.OPEN ? "open" : "closed");
            System.out.print(SyncObjects.of(lock, t) == Probes.JUC_OBJECT ? " shared" : " own");
            System.out.print(SyncObjects.of(lock.newCondition(), t) == Probes.JUC_OBJECT ? " shared" : " own");
            System.out.print(SyncObjects.of(new ConcurrentHashMap<>().values(), t) == Probes.JUC_OBJECT ? " shared" : " own");
            System.out.print(SyncObjects.of(new Vector<>(), t) == Probes.JUC_OBJECT ? " shared" : " own");
            System.out.println();
        }
    }
}
