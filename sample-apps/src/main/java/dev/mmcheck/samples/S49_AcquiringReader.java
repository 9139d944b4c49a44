package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S49 — S48 with the reader fixed: it waits for {@code ready} with {@code getAcquire}, which pairs with the
 * writer's {@code setRelease}: the settings written before the release are visible to every read after the
 * acquire that saw it. Clean in every model. Expected: TSO clean, PSO clean, JMM clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S49_AcquiringReader}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.CLEAN,
        why = "the acquire read of ready pairs with the release write that published the settings")
public final class S49_AcquiringReader implements Runnable {

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
            timeoutMillis = timeout;
            retries = tries;
            READY.setRelease(this, true);
        }

        /** The worker's side: waits for the settings, then uses them; -1 when they never came. */
        int budget() {
            for (int spins = 0; spins < 2_000; spins++) {
                if ((boolean) READY.getAcquire(this)) {
                    return timeoutMillis * retries;
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
        System.out.println("S49_AcquiringReader: half-filled settings seen in " + half + " rounds");
    }
}
