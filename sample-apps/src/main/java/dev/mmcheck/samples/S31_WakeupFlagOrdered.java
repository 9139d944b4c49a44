package dev.mmcheck.samples;

/**
 * S31 — A consumer stalls on a lost signal: the wake-up flag of a ring buffer's blocking wait strategy ({@link Wakeup})
 * is published with an ordered store ({@code lazySet(true)}), and the producer reads it with a plain {@code get()}
 * after its ordered store of the cursor. Each side's ordered store can still be in its store buffer when it reads the
 * other side's variable (store buffering, x86 included): the consumer sees the cursor behind and blocks while the
 * producer sees no consumer waiting and does not signal. The consumer then waits out its timeout (a production stall
 * where it has none). The fix: {@code getAndSet} on both sides (S32).
 *
 * <p>Expected: TSO (and PSO) violations: the consumer's flag against the producer's read of it, and the producer's
 * cursor against the consumer's re-read. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S31_WakeupFlagOrdered}.
 */
@Expected(tso = true, pso = true, why = "an ordered store of the wake-up flag, then a load of the cursor: store buffering")
public final class S31_WakeupFlagOrdered implements Runnable {

    @Override
    public void run() {
        Wakeup.run("S31_WakeupFlagOrdered", 2000,
                flag -> flag.lazySet(true), // mmcheck:store
                flag -> {
                    if (flag.get()) { // mmcheck:access
                        flag.lazySet(false);
                        return true;
                    }
                    return false;
                });
    }
}
