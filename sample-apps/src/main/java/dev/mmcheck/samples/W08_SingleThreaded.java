package dev.mmcheck.samples;

/**
 * W08 — Benchmark workload: one thread alone, the shape of a library's single-threaded unit test. The
 * main thread records 2,000,000 values (times {@code -Dworkload.scale=N}) into a small histogram
 * through its methods (a bucket index from the histogram's fields, a counts array, a total) and reads
 * the counts back at the end. No other thread runs, so under the agent its accesses fall in a solo
 * period (docs/agent.md, "Accesses of a thread running alone"): this workload measures what a left-out
 * access still costs, which is where real suites spend their time (docs/library-suite.md). Prints
 * {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W08_SingleThreaded} (with and without the agent).
 */
public final class W08_SingleThreaded implements Runnable {

    private static final int VALUES = 2_000_000 * Integer.getInteger("workload.scale", 1);

    /** A histogram of values below 2^20 with 64 linear sub-buckets per power of two, as HdrHistogram lays them out. */
    static final class Histogram {
        final long[] counts = new long[16 * 64];
        final int subBucketBits = 6;
        final int subBucketMask = 63;
        long totalCount;
        long maxValue;

        int indexOf(long value) {
            int bucket = Math.max(0, 64 - Long.numberOfLeadingZeros(value | subBucketMask) - subBucketBits);
            int sub = (int) (value >>> bucket) & subBucketMask;
            return (bucket << subBucketBits) + sub;
        }

        void record(long value) {
            counts[indexOf(value)]++;
            totalCount++;
            if (value > maxValue) {
                maxValue = value;
            }
        }

        long countAt(int index) {
            return counts[index];
        }
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        Histogram h = new Histogram();
        long x = 1;
        for (int i = 0; i < VALUES; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            h.record((x >>> 44) & 0xfffff);
        }
        long sum = 0;
        for (int i = 0; i < h.counts.length; i++) {
            sum += h.countAt(i);
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("W08_SingleThreaded: total=" + h.totalCount + " sum=" + sum + " max=" + h.maxValue
                + " elapsed-ms=" + ms);
    }
}
