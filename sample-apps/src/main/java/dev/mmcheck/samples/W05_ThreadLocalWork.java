package dev.mmcheck.samples;

/**
 * W05 — Benchmark workload: mostly thread-local work. Two threads each update their own objects (a
 * small array of counters and a linked list they build and walk) for 300,000 steps (times
 * {@code -Dworkload.scale=N}), and publish a result through a volatile field every 10,000 steps: rare
 * sharing. Prints {@code elapsed-ms=N}.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar W05_ThreadLocalWork} (with and without the agent).
 */
public final class W05_ThreadLocalWork implements Runnable {

    private static final int STEPS = 300_000 * Integer.getInteger("workload.scale", 1);

    /** A thread's own state. */
    static final class Local {
        final long[] counters = new long[16];
        Cell list;
    }

    /** A cell of a thread's own list. */
    static final class Cell {
        final long value;
        final Cell next;

        Cell(long value, Cell next) {
            this.value = value;
            this.next = next;
        }
    }

    private volatile long published;

    private void work() {
        Local l = new Local();
        for (int i = 0; i < STEPS; i++) {
            l.counters[i & 15] += i;
            if ((i & 63) == 0) {
                l.list = new Cell(i, (i & 4095) == 0 ? null : l.list);
            }
            if (i % 10_000 == 0) {
                long s = 0;
                for (Cell c = l.list; c != null; c = c.next) {
                    s += c.value;
                }
                published = s + l.counters[0];
            }
        }
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        Thread a = new Thread(this::work, "T1");
        Thread b = new Thread(this::work, "T2");
        a.start();
        b.start();
        Samples.join(a);
        Samples.join(b);
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("W05_ThreadLocalWork: published=" + published + " elapsed-ms=" + ms);
    }
}
