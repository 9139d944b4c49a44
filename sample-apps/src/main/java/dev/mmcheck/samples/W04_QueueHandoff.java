package dev.mmcheck.samples;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * W04 — Benchmark workload: a ConcurrentLinkedQueue hand-off. One producer offers 200,000 boxed items
 * (times {@code -Dworkload.scale=N}), one consumer polls them all. The queue is the JDK's (not
 * instrumented: its calls are synchronization events); the items' fields are the application's.
 * Prints {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W04_QueueHandoff} (with and without the agent).
 */
public final class W04_QueueHandoff implements Runnable {

    private static final int ITEMS = 200_000 * Integer.getInteger("workload.scale", 1);

    @Override
    public void run() {
        ConcurrentLinkedQueue<Handoff.Item> queue = new ConcurrentLinkedQueue<>();
        Handoff.run("W04_QueueHandoff", ITEMS, queue::offer, queue::poll);
    }
}
