package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S52 — A seqlock whose reader re-reads the version with {@code getAcquire} and no fence: the writer makes
 * the version odd, writes the three coordinates, and makes it even again with a release store; the reader
 * reads the version, the coordinates, and the version again, and keeps the coordinates when both versions
 * are the same even number. An acquire read keeps the reads after it after it, not the reads before it: on
 * ARM the coordinate reads may be satisfied after the second version read, which can then still see the old
 * version while a coordinate is already new: a torn point is kept. TSO and PSO keep loads in order and are
 * clean; the access-mode model reports the second version read. The fix: {@code VarHandle.acquireFence()}
 * right before the re-read. Expected: TSO clean, PSO clean, JMM violation.
 *
 * <p>The model also reports the coordinate reads when a reader reads one coordinate of a newer update and
 * another of an older one, and no fence makes the re-read see the newer version: those torn points can be kept too.
 * S54 is this seqlock fixed, clean: there the re-read validates such reads (docs/jmm-model.md, "Seqlocks").
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S52_SeqlockReread}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.VIOLATION,
        why = "the second acquire read of the version does not keep the coordinate reads before it")
public final class S52_SeqlockReread implements Runnable {

    /** A point written by one thread and read by others without a lock. */
    static final class Point {
        static final VarHandle VERSION;

        static {
            try {
                VERSION = MethodHandles.lookup().findVarHandle(Point.class, "version", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        int version;
        int x;
        int y;
        int z;

        void move(int nx, int ny, int nz) {
            int v = (int) VERSION.getOpaque(this); // the only writer
            VERSION.setOpaque(this, v + 1); // mmcheck:store
            VarHandle.storeStoreFence(); // the coordinates' writes stay after the odd version
            x = nx; // mmcheck:store
            y = ny; // mmcheck:store
            z = nz; // mmcheck:store
            VERSION.setRelease(this, v + 2); // mmcheck:store
        }

        /** x * 1_000_000 + y * 1000 + z of a consistent point, or -1 after too many retries. */
        int read() {
            for (int tries = 0; tries < 1000; tries++) {
                int v1 = (int) VERSION.getAcquire(this);
                if ((v1 & 1) != 0) {
                    Thread.onSpinWait();
                    continue;
                }
                int px = x; // mmcheck:access
                int py = y; // mmcheck:access
                int pz = z; // mmcheck:access
                int v2 = (int) VERSION.getAcquire(this); // mmcheck:access
                if (v1 == v2) {
                    return px * 1_000_000 + py * 1000 + pz;
                }
            }
            return -1;
        }
    }

    private Point point = new Point();
    private volatile boolean readerDone; // the writer keeps moving the point until the reader has read it
    private int torn;

    @Override
    public void run() {
        Rounds.run(400, () -> {
            point = new Point();
            readerDone = false;
        }, k -> {
            for (int i = 1; i <= 500 && !readerDone; i++) {
                point.move(i % 1000, i % 1000, i % 1000);
            }
        }, k -> {
            for (int i = 0; i < 10; i++) {
                int p = point.read();
                if (p >= 0 && (p / 1_000_000 != p % 1000 || p / 1000 % 1000 != p % 1000)) {
                    torn++;
                }
            }
            readerDone = true;
        });
        System.out.println("S52_SeqlockReread: torn points kept in " + torn + " reads");
    }
}
