package dev.mmcheck.samples;

import java.util.concurrent.locks.StampedLock;

/**
 * S55 — The seqlock Java ships: {@code StampedLock}'s optimistic read, used as its javadoc shows. The writer moves
 * a point under the write lock; the reader takes a stamp with {@code tryOptimisticRead}, reads the coordinates, and
 * keeps them only if {@code validate(stamp)} says no writer came in between, else reads again under the read lock.
 * A reader can read one coordinate of a newer move and one of an older one; the model calls such a read non-SC,
 * but {@code validate} (an acquire fence and a read of the lock's state, in the JDK) must then see the writer's
 * lock, because taking the write lock ends with a {@code storeStoreFence}: the torn point is thrown away. The agent
 * logs the StampedLock calls as what the JDK does inside them (docs/mapping.md), and the access-mode analysis drops
 * such reads as validated (docs/jmm-model.md, "Seqlocks"). Expected: TSO clean, PSO clean, JMM clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S55_StampedLockOptimistic}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.CLEAN,
        why = "validate sees the write lock taken before any coordinate it could read torn")
public final class S55_StampedLockOptimistic implements Runnable {

    /** A point moved by one thread and read by others, as StampedLock's javadoc does it. */
    static final class Point {
        private final StampedLock lock = new StampedLock();
        private int x;
        private int y;
        private int z;

        void move(int nx, int ny, int nz) {
            long stamp = lock.writeLock();
            try {
                x = nx;
                y = ny;
                z = nz;
            } finally {
                lock.unlockWrite(stamp);
            }
        }

        /** x * 1_000_000 + y * 1000 + z of a consistent point. */
        int read() {
            long stamp = lock.tryOptimisticRead();
            int px = x;
            int py = y;
            int pz = z;
            if (!lock.validate(stamp)) {
                stamp = lock.readLock();
                try {
                    px = x;
                    py = y;
                    pz = z;
                } finally {
                    lock.unlockRead(stamp);
                }
            }
            return px * 1_000_000 + py * 1000 + pz;
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
                if (p / 1_000_000 != p % 1000 || p / 1000 % 1000 != p % 1000) {
                    torn++;
                }
            }
            readerDone = true;
        });
        System.out.println("S55_StampedLockOptimistic: torn points kept in " + torn + " reads");
    }
}
