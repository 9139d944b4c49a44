package dev.mmcheck.samples.frameworks;

import org.jctools.queues.SpscLinkedQueue;

/**
 * What JCTools' single-threaded sanity tests do to a linked queue, alone (docs/performance.md, "Why the linked queues
 * take 5x"): offers N items to an {@code SpscLinkedQueue} calling {@code size()} (a walk of the whole list) after each,
 * then polls them calling {@code size()} after each; no full fence ever follows the queue's release stores, so a solo
 * period keeps every node visited for its hand-over. With a second argument {@code other}, a daemon thread takes a lock
 * every 100 ms (as Surefire's stream flusher does): the periods are then never lone, and their hand-over rings are
 * logged instead of dropped. Prints the time per node visited. Run:
 * {@code java -javaagent:agent/target/mmcheck.jar -cp sample-apps/target/test-classes:sample-apps/target/lib/*
 * dev.mmcheck.samples.frameworks.SizeWalkHarness 8192 [other]}.
 */
public final class SizeWalkHarness {

    private SizeWalkHarness() {
    }

    /** {@code N [other]}. */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        if (args.length > 1) {
            Thread other = new Thread(() -> {
                Object lock = new Object();
                while (true) {
                    synchronized (lock) {
                        lock.notifyAll();
                    }
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "other");
            other.setDaemon(true);
            other.start();
        }
        long start = System.nanoTime();
        SpscLinkedQueue<Integer> q = new SpscLinkedQueue<>();
        long visited = 0;
        for (int i = 0; i < n; i++) {
            q.offer(i);
            visited += q.size();
        }
        for (int i = 0; i < n; i++) {
            q.poll();
            visited += q.size();
        }
        long nanos = System.nanoTime() - start;
        System.out.printf("harness: %d nodes visited in %.2f s, %.1f ns each (%s)%n", visited, nanos / 1e9,
                (double) nanos / visited, args.length > 1 ? "another thread locking every 100 ms" : "alone");
    }
}
