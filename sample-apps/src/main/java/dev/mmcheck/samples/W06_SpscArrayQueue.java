package dev.mmcheck.samples;

import org.jctools.queues.SpscArrayQueue;

/**
 * W06 — Benchmark workload: an SPSC JCTools array queue (`SpscArrayQueue`, 1024 slots) with one producer and
 * one consumer. The producer offers 200,000 boxed items (times {@code -Dworkload.scale=N}), spinning
 * while the queue is full; the consumer polls them all. JCTools is the application's own (lib/ next to
 * the jar), so the agent instruments it as it would a user's: its Unsafe ordered stores and volatile
 * loads are the synchronization being checked. Prints {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W06_SpscArrayQueue} (with and without the agent).
 */
public final class W06_SpscArrayQueue implements Runnable {

    private static final int ITEMS = 200_000 * Integer.getInteger("workload.scale", 1);

    /** An item handed over: written by the producer, read by the consumer after the poll. */
    static final class Item {
        int value;
    }

    @Override
    public void run() {
        SpscArrayQueue<Item> queue = new SpscArrayQueue<>(1024);
        long[] sum = new long[1];
        long start = System.nanoTime();
        Thread producer = new Thread(() -> {
            for (int i = 0; i < ITEMS; i++) {
                Item it = new Item();
                it.value = i;
                while (!queue.offer(it)) {
                    Thread.onSpinWait();
                }
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
        System.out.println("W06_SpscArrayQueue: sum=" + sum[0] + " elapsed-ms=" + ms);
    }
}
