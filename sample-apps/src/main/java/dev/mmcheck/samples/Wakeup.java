package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The blocking wait strategy of samples S31 and S32, written as a ring buffer's is (the LMAX Disruptor's
 * {@code BlockingWaitStrategy} family): a consumer that finds the cursor behind the sequence it wants announces that
 * it needs a signal, counts the wait, looks at the cursor again and, if still behind, blocks on a mutex (here with a
 * timeout); the producer publishes each sequence on the cursor with an ordered store ({@code Sequence.set}) and
 * signals the mutex when a consumer asked. How the two sides set and take the flag is the sample's choice.
 */
final class Wakeup {

    /** How the consumer announces that it needs a signal. */
    interface Announce {
        /** Sets the flag. */
        void announce(AtomicBoolean signalNeeded);
    }

    /** How the producer takes the flag after publishing: whether a consumer asked. */
    interface Take {
        /** Reads (and clears) the flag. */
        boolean take(AtomicBoolean signalNeeded);
    }

    private final AtomicLong cursor = new AtomicLong();
    private final AtomicBoolean signalNeeded = new AtomicBoolean();
    private final Object mutex = new Object();
    private long waits;
    private long signals;
    private long timeouts;

    private void consume(long last, Announce announce) {
        for (long seq = 1; seq <= last; seq++) {
            while (cursor.get() < seq) {
                announce.announce(signalNeeded);
                waits++; // the consumer counts its waits
                if (cursor.get() >= seq) { // mmcheck:access
                    break;
                }
                synchronized (mutex) {
                    try {
                        long before = System.nanoTime();
                        mutex.wait(1); // a lost signal costs the timeout (in production: a stall)
                        if (System.nanoTime() - before >= 1_000_000L) {
                            timeouts++;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    private void produce(long last, Take take) {
        long sink = 0;
        for (long seq = 1; seq <= last; seq++) {
            for (int k = 0; k < 2_000; k++) { // the event's payload, made before it is published
                sink += k * seq;
            }
            cursor.lazySet(seq); // mmcheck:store (Sequence.set: an ordered store)
            if (take.take(signalNeeded)) {
                signals++;
                synchronized (mutex) {
                    mutex.notifyAll();
                }
            }
        }
        if (sink == 42) {
            System.out.print("");
        }
    }

    /** A producer and a consumer of {@code last} sequences; prints {@code name}'s summary line. */
    static void run(String name, long last, Announce announce, Take take) {
        Wakeup w = new Wakeup();
        Thread consumer = new Thread(() -> w.consume(last, announce), "consumer");
        Thread producer = new Thread(() -> w.produce(last, take), "producer");
        consumer.start();
        producer.start();
        Samples.join(producer);
        Samples.join(consumer);
        System.out.println(name + ": " + w.waits + " waits, " + w.signals + " signals, " + w.timeouts + " timeouts");
    }
}
