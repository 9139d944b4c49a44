package dev.mmcheck.samples;

import java.util.concurrent.locks.ReentrantLock;

/**
 * S16 — Plain fields read and written only under a ReentrantLock: unlock/lock synchronize, so every
 * access under the lock sees the last one before it. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S16_LockHandover}.
 */
@Expected(tso = false, pso = false, why = "lock and unlock synchronize")
public final class S16_LockHandover implements Runnable {

    private final ReentrantLock lock = new ReentrantLock();
    private int count;
    private int last;
    private int checksum;

    private void step(int who) {
        lock.lock();
        try {
            count++;
            checksum += last * 31 + who;
            last = who;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        Rounds.run(2000, null, r -> step(1), r -> step(2));
        System.out.println("S16_LockHandover: " + count);
    }
}
