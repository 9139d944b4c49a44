package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S48 — Message passing with a correct writer and a careless reader: a settings holder fills in its
 * fields and publishes them with {@code setRelease} on {@code ready}, as it should; the reader waits for
 * {@code ready} with {@code getOpaque} (a cheap poll that is "only a flag") and then reads the fields
 * plainly. On ARM the field reads may be satisfied before the read of {@code ready} that saw {@code true}:
 * the reader can use a half-filled settings object. TSO and PSO keep loads in order, so they are clean;
 * the access-mode model (models=jmm) reports the read of each field, with the write it may miss.
 * The fix: read {@code ready} with {@code getAcquire} (S49). Expected: TSO clean, PSO clean, JMM violation.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S48_CarelessReader}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.VIOLATION,
        why = "the opaque read of ready does not keep the reads of the settings after it")
public final class S48_CarelessReader implements Runnable {

    /** Settings handed from a loader thread to a worker. */
    static final class Settings {
        static final VarHandle READY;

        static {
            try {
                READY = MethodHandles.lookup().findVarHandle(Settings.class, "ready", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        int timeoutMillis;
        int retries;
        boolean ready;

        void load(int timeout, int tries) {
            timeoutMillis = timeout; // mmcheck:store
            retries = tries; // mmcheck:store
            READY.setRelease(this, true); // publishes both fields: correct
        }

        /** The worker's side: waits for the settings, then uses them; -1 when they never came. */
        int budget() {
            for (int spins = 0; spins < 2_000; spins++) {
                if ((boolean) READY.getOpaque(this)) { // careless: opaque orders nothing after it
                    return timeoutMillis * retries; // mmcheck:access
                }
                Thread.onSpinWait();
            }
            return -1;
        }
    }

    private Settings settings = new Settings();
    private int half;

    @Override
    public void run() {
        Rounds.run(300, () -> settings = new Settings(), k -> settings.load(100 + k, 3), k -> {
            if (settings.budget() == 0) {
                half++;
            }
        });
        System.out.println("S48_CarelessReader: half-filled settings seen in " + half + " rounds");
    }
}
