package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * S26 — A lazySet mistake in a single-producer single-consumer ring buffer. The indices are published
 * with {@code lazySet} (a release store), which is right for handing over the elements. But the
 * consumer also announces that it is about to sleep with {@code lazySet}, then re-reads the producer's
 * index; the producer publishes its index with {@code lazySet}, then reads the announcement to decide
 * whether to wake the consumer. Each side's release store can still be buffered when it reads the other
 * side's variable (store buffering, as in Dekker's protocol): the producer misses the announcement
 * while the consumer misses the element, and the wake-up is lost. The fix is a full fence (or a
 * volatile {@code set}) after each announcement.
 *
 * <p>The index hand-over itself also reorders: a release store of an index can still be buffered when
 * the other side reads it, so the producer can see a stale head (and think the ring full) and the
 * consumer a stale tail (and think it empty). Those are reported too, at the lines marked "by design":
 * the algorithm tolerates them, since each side retries.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S26_RingBufferLazySet}.
 */
@Expected(tso = true, pso = true, why = "a release store followed by a load of the other side's variable")
public final class S26_RingBufferLazySet implements Runnable {

    private static final int CAPACITY = 64;
    private static final int ITEMS = 5000;

    private final int[] buffer = new int[CAPACITY];
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong head = new AtomicLong();
    private final AtomicInteger sleeping = new AtomicInteger();
    private long wakeUps;
    private long sum;

    private boolean offer(int v) {
        long t = tail.get();
        if (t - head.get() == CAPACITY) { // mmcheck:access (a stale head: looks full, retried; by design)
            return false;
        }
        buffer[(int) (t % CAPACITY)] = v;
        tail.lazySet(t + 1); // mmcheck:store
        if (sleeping.get() == 1) { // mmcheck:access
            wakeUps++;
        }
        return true;
    }

    private void consume() {
        long h = head.get();
        for (int taken = 0; taken < ITEMS; ) {
            if (h == tail.get()) { // mmcheck:access (a stale tail: looks empty, retried; by design)
                sleeping.lazySet(1); // mmcheck:store
                if (h == tail.get()) { // mmcheck:access
                    Thread.yield(); // would park here; a lost wake-up parks forever
                }
                sleeping.lazySet(0); // mmcheck:store
                continue;
            }
            sum += buffer[(int) (h % CAPACITY)];
            head.lazySet(++h); // mmcheck:store
            taken++;
        }
    }

    @Override
    public void run() {
        Thread producer = new Thread(() -> {
            for (int i = 0; i < ITEMS; ) {
                if (offer(i)) {
                    i++;
                } else {
                    Thread.yield();
                }
            }
        }, "producer");
        Thread consumer = new Thread(this::consume, "consumer");
        producer.start();
        consumer.start();
        Samples.join(producer);
        Samples.join(consumer);
        System.out.println("S26_RingBufferLazySet: sum " + sum + ", " + wakeUps + " wake-ups");
    }
}
