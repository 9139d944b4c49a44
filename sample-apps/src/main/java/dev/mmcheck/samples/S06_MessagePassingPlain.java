package dev.mmcheck.samples;

/**
 * S06 — Message passing with plain fields: the writer stores the data, then raises a flag; the reader
 * reads the flag, then the data. TSO keeps a thread's stores in order (clean); PSO can make the flag
 * visible before the data, so the reader can see the flag and stale data.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S06_MessagePassingPlain}.
 */
@Expected(tso = false, pso = true, why = "two plain stores to different fields can commit out of order on PSO")
public final class S06_MessagePassingPlain implements Runnable {

    private int data;
    private int ready;
    private int ack;
    private int seen;

    @Override
    public void run() {
        Rounds.run(3000, () -> {
            data = 0;
            ready = 0;
            ack = 0;
        }, r -> {
            data = r + 1; // mmcheck:store
            ready = 1;
            for (int spins = 0; ack == 0 && spins < 2000; spins++) {
                Rounds.pause();
            }
        }, r -> {
            for (int spins = 0; ready == 0 && spins < 2000; spins++) {
                Rounds.pause();
            }
            if (ready == 1) {
                seen += data; // mmcheck:access
            }
            ack = 1;
        });
        System.out.println("S06_MessagePassingPlain: done");
    }
}
