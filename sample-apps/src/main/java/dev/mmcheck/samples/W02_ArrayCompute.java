package dev.mmcheck.samples;

/**
 * W02 — Benchmark workload: a compute-heavy loop over shared arrays. Two threads each transform
 * their half of a shared array with a degree-12 polynomial (Horner's scheme), phase after phase,
 * reading the other half's previous results at the boundary; 12 phases (times
 * {@code -Dworkload.scale=N}, default 1). Prints {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W02_ArrayCompute} (with and without the agent).
 */
public final class W02_ArrayCompute implements Runnable {

    private static final int N = 1 << 16;
    private static final int PHASES = 12 * Integer.getInteger("workload.scale", 1);

    private final double[] values = new double[N];
    private final double[] coefficients = {0.5, -0.25, 0.125, 0.75, -0.5, 0.3, 0.2, -0.1, 0.05, 0.4, -0.3, 0.1, 0.9};

    private void phase(int from, int to) {
        double[] v = values;
        double[] c = coefficients;
        for (int i = from; i < to; i++) {
            double x = v[i] * 0.001;
            double y = c[0];
            for (int k = 1; k < c.length; k++) {
                y = y * x + c[k];
            }
            v[i] = y + v[(i + 1) % N] * 1e-9;
        }
    }

    @Override
    public void run() {
        for (int i = 0; i < N; i++) {
            values[i] = i;
        }
        long start = System.nanoTime();
        Rounds.run(PHASES, null, r -> phase(0, N / 2), r -> phase(N / 2, N));
        long ms = (System.nanoTime() - start) / 1_000_000;
        double sum = 0;
        for (double d : values) {
            sum += d;
        }
        System.out.println("W02_ArrayCompute: sum=" + (long) sum + " elapsed-ms=" + ms);
    }
}
