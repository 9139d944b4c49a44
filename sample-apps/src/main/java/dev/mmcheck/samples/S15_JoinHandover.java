package dev.mmcheck.samples;

/**
 * S15 — Data handed over only through Thread.start and Thread.join: writes before start are visible
 * to the started thread, and its writes are visible after join. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S15_JoinHandover}.
 */
@Expected(tso = false, pso = false, why = "start and join synchronize")
public final class S15_JoinHandover implements Runnable {

    private int input;
    private int output;
    private int flag;

    @Override
    public void run() {
        long sum = 0;
        for (int r = 0; r < 300; r++) {
            input = r;
            flag = 1;
            Thread t = new Thread(() -> {
                if (flag == 1) {
                    output = input + 1;
                    flag = 2;
                }
            }, "child-" + r);
            t.start();
            Samples.join(t);
            sum += flag == 2 ? output : 0;
        }
        System.out.println("S15_JoinHandover: " + sum);
    }
}
