package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicReference;

/**
 * S12 — The Michael-Scott lock-free queue with AtomicReference head, tail and next pointers: every
 * link is published by CAS, so enqueuers and dequeuers stay sequentially consistent: clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S12_MichaelScottQueue}.
 */
@Expected(tso = false, pso = false, why = "every link and pointer swing is a CAS, a full fence")
public final class S12_MichaelScottQueue implements Runnable {

    /** A queue node. */
    static final class Node {
        final int value;
        final AtomicReference<Node> next = new AtomicReference<>();

        Node(int value) {
            this.value = value;
        }
    }

    private final AtomicReference<Node> head;
    private final AtomicReference<Node> tail;

    public S12_MichaelScottQueue() {
        Node dummy = new Node(0);
        head = new AtomicReference<>(dummy);
        tail = new AtomicReference<>(dummy);
    }

    void offer(int v) {
        Node n = new Node(v);
        while (true) {
            Node t = tail.get();
            Node next = t.next.get();
            if (t == tail.get()) {
                if (next == null) {
                    if (t.next.compareAndSet(null, n)) {
                        tail.compareAndSet(t, n);
                        return;
                    }
                } else {
                    tail.compareAndSet(t, next);
                }
            }
        }
    }

    Integer poll() {
        while (true) {
            Node h = head.get();
            Node t = tail.get();
            Node next = h.next.get();
            if (h == head.get()) {
                if (h == t) {
                    if (next == null) {
                        return null;
                    }
                    tail.compareAndSet(t, next);
                } else if (head.compareAndSet(h, next)) {
                    return next.value;
                }
            }
        }
    }

    @Override
    public void run() {
        long[] sum = new long[1];
        Rounds.run(2000, null, r -> {
            offer(r);
            offer(r + 1);
        }, r -> {
            Integer v = poll();
            if (v != null) {
                sum[0] += v;
            }
        });
        System.out.println("S12_MichaelScottQueue: done");
    }
}
