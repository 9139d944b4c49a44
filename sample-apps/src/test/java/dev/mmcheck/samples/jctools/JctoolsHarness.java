package dev.mmcheck.samples.jctools;

import org.jctools.maps.NonBlockingHashMap;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscLinkedQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscLinkedQueue;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;
import org.jctools.queues.atomic.MpscLinkedAtomicQueue;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;
import org.jctools.queues.atomic.SpscLinkedAtomicQueue;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.function.Supplier;

/**
 * A real lock-free library under the agent: items move through jctools-core's queues (SPSC, MPSC and
 * MPMC array queues and their atomic variants, the SPSC and MPSC linked queues, the MPSC unbounded
 * array queue) and a NonBlockingHashMap, with real producer and consumer threads. Every item must
 * arrive exactly once. This harness is correct: each consumer counts into its own array, merged after
 * join, and items are published only through the library, so a report naming a line of this file is a
 * false one (JctoolsIT). The library's own relaxed-by-design patterns may be reported.
 *
 * <pre>java -javaagent:agent/target/mmcheck.jar -cp sample-apps/target/test-classes:jctools-core.jar \
 *     dev.mmcheck.samples.jctools.JctoolsHarness [items]</pre>
 */
public final class JctoolsHarness {

    /** An item with a plain field: its value must be visible to whoever takes it from the queue. */
    static final class Item {
        int value;
    }

    private JctoolsHarness() {
    }

    /** Runs every queue and the map with {@code items} items each (default 20000); exit 1 on a lost or doubled item. */
    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        boolean ok = true;
        ok &= queue("SpscArrayQueue", () -> new SpscArrayQueue<>(1024), 1, 1, items);
        ok &= queue("SpscAtomicArrayQueue", () -> new SpscAtomicArrayQueue<>(1024), 1, 1, items);
        ok &= queue("MpscArrayQueue", () -> new MpscArrayQueue<>(1024), 2, 1, items);
        ok &= queue("MpscAtomicArrayQueue", () -> new MpscAtomicArrayQueue<>(1024), 2, 1, items);
        ok &= queue("MpmcArrayQueue", () -> new MpmcArrayQueue<>(1024), 2, 2, items);
        ok &= queue("MpmcAtomicArrayQueue", () -> new MpmcAtomicArrayQueue<>(1024), 2, 2, items);
        ok &= queue("SpscLinkedQueue", SpscLinkedQueue::new, 1, 1, items);
        ok &= queue("SpscLinkedAtomicQueue", SpscLinkedAtomicQueue::new, 1, 1, items);
        ok &= queue("MpscLinkedQueue", MpscLinkedQueue::new, 2, 1, items);
        ok &= queue("MpscLinkedAtomicQueue", MpscLinkedAtomicQueue::new, 2, 1, items);
        ok &= queue("MpscUnboundedArrayQueue", () -> new MpscUnboundedArrayQueue<>(128), 2, 1, items);
        ok &= queue("MpscUnboundedAtomicArrayQueue", () -> new MpscUnboundedAtomicArrayQueue<>(128), 2, 1, items);
        ok &= map(items);
        System.out.println("harness: " + (ok ? "all items arrived exactly once" : "FAILED"));
        System.exit(ok ? 0 : 1);
    }

    /** {@code producers} threads offer {@code items} items in all, {@code consumers} threads poll them. */
    private static boolean queue(String name, Supplier<Queue<Item>> factory, int producers, int consumers, int items)
            throws InterruptedException {
        Queue<Item> q = factory.get();
        int[][] seen = new int[consumers][items];
        int perProducer = items / producers;
        int total = perProducer * producers;
        java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int from = p * perProducer;
            threads.add(new Thread(() -> {
                for (int i = from; i < from + perProducer; i++) {
                    Item item = new Item();
                    item.value = i;
                    while (!q.offer(item)) {
                        Thread.onSpinWait();
                    }
                }
            }, name + "-producer-" + p));
        }
        for (int c = 0; c < consumers; c++) {
            int[] mine = seen[c];
            threads.add(new Thread(() -> {
                while (taken.get() < total) {
                    Item item = q.poll();
                    if (item == null) {
                        Thread.onSpinWait();
                        continue;
                    }
                    mine[item.value]++;
                    taken.incrementAndGet();
                }
            }, name + "-consumer-" + c));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return exactlyOnce(name, seen, total);
    }

    /** Producers put keys with items; consumers wait for each key of theirs, read its item and remove it. */
    private static boolean map(int items) throws InterruptedException {
        NonBlockingHashMap<Integer, Item> map = new NonBlockingHashMap<>();
        int[][] seen = new int[2][items];
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            int parity = p;
            threads.add(new Thread(() -> {
                for (int i = parity; i < items; i += 2) {
                    Item item = new Item();
                    item.value = i;
                    map.put(i, item);
                }
            }, "NonBlockingHashMap-producer-" + p));
            int[] mine = seen[p];
            threads.add(new Thread(() -> {
                for (int i = parity; i < items; i += 2) {
                    Item item;
                    while ((item = map.remove(i)) == null) {
                        Thread.onSpinWait();
                    }
                    mine[item.value]++;
                }
            }, "NonBlockingHashMap-consumer-" + p));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return exactlyOnce("NonBlockingHashMap", seen, items) && map.isEmpty();
    }

    private static boolean exactlyOnce(String name, int[][] seen, int total) {
        int wrong = 0;
        for (int i = 0; i < total; i++) {
            int n = 0;
            for (int[] s : seen) {
                n += s[i];
            }
            if (n != 1) {
                wrong++;
            }
        }
        System.out.println("harness: " + name + " " + (wrong == 0 ? "ok" : wrong + " items lost or doubled")
                + " (" + total + " items)");
        return wrong == 0;
    }
}
