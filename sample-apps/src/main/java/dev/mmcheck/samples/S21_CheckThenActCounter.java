package dev.mmcheck.samples;

/**
 * S21 — A bounded counter without locks: {@code incrementIfBelow} checks {@code count < LIMIT}, then
 * writes {@code count + 1}. The field is volatile, so every run is sequentially consistent and the
 * store-buffer monitors have nothing to say; yet the method is not atomic: when both threads check
 * before either writes, both write the same value and one increment is lost (check-then-act). Each
 * thread's check precedes the other's write, a cycle of two transactions: mmcheck reports
 * {@code sc-serializability} (and {@code tso-serializability}: every SC run is a TSO run) with the
 * read and the write on each edge. S22 is the same counter, synchronized, and clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S21_CheckThenActCounter}.
 */
@Expected(tso = false, pso = false, scser = true, tsoser = true,
        why = "both threads check before either acts: a lost increment, though every access is volatile")
public final class S21_CheckThenActCounter implements Runnable {

    private static final int LIMIT = 1_000_000;

    private volatile int count;

    @Atomic
    void incrementIfBelow() {
        int c = count; // mmcheck:tx mmcheck:access
        if (c < LIMIT) {
            Rounds.pause(); // as a preemption between the check and the act would
            count = c + 1; // mmcheck:store mmcheck:access
        }
    }

    @Override
    public void run() {
        Rounds.run(2000, null, r -> incrementIfBelow(), r -> incrementIfBelow());
        System.out.println("S21_CheckThenActCounter: " + count + " of 4000 increments kept");
    }
}
