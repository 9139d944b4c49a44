package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicReference;

/**
 * W03 — Benchmark workload: a Treiber stack under contention. Two threads each push and pop 100,000
 * items (times {@code -Dworkload.scale=N}) on one stack, CAS loops on its head. Prints
 * {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W03_TreiberContention} (with and without the agent).
 */
public final class W03_TreiberContention implements Runnable {

    private static final int OPS = 100_000 * Integer.getInteger("workload.scale", 1);

    /** A node of the stack. */
    static final class Node {
        final int value;
        Node next;

        Node(int value) {
            this.value = value;
        }
    }

    private final AtomicReference<Node> head = new AtomicReference<>();

    private void push(int v) {
        Node n = new Node(v);
        Node h;
        do {
            h = head.get();
            n.next = h;
        } while (!head.compareAndSet(h, n));
    }

    private int pop() {
        Node h;
        do {
            h = head.get();
            if (h == null) {
                return -1;
            }
        } while (!head.compareAndSet(h, h.next));
        return h.value;
    }

    @Override
    public void run() {
        long[] sums = new long[2];
        long start = System.nanoTime();
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int me = t;
            threads[t] = new Thread(() -> {
                long s = 0;
                for (int i = 0; i < OPS; i++) {
                    push(i);
                    s += pop();
                }
                sums[me] = s;
            }, "T" + (t + 1));
            threads[t].start();
        }
        for (Thread t : threads) {
            Samples.join(t);
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("W03_TreiberContention: sum=" + (sums[0] + sums[1]) + " elapsed-ms=" + ms);
    }
}
