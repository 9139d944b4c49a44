package dev.mmcheck.samples;

import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The hand-off the queue workloads share (W04, W06, W07): one producer offers boxed items, spinning
 * while the queue refuses one, and one consumer polls until it has them all; prints the sum and the
 * elapsed time as {@code NAME: sum=S elapsed-ms=N}.
 */
final class Handoff {

    /** An item handed over: written by the producer, read by the consumer after the poll. */
    static final class Item {
        int value;
    }

    private Handoff() {
    }

    /** Hands {@code items} items from a producer to a consumer through {@code offer} and {@code poll}. */
    static void run(String name, int items, Predicate<Item> offer, Supplier<Item> poll) {
        long[] sum = new long[1];
        long start = System.nanoTime();
        Thread producer = new Thread(() -> {
            for (int i = 0; i < items; i++) {
                Item it = new Item();
                it.value = i;
                while (!offer.test(it)) {
                    Thread.onSpinWait();
                }
            }
        }, "producer");
        Thread consumer = new Thread(() -> {
            long s = 0;
            for (int taken = 0; taken < items; ) {
                Item it = poll.get();
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
        System.out.println(name + ": sum=" + sum[0] + " elapsed-ms=" + ms);
    }
}
