package dev.mmcheck.samples;

/**
 * S23 — Dekker's entry protocol written the way real code is: plain static flags, each thread in its
 * own loop of 3000 attempts, no barrier between rounds and no pause. Each attempt raises the flag,
 * reads the other's, and lowers its own flag again. On TSO a raised flag can still be buffered while
 * the other thread reads it, so both can be inside at once.
 *
 * <p>Unlike S01, the threads are never aligned: the monitor sees whatever interleaving the run took.
 * Which store it reports depends on it: the raising store, or the lowering one of the attempt before
 * (both still buffered when the other thread reads the flag).
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S23_DekkerLoop}.
 */
@Expected(tso = true, pso = true, why = "a flag store followed by a load of the other flag, in unaligned loops")
public final class S23_DekkerLoop implements Runnable {

    private static final int ATTEMPTS = 3000;

    private static int flag1;
    private static int flag2;
    private int inside1;
    private int inside2;

    private void thread1() {
        for (int i = 0; i < ATTEMPTS; i++) {
            flag1 = 1; // mmcheck:store
            if (flag2 == 0) { // mmcheck:access
                inside1++;
            }
            flag1 = 0; // mmcheck:store
        }
    }

    private void thread2() {
        for (int i = 0; i < ATTEMPTS; i++) {
            flag2 = 1; // mmcheck:store
            if (flag1 == 0) { // mmcheck:access
                inside2++;
            }
            flag2 = 0; // mmcheck:store
        }
    }

    @Override
    public void run() {
        Thread a = new Thread(this::thread1, "T1");
        Thread b = new Thread(this::thread2, "T2");
        a.start();
        b.start();
        Samples.join(a);
        Samples.join(b);
        System.out.println("S23_DekkerLoop: entered " + inside1 + " + " + inside2 + " times");
    }
}
