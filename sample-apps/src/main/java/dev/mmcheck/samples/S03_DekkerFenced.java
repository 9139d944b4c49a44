package dev.mmcheck.samples;

import java.lang.invoke.VarHandle;

/**
 * S03 — Dekker with plain flags and {@code VarHandle.fullFence()} between each store and the
 * following load: the fence drains the store buffer, so the run stays SC on TSO and PSO.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S03_DekkerFenced}.
 */
@Expected(tso = false, pso = false, why = "a full fence between the store and the load")
public final class S03_DekkerFenced implements Runnable {

    private int flag1;
    private int flag2;
    private int entered;

    @Override
    public void run() {
        Rounds.run(3000, () -> {
            flag1 = 0;
            flag2 = 0;
            entered = 0;
        }, r -> {
            flag1 = 1;
            VarHandle.fullFence();
            if (flag2 == 0) {
                entered++;
            }
        }, r -> {
            flag2 = 1;
            VarHandle.fullFence();
            if (flag1 == 0) {
                entered++;
            }
        });
        System.out.println("S03_DekkerFenced: done");
    }
}
