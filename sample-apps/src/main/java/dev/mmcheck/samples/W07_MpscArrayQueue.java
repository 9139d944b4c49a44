package dev.mmcheck.samples;

import org.jctools.queues.MpscArrayQueue;

/**
 * W07 — Benchmark workload: an MPSC JCTools array queue (`MpscArrayQueue`, 1024 slots) with one producer and
 * one consumer. The producer offers 200,000 boxed items (times {@code -Dworkload.scale=N}), spinning
 * while the queue is full; the consumer polls them all. JCTools is the application's own (lib/ next to
 * the jar), so the agent instruments it as it would a user's: its Unsafe ordered stores and volatile
 * loads are the synchronization being checked. Prints {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W07_MpscArrayQueue} (with and without the agent).
 */
public final class W07_MpscArrayQueue implements Runnable {

    private static final int ITEMS = 200_000 * Integer.getInteger("workload.scale", 1);

    @Override
    public void run() {
        MpscArrayQueue<Handoff.Item> queue = new MpscArrayQueue<>(1024);
        Handoff.run("W07_MpscArrayQueue", ITEMS, queue::offer, queue::poll);
    }
}
