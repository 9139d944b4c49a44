package dev.mmcheck.samples;

/**
 * S02 — Dekker with volatile flags. A volatile store is a store followed by a full fence, so a flag
 * is visible before its thread reads the other flag: no TSO or PSO run is non-SC.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S02_DekkerVolatile}.
 */
@Expected(tso = false, pso = false, why = "volatile stores are followed by a full fence")
public final class S02_DekkerVolatile implements Runnable {

    private volatile int flag1;
    private volatile int flag2;
    private int entered;

    @Override
    public void run() {
        Rounds.run(3000, () -> {
            flag1 = 0;
            flag2 = 0;
            entered = 0;
        }, r -> {
            flag1 = 1;
            if (flag2 == 0) {
                entered++;
            }
        }, r -> {
            flag2 = 1;
            if (flag1 == 0) {
                entered++;
            }
        });
        System.out.println("S02_DekkerVolatile: done");
    }
}
