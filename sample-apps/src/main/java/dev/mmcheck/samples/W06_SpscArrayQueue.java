package dev.mmcheck.samples;

import org.jctools.queues.SpscArrayQueue;

/**
 * W06 — Benchmark workload: an SPSC JCTools array queue (`SpscArrayQueue`, 1024 slots) with one producer and
 * one consumer. The producer offers 200,000 boxed items (times {@code -Dworkload.scale=N}), spinning
 * while the queue is full; the consumer polls them all. JCTools is the application's own (lib/ next to
 * the jar), so the agent instruments it as it would a user's: its Unsafe ordered stores and volatile
 * loads are the synchronization being checked. Prints {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W06_SpscArrayQueue} (with and without the agent).
 */
public final class W06_SpscArrayQueue implements Runnable {

    private static final int ITEMS = 200_000 * Integer.getInteger("workload.scale", 1);

    @Override
    public void run() {
        SpscArrayQueue<Handoff.Item> queue = new SpscArrayQueue<>(1024);
        Handoff.run("W06_SpscArrayQueue", ITEMS, queue::offer, queue::poll);
    }
}
