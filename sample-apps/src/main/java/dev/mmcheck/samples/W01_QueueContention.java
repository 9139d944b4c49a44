package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicLong;

/**
 * W01 — Benchmark workload: a lock-free Michael-Scott queue (S12's) under contention, two producers
 * and two consumers moving 200,000 items (times {@code -Dworkload.scale=N}, default 1). Prints
 * {@code elapsed-ms=N} for bench/agent-overhead.sh.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W01_QueueContention} (with and without the agent).
 */
public final class W01_QueueContention implements Runnable {

    private static final int ITEMS = 200_000 * Integer.getInteger("workload.scale", 1);

    @Override
    public void run() {
        S12_MichaelScottQueue q = new S12_MichaelScottQueue();
        AtomicLong taken = new AtomicLong();
        AtomicLong sum = new AtomicLong();
        long start = System.nanoTime();
        Thread[] threads = new Thread[4];
        for (int p = 0; p < 2; p++) {
            int base = p * (ITEMS / 2);
            threads[p] = new Thread(() -> {
                for (int i = 0; i < ITEMS / 2; i++) {
                    q.offer(base + i);
                }
            }, "producer-" + p);
        }
        for (int c = 0; c < 2; c++) {
            threads[2 + c] = new Thread(() -> {
                while (taken.get() < ITEMS) {
                    Integer v = q.poll();
                    if (v != null) {
                        taken.incrementAndGet();
                        sum.addAndGet(v);
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }, "consumer-" + c);
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            Samples.join(t);
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("W01_QueueContention: items=" + taken.get() + " sum=" + sum.get() + " elapsed-ms=" + ms);
    }
}
