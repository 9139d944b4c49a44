package dev.mmcheck.samples;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * S45 — A work-stealing task pool after Cilk-5's THE protocol, without its two fences: the owner pushes
 * a few thousand tasks at the bottom, then takes them back from the bottom while two thieves steal from
 * the top. Indexes and tasks are plain fields; each step is {@link Atomic}. A step moves its end's index
 * ({@code takeIndex}: bottom--, {@code stealIndex}: top++), the next takes the task that move claimed if
 * {@code top <= bottom} still holds, else an undo step moves the index back (S19's split of the paper's
 * Fig. 1, which keeps every SC run serializable). The thieves hold a lock over their three steps, so
 * they never race each other; the owner takes the lock only when its test fails, to settle the last
 * task.
 *
 * <p>THE puts a full fence after each index move. Without it, on TSO, the owner's bottom-- can still be
 * in its store buffer when a thief tests {@code top <= bottom} while the thief's top++ is still in its
 * own: with one task left both tests pass and the task runs twice. mmcheck reports it under TSO and PSO
 * (store buffering) and as a {@code tso-serializability} violation: a cycle through the owner's take and
 * a thief's steal in which an index store commits late.
 *
 * <p>The owner's pushes before the thieves start are thousands of stores without a fence, and so are its
 * takes: the TSO-serializability check's bounded buffer (docs/serializability.md, "Bounds") is reached
 * many times in every run. It must keep the newest stores, which the violation is made of.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S45_WorkStealingPool}.
 */
@Expected(tso = true, pso = true, scser = false, tsoser = true,
        why = "the owner's bottom-- and a thief's top++ can both be buffered at the tests: both take the last task")
public final class S45_WorkStealingPool implements Runnable {

    private static final int TASKS = 2000;

    private final int[] tasks = new int[TASKS];
    private int top; // the thieves' end: the oldest task
    private int bottom; // the owner's end: one past the newest task
    private final Object thieves = new Object();
    private final int[] taken = new int[3]; // tasks run, per thread: each slot written by its thread only

    /** The owner: a task at the bottom. */
    @Atomic
    void push(int task) {
        int b = bottom; // mmcheck:tx mmcheck:access
        tasks[b] = task; // mmcheck:store
        bottom = b + 1; // mmcheck:store
    }

    @Atomic
    void takeIndex() {
        bottom--; // mmcheck:tx mmcheck:store
    }

    /** The owner: the task takeIndex claimed, or 0 when a thief may have it. */
    @Atomic
    int takeTask() {
        int b = bottom; // mmcheck:tx mmcheck:access
        if (top <= b) { // mmcheck:access
            int task = tasks[b]; // mmcheck:access
            tasks[b] = 0; // mmcheck:store
            return task;
        }
        return 0;
    }

    @Atomic
    void putBackIndex() {
        bottom++; // mmcheck:tx mmcheck:store
    }

    @Atomic
    void stealIndex() {
        top++; // mmcheck:tx mmcheck:store
    }

    /** A thief: the task stealIndex claimed, or 0 when the owner may have it. */
    @Atomic
    int stealTask() {
        int t = top; // mmcheck:tx mmcheck:access
        if (t <= bottom) { // mmcheck:access
            int task = tasks[t - 1]; // mmcheck:access
            tasks[t - 1] = 0; // mmcheck:store
            return task;
        }
        return 0;
    }

    @Atomic
    void putBackTop() {
        top--; // mmcheck:tx mmcheck:store
    }

    /** The owner's take: lock-free while the pool holds more than one task; 0 when it is empty. */
    private int take() {
        takeIndex();
        int task = takeTask();
        if (task != 0) {
            return task;
        }
        putBackIndex();
        synchronized (thieves) { // no thief between its steps now: settle the last task
            takeIndex();
            task = takeTask();
            if (task == 0) {
                putBackIndex();
            }
            return task;
        }
    }

    /** A thief's steal: 0 when the pool looked empty. */
    private int steal() {
        synchronized (thieves) {
            stealIndex();
            int task = stealTask();
            if (task == 0) {
                putBackTop();
            }
            return task;
        }
    }

    /** Runs a task: the thieves' take a while (they yield), the owner's are short. */
    private void run(int self, int task) {
        taken[self]++; // mmcheck:access (between two of the owner's transactions: a cycle may pass through it)
        if (self > 0 || (task & 7) == 0) {
            Thread.yield();
        }
    }

    @Override
    public void run() {
        CyclicBarrier start = new CyclicBarrier(3);
        Thread owner = new Thread(() -> {
            for (int i = 1; i <= TASKS; i++) {
                push(i);
            }
            await(start);
            for (int task = take(); task != 0; task = take()) {
                run(0, task);
            }
        }, "owner");
        Thread[] thief = new Thread[2];
        for (int k = 0; k < thief.length; k++) {
            int self = k + 1;
            thief[k] = new Thread(() -> {
                await(start);
                for (int task = steal(); task != 0; task = steal()) {
                    run(self, task);
                }
            }, "thief" + self);
        }
        owner.start();
        for (Thread t : thief) {
            t.start();
        }
        Samples.join(owner);
        for (Thread t : thief) {
            Samples.join(t);
        }
        System.out.println("S45_WorkStealingPool: " + (taken[0] + taken[1] + taken[2]) + " tasks run of " + TASKS
                + " pushed (more: one ran twice), the thieves ran " + (taken[1] + taken[2]));
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
