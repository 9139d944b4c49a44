package dev.mmcheck.samples.frameworks;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A solo thread that blocks in {@code ReentrantLock.lock()}, or on entering a monitor, until another thread, quiet
 * until then, writes and unlocks; run under the agent by SoloLockIT (docs/agent.md, "Accesses of a thread running
 * alone").
 *
 * <p>Each round, thread "holder" takes the lock and sleeps with it held, so that "main" runs alone and is granted
 * a solo period; "main" then calls {@code lock()}, whose event before the call the period leaves out, and blocks.
 * "holder" wakes, writes {@code x} then {@code y} (its first write ends the period) and unlocks; "main" acquires
 * and reads {@code y} then {@code x}. The lock orders the writes before the reads, so no execution lets "main" read
 * {@code y} written and {@code x} not: a report would be false. The event after "main"'s {@code lock()} must be
 * logged (the period is over by then), ordered after "holder"'s unlock, whose fence commits both writes. Odd rounds
 * use the lock, even rounds the monitor of {@code d} ({@code synchronized}), the same way.
 * Prints {@code harness: lock wake ok, rounds=N} when it ends.
 */
public final class LockWakeHarness {

    /** What "holder" writes under the lock and "main" reads after taking it. */
    static final class Data {
        int x;
        int y;
    }

    private LockWakeHarness() {
    }

    /** Runs {@code args[0]} rounds (default 5). */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        ReentrantLock lock = new ReentrantLock();
        Data d = new Data();
        long[] own = new long[64];
        for (int r = 1; r <= rounds; r++) {
            int value = r;
            boolean monitor = r % 2 == 0;
            CountDownLatch held = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                if (monitor) {
                    synchronized (d) {
                        held.countDown();
                        sleep(40); // quiet with the monitor held: "main" runs alone meanwhile
                        d.x = value; // ends main's period
                        d.y = value;
                    }
                    return;
                }
                lock.lock();
                try {
                    held.countDown();
                    sleep(40); // quiet with the lock held: "main" runs alone meanwhile
                    d.x = value; // ends main's period
                    d.y = value;
                } finally {
                    lock.unlock();
                }
            }, "holder");
            holder.start();
            held.await();
            long until = System.nanoTime() + 20_000_000L;
            while (System.nanoTime() < until) { // alone, long enough for the checker to grant a period
                for (int i = 0; i < own.length; i++) {
                    own[i] += i;
                }
            }
            if (monitor) {
                synchronized (d) { // blocks until "holder" leaves the monitor
                    check(r, d.y, d.x, value);
                }
            } else {
                lock.lock(); // blocks until "holder" unlocks
                try {
                    check(r, d.y, d.x, value);
                } finally {
                    lock.unlock();
                }
            }
            holder.join();
        }
        System.out.println("harness: lock wake ok, rounds=" + rounds);
    }

    private static void check(int round, int y, int x, int value) {
        if (x != value || y != value) {
            throw new AssertionError("round " + round + ": x=" + x + " y=" + y);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
