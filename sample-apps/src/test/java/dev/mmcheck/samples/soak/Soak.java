package dev.mmcheck.samples.soak;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A long run for the checker's memory bound: a shared list of {@code nodes} nodes (more live addresses
 * than a small heap can give the checker a clock record each) walked and updated under a lock, round
 * after round, each walk on a new thread (thread churn), until about {@code events} events were made.
 * Every two seconds a sampler prints the heap in use after a full collection:
 * {@code soak: t=SECONDS heapMB=N}, so that a run shows whether the heap stays flat.
 *
 * <pre>java -Xmx128m -javaagent:agent/target/mmcheck.jar -cp sample-apps/target/test-classes \
 *     dev.mmcheck.samples.soak.Soak 200000000 400000</pre>
 *
 * Correctly synchronized (every access to the list under one lock): a report is a false one.
 */
public final class Soak {

    /** A list node: two fields, two addresses. */
    static final class Node {
        int value;
        Node next;
    }

    private static final Object LOCK = new Object();
    private static Node head;

    private Soak() {
    }

    /** {@code events nodes}: about how many events to make, and how many nodes stay live. */
    public static void main(String[] args) throws Exception {
        long events = Long.parseLong(args[0]);
        int nodes = Integer.parseInt(args[1]);
        synchronized (LOCK) {
            for (int i = 0; i < nodes; i++) {
                Node n = new Node();
                n.next = head;
                head = n;
            }
        }
        long start = System.nanoTime();
        AtomicLong made = new AtomicLong(2L * nodes);
        Thread sampler = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(2000);
                    System.gc();
                    Runtime r = Runtime.getRuntime();
                    System.out.println("soak: t=" + (System.nanoTime() - start) / 1_000_000_000L + " heapMB="
                            + (r.totalMemory() - r.freeMemory()) / (1 << 20) + " events~" + made.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "soak-sampler");
        sampler.setDaemon(true);
        sampler.start();
        int round = 0;
        while (made.get() < events) {
            int r = round++;
            Thread walker = new Thread(() -> {
                synchronized (LOCK) {
                    for (Node n = head; n != null; n = n.next) { // two loads and a store a node
                        n.value += r;
                    }
                }
            }, "walker-" + r);
            walker.start();
            walker.join();
            made.addAndGet(3L * nodes);
        }
        sampler.interrupt();
        System.out.println("soak: done " + round + " walks, events~" + made.get() + " in "
                + (System.nanoTime() - start) / 1_000_000L + " ms");
    }
}
