package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicReference;

/**
 * S11 — Treiber's lock-free stack: push and pop by CAS on an AtomicReference head. Nodes are built
 * before the CAS that publishes them, and a CAS is a full fence: clean on TSO and PSO.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S11_TreiberStack}.
 */
@Expected(tso = false, pso = false, why = "every publication is a CAS, a full fence")
public final class S11_TreiberStack implements Runnable {

    /** A stack node. */
    static final class Node {
        final int value;
        Node next;

        Node(int value) {
            this.value = value;
        }
    }

    private final AtomicReference<Node> head = new AtomicReference<>();

    void push(int v) {
        Node n = new Node(v);
        do {
            n.next = head.get();
        } while (!head.compareAndSet(n.next, n));
    }

    Integer pop() {
        Node h;
        do {
            h = head.get();
            if (h == null) {
                return null;
            }
        } while (!head.compareAndSet(h, h.next));
        return h.value;
    }

    @Override
    public void run() {
        long[] sum = new long[1];
        Rounds.run(2000, null, r -> {
            push(r);
            push(r + 1);
        }, r -> {
            Integer v = pop();
            if (v != null) {
                sum[0] += v;
            }
        });
        System.out.println("S11_TreiberStack: done");
    }
}
