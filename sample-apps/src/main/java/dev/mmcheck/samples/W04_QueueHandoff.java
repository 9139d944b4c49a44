package dev.mmcheck.samples;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * W04 — Benchmark workload: a ConcurrentLinkedQueue hand-off. One producer offers 200,000 boxed items
 * (times {@code -Dworkload.scale=N}), one consumer polls them all. The queue is the JDK's (not
 * instrumented: its calls are synchronization events); the items' fields are the application's.
 * Prints {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W04_QueueHandoff} (with and without the agent).
 */
public final class W04_QueueHandoff implements Runnable {

    private static final int ITEMS = 200_000 * Integer.getInteger("workload.scale", 1);

    /** An item handed over: written by the producer, read by the consumer after the poll. */
    static final class Item {
        int value;
    }

    @Override
    public void run() {
        ConcurrentLinkedQueue<Item> queue = new ConcurrentLinkedQueue<>();
        long[] sum = new long[1];
        long start = System.nanoTime();
        Thread producer = new Thread(() -> {
            for (int i = 0; i < ITEMS; i++) {
                Item it = new Item();
                it.value = i;
                queue.offer(it);
            }
        }, "producer");
        Thread consumer = new Thread(() -> {
            long s = 0;
            for (int taken = 0; taken < ITEMS; ) {
                Item it = queue.poll();
                if (it != null) {
                    s += it.value;
                    taken++;
                } else {
                    Thread.onSpinWait();
                }
            }
            sum[0] = s;
        }, "consumer");
        producer.start();
        consumer.start();
        Samples.join(producer);
        Samples.join(consumer);
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("W04_QueueHandoff: sum=" + sum[0] + " elapsed-ms=" + ms);
    }
}
