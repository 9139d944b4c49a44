package dev.mmcheck.samples;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * S43 — Two pairs of threads, each pair starting its rounds on a CyclicBarrier of its own, the pairs never
 * synchronizing with each other (jcstress's actors under a harness, as in AdvancedJMM_03_NonMCA_Coherence): T1
 * writes x and reads y, T3 writes y, T2 reads x after its own barrier. Correct on every model (the races are benign,
 * and nothing orders T3 before T2). mmcheck once logged every java.util.concurrent call on one shared address, which
 * ordered T3's await on one barrier before T2's return from the other, and could report a cycle no execution makes
 * (JdkSynchronizationTest shows the interleaving); each synchronizer has its address now. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S43_IndependentBarriers}.
 */
@Expected(tso = false, pso = false, why = "the two barriers synchronize nothing with each other")
public final class S43_IndependentBarriers implements Runnable {

    private static final int ROUNDS = 1500;

    private int x;
    private int y;
    private int seenByFirst;
    private int seenBySecond;
    private int spare;

    @Override
    public void run() {
        CyclicBarrier first = new CyclicBarrier(2);
        CyclicBarrier second = new CyclicBarrier(2);
        Thread t1 = new Thread(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                await(first);
                x = r;
                seenByFirst += y;
            }
        }, "T1");
        Thread t3 = new Thread(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                await(first);
                y = r;
            }
        }, "T3");
        Thread t2 = new Thread(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                await(second);
                seenBySecond += x;
            }
        }, "T2");
        Thread t4 = new Thread(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                await(second);
                spare++;
            }
        }, "T4");
        t1.start();
        t2.start();
        t3.start();
        t4.start();
        Samples.join(t1);
        Samples.join(t2);
        Samples.join(t3);
        Samples.join(t4);
        System.out.println("S43_IndependentBarriers: done " + (seenByFirst >= 0) + " " + (seenBySecond >= 0) + " " + spare);
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException(e);
        }
    }
}
