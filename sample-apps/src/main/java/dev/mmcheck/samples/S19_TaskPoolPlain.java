package dev.mmcheck.samples;

/**
 * S19 — The task pool of Enea and Farzan's Fig. 1: an array of tasks between {@code head} and
 * {@code tail}, plain ints, one thread taking from the head and one from the tail, each in two atomic
 * steps: move its index ({@code takeHeadIndex}: head++, {@code takeTailIndex}: tail--), then, if
 * {@code head <= tail} still holds, take the task at its end, else undo the move.
 *
 * <p>One deviation from Fig. 1, where the undo ({@code else head--}) is inside the take: as drawn,
 * the pool is not SC-serializable after all. When both index moves come before both tests, both tests
 * fail, and if both threads test before either undoes, each test reads the index the other's undo
 * then writes: a cycle of two transactions in a sequentially consistent run (mmcheck reports it as
 * {@code sc-serializability}; the paper's claim that every SC execution is serializable overlooks
 * it). Here the undo is an atomic step of its own ({@code putBackHeadIndex}), which keeps every SC
 * run serializable and leaves the TSO bug as it is.
 *
 * <p>Under SC every run is serializable: the test keeps the two threads off the same element. Under
 * TSO it is not: with one task left, each thread's index update can still sit in its store buffer
 * when the other tests {@code head <= tail}, both tests pass, and both take the same task (the cycle
 * of Fig. 2(d): an index store commits late). mmcheck reports {@code tso-serializability} with the
 * store that commits late. The TSO and PSO monitors report too (the pool is not robust either: a
 * thread can read the other's index before its own update is visible).
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S19_TaskPoolPlain}.
 * The six methods are {@link Atomic}; without the annotation the agent option
 * {@code atomic=dev.mmcheck.samples.S19_TaskPoolPlain#take*:dev.mmcheck.samples.S19_TaskPoolPlain#putBack*}
 * declares the same transactions.
 */
@Expected(tso = true, pso = true, scser = false, tsoser = true,
        why = "an index update can commit after the other thread's test: both take the last task")
public final class S19_TaskPoolPlain implements Runnable {

    private final int[] pool = new int[4];
    private int head;
    private int tail;
    private int takenByHead; // each written by one thread only, so they add no conflict
    private int takenByTail;

    @Atomic
    void takeHeadIndex() {
        head++; // mmcheck:tx mmcheck:store
    }

    /** Takes the task at the head if the pool still holds it; whether it did. */
    @Atomic
    boolean takeHead() {
        if (head <= tail) { // mmcheck:tx mmcheck:access
            int task = pool[head - 1]; // mmcheck:access
            pool[head - 1] = 0; // mmcheck:store
            takenByHead += task;
            Rounds.pause(); // executes the task
            return true;
        }
        return false;
    }

    /** Undoes takeHeadIndex (Fig. 1 does it inside takeHead: see the class comment for why not here). */
    @Atomic
    void putBackHeadIndex() {
        head--; // mmcheck:tx mmcheck:store
    }

    @Atomic
    void takeTailIndex() {
        tail--; // mmcheck:tx mmcheck:store
    }

    @Atomic
    boolean takeTail() {
        if (head <= tail) { // mmcheck:tx mmcheck:access
            int task = pool[tail]; // mmcheck:access
            pool[tail] = 0; // mmcheck:store
            takenByTail += task;
            Rounds.pause();
            return true;
        }
        return false;
    }

    @Atomic
    void putBackTailIndex() {
        tail++; // mmcheck:tx mmcheck:store
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
            // the tail thread starts a little later, as a preemption would make it: the head thread then
            // tests before the tail index moves, while its own head update could still be buffered
            Rounds.pause();
            takeTailIndex();
            Rounds.pause();
            if (!takeTail()) {
                putBackTailIndex();
            }
        });
        System.out.println("S19_TaskPoolPlain: the last task was taken twice in " + twice[0] + " of 2000 rounds");
    }
}
