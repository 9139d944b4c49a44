package dev.mmcheck.samples;

/**
 * S24 — Store buffering on two plain statics, in two unaligned loops of 2000 iterations: each thread
 * writes its variable, then reads the other's. On TSO both reads can miss both writes, which no
 * interleaving allows.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S24_StoreBufferingLoop}.
 */
@Expected(tso = true, pso = true, why = "a store followed by a load of another variable, with no fence")
public final class S24_StoreBufferingLoop implements Runnable {

    private static final int ITERATIONS = 2000;

    private static int x;
    private static int y;
    private long seen1;
    private long seen2;

    @Override
    public void run() {
        Thread a = new Thread(() -> {
            for (int i = 1; i <= ITERATIONS; i++) {
                x = i; // mmcheck:store
                seen1 += y; // mmcheck:access
            }
        }, "T1");
        Thread b = new Thread(() -> {
            for (int i = 1; i <= ITERATIONS; i++) {
                y = i; // mmcheck:store
                seen2 += x; // mmcheck:access
            }
        }, "T2");
        a.start();
        b.start();
        Samples.join(a);
        Samples.join(b);
        System.out.println("S24_StoreBufferingLoop: " + seen1 + " " + seen2);
    }
}
