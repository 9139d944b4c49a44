package dev.mmcheck.samples;

/**
 * S22 — S21's bounded counter with the check and the act under one monitor ({@code synchronized}):
 * no other thread's access can come between them, so every run is SC- and TSO-serializable, and no
 * increment is lost.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S22_SynchronizedCounter}.
 */
@Expected(tso = false, pso = false, scser = false, tsoser = false,
        why = "the check and the act hold the monitor: nothing comes between them")
public final class S22_SynchronizedCounter implements Runnable {

    private static final int LIMIT = 1_000_000;

    private int count;

    @Atomic
    synchronized void incrementIfBelow() {
        int c = count;
        if (c < LIMIT) {
            Rounds.pause();
            count = c + 1;
        }
    }

    @Override
    public void run() {
        Rounds.run(2000, null, r -> incrementIfBelow(), r -> incrementIfBelow());
        synchronized (this) {
            System.out.println("S22_SynchronizedCounter: " + count + " of 4000 increments kept");
        }
    }
}
