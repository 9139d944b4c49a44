package dev.mmcheck.samples;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * Runs two thread bodies against each other for a number of rounds, both threads starting each round
 * together (a CyclicBarrier, whose synchronization separates the rounds), so that their accesses
 * overlap as much as the machine allows.
 */
final class Rounds {

    private Rounds() {
    }

    /** A round's body for one thread; {@code round} counts from 0. */
    interface Body {
        /** Runs round {@code round}. */
        void run(int round);
    }

    /** Runs {@code rounds} rounds of {@code first} and {@code second} in two new threads; {@code reset} between rounds. */
    static void run(int rounds, Runnable reset, Body first, Body second) {
        CyclicBarrier barrier = new CyclicBarrier(2, reset);
        Thread a = new Thread(() -> loop(rounds, barrier, first), "T1");
        Thread b = new Thread(() -> loop(rounds, barrier, second), "T2");
        a.start();
        b.start();
        Samples.join(a);
        Samples.join(b);
    }

    private static void loop(int rounds, CyclicBarrier barrier, Body body) {
        for (int r = 0; r < rounds; r++) {
            await(barrier);
            body.run(r);
        }
        await(barrier);
    }

    /**
     * Waits a little inside a spin loop, giving the other thread the processor: with the checker thread
     * busy on one of two cores, the sample's two threads often share the other, and only yielding lets
     * them interleave within a round.
     */
    static void pause() {
        Thread.yield();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException(e);
        }
    }
}
