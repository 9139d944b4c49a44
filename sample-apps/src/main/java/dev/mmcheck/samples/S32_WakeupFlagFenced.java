package dev.mmcheck.samples;

/**
 * S32 — The wait strategy of S31 with the fix: both sides set and take the flag with {@code getAndSet}, an
 * interlocked operation (a full fence): the consumer either sees the cursor or the producer sees the flag.
 *
 * <p>Expected: clean under TSO and PSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S32_WakeupFlagFenced}.
 */
@Expected(tso = false, pso = false, why = "getAndSet of the wake-up flag on both sides")
public final class S32_WakeupFlagFenced implements Runnable {

    @Override
    public void run() {
        Wakeup.run("S32_WakeupFlagFenced", 2000, flag -> flag.getAndSet(true), flag -> flag.getAndSet(false));
    }
}
