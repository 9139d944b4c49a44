package dev.mmcheck.samples;

import java.lang.invoke.VarHandle;

/**
 * S20 — S19's task pool with {@code VarHandle.fullFence()} right after each index update, inside its
 * atomic method: the update is in memory before the thread tests {@code head <= tail}, so the two
 * threads can no longer both pass the test with one task left. Every run is TSO-serializable (and
 * SC-serializable), and the TSO and PSO monitors stay quiet.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S20_TaskPoolFenced}.
 */
@Expected(tso = false, pso = false, scser = false, tsoser = false,
        why = "a full fence after each index update: no update commits after the other thread's test")
public final class S20_TaskPoolFenced implements Runnable {

    private final int[] pool = new int[4];
    private int head;
    private int tail;
    private int takenByHead; // each written by one thread only, so they add no conflict
    private int takenByTail;

    @Atomic
    void takeHeadIndex() {
        head++;
        VarHandle.fullFence();
    }

    /** Takes the task at the head if the pool still holds it; whether it did. */
    @Atomic
    boolean takeHead() {
        if (head <= tail) {
            int task = pool[head - 1];
            pool[head - 1] = 0;
            takenByHead += task;
            Rounds.pause(); // executes the task
            return true;
        }
        return false;
    }

    /** Undoes takeHeadIndex (Fig. 1 does it inside takeHead: see S19 for why not here). */
    @Atomic
    void putBackHeadIndex() {
        head--;
    }

    @Atomic
    void takeTailIndex() {
        tail--;
        VarHandle.fullFence();
    }

    @Atomic
    boolean takeTail() {
        if (head <= tail) {
            int task = pool[tail];
            pool[tail] = 0;
            takenByTail += task;
            Rounds.pause();
            return true;
        }
        return false;
    }

    @Atomic
    void putBackTailIndex() {
        tail++;
    }

    @Override
    public void run() {
        int[] twice = new int[1];
        Rounds.run(2000, () -> {
            twice[0] += takenByHead + takenByTail > 1 ? 1 : 0;
            head = 0;
            tail = 1;
            pool[0] = 1;
            takenByHead = 0;
            takenByTail = 0;
        }, r -> {
            takeHeadIndex();
            Rounds.pause();
            if (!takeHead()) {
                putBackHeadIndex();
            }
        }, r -> {
            Rounds.pause(); // the schedule that exposes S19: the tail thread starts a little later
            takeTailIndex();
            Rounds.pause();
            if (!takeTail()) {
                putBackTailIndex();
            }
        });
        System.out.println("S20_TaskPoolFenced: the last task was taken twice in " + twice[0] + " of 2000 rounds");
    }
}
