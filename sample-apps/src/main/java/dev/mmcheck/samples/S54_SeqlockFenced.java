package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S54 — S52 fixed: the reader puts {@code VarHandle.acquireFence()} right before it re-reads the version. The fence
 * keeps the coordinate reads before the re-read: if a reader read a coordinate written after the odd version (and the
 * writer's {@code storeStoreFence}), the re-read must see that odd version or a newer one, the two versions differ,
 * and the reader throws the point away. A reader that reads one coordinate of a newer update and one of an older
 * update still reads torn data, and plain robustness calls that read non-SC; but the re-read that follows must then
 * see a newer version than the first read saw, so the access-mode analysis drops it as a read the validation throws
 * away (validated reads, docs/jmm-model.md, "Seqlocks"; the run's notes count them). The reader reads the coordinates
 * in the order the writer writes them, so PSO has no reordered stores to see. Expected: TSO clean, PSO clean, JMM
 * clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S54_SeqlockFenced}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.CLEAN,
        why = "the acquire fence before the re-read makes a torn read fail the validation")
public final class S54_SeqlockFenced implements Runnable {

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
            VERSION.setOpaque(this, v + 1);
            VarHandle.storeStoreFence(); // the coordinates' writes stay after the odd version
            x = nx;
            y = ny;
            z = nz;
            VERSION.setRelease(this, v + 2);
        }

        /** x * 1_000_000 + y * 1000 + z of a consistent point, or -1 after too many retries. */
        int read() {
            for (int tries = 0; tries < 1000; tries++) {
                int v1 = (int) VERSION.getAcquire(this);
                if ((v1 & 1) != 0) {
                    Thread.onSpinWait();
                    continue;
                }
                int px = x;
                int py = y;
                int pz = z;
                VarHandle.acquireFence(); // the coordinate reads stay before the re-read
                int v2 = (int) VERSION.getAcquire(this);
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
        System.out.println("S54_SeqlockFenced: torn points kept in " + torn + " reads");
    }
}
