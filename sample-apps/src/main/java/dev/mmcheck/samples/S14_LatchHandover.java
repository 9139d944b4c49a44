package dev.mmcheck.samples;

import java.util.concurrent.CountDownLatch;

/**
 * S14 — Data handed over only through CountDownLatch: plain writes before countDown are visible after
 * await, in both directions, on every model. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S14_LatchHandover}.
 */
@Expected(tso = false, pso = false, why = "countDown/await synchronize")
public final class S14_LatchHandover implements Runnable {

    private static final int ROUNDS = 500;

    private final int[] data = new int[ROUNDS];
    private final int[] result = new int[ROUNDS];
    private int extra;

    @Override
    public void run() {
        CountDownLatch[] go = new CountDownLatch[ROUNDS];
        CountDownLatch[] done = new CountDownLatch[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            go[r] = new CountDownLatch(1);
            done[r] = new CountDownLatch(1);
        }
        Thread worker = new Thread(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                await(go[r]);
                result[r] = data[r] * 2 + extra;
                extra = r;
                done[r].countDown();
            }
        }, "worker");
        worker.start();
        long sum = 0;
        for (int r = 0; r < ROUNDS; r++) {
            data[r] = r + 1;
            extra = extra + 1;
            go[r].countDown();
            await(done[r]);
            sum += result[r] + extra;
        }
        Samples.join(worker);
        System.out.println("S14_LatchHandover: " + sum);
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
