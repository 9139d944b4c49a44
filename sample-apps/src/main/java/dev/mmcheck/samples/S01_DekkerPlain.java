package dev.mmcheck.samples;

/**
 * S01 — Dekker's mutual exclusion with plain fields.
 *
 * <p>Each thread raises its own flag and then reads the other's. Under sequential consistency at most
 * one thread can read 0. On x86 (TSO) a flag store can still sit in its core's store buffer when the
 * other core reads the flag, so both read 0 and both enter the critical section.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S01_DekkerPlain}.
 * The trace sample-apps/traces/S01_DekkerPlain.trace is one sequentially consistent run of it.
 */
@Expected(tso = true, pso = true, why = "a store followed by a load of another field: store buffering")
public final class S01_DekkerPlain implements Runnable {

    private int flag1;
    private int flag2;
    private int entered;

    private void thread1() {
        flag1 = 1; // mmcheck:store
        if (flag2 == 0) { // mmcheck:access
            entered++;
            Rounds.pause(); // stays in the critical section a while, as a preemption would make it
        }
    }

    private void thread2() {
        flag2 = 1; // mmcheck:store
        if (flag1 == 0) { // mmcheck:access
            entered++;
            Rounds.pause();
        }
    }

    @Override
    public void run() {
        int[] both = new int[1];
        Rounds.run(3000, () -> {
            both[0] += entered > 1 ? 1 : 0;
            flag1 = 0;
            flag2 = 0;
            entered = 0;
        }, r -> thread1(), r -> thread2());
        System.out.println("S01_DekkerPlain: both threads entered in " + both[0] + " of 3000 rounds");
    }
}
