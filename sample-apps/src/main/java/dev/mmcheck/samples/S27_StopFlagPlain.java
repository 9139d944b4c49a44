package dev.mmcheck.samples;

/**
 * S27 — A plain (non-volatile) {@code running} flag used to stop a worker and hand it a result: the
 * main thread stores the result, then clears the flag; the worker spins on the flag, then reads the
 * result. On PSO the two stores can commit out of order, so the worker can stop and read the old
 * result. (The JIT may also hoist the flag's read out of the loop, so that the worker never stops: a
 * data race under the Java memory model that no store-buffer model shows; this sample's loop calls
 * {@code Thread.yield()}, which keeps the read in the loop.) Making the flag volatile fixes both.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S27_StopFlagPlain}.
 */
@Expected(tso = false, pso = true, why = "the result's store can commit after the flag's")
public final class S27_StopFlagPlain implements Runnable {

    private boolean running = true;
    private int result;
    private int seen;

    @Override
    public void run() {
        Thread worker = new Thread(() -> {
            while (running) {
                Thread.yield();
            }
            seen = result; // mmcheck:access
        }, "worker");
        worker.start();
        for (int i = 0; i < 100; i++) {
            Thread.yield();
        }
        result = 42; // mmcheck:store
        running = false;
        Samples.join(worker);
        System.out.println("S27_StopFlagPlain: the worker saw " + seen);
    }
}
