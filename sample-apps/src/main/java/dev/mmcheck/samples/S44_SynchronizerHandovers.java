package dev.mmcheck.samples;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Exchanger;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * S44 — A record of two plain fields handed from one thread to another through each of the JDK's synchronizers
 * whose edge runs across objects: a condition's signal to its await (the lock's queue), a read-write lock's write
 * lock to its read lock, a blocking queue's put to its take, a completable future's completion to a stage that runs
 * on another thread and to its join, an exchanger, a semaphore's release to its acquire, a phaser child's arrival to
 * a sibling's advance (their root), a concurrent map's put to a reader iterating its values, and an unpark to a park.
 * Correct on every model; a hand-over mmcheck did not see as one could let the checker take the reader's loads before
 * the writer's synchronization, the message-passing pattern under PSO. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S44_SynchronizerHandovers}.
 */
@Expected(tso = false, pso = false, why = "every hand-over synchronizes, through the object the JDK synchronizes on")
public final class S44_SynchronizerHandovers implements Runnable {

    private static final int ROUNDS = 150;

    /** What is handed over: written before the hand-over, read after it. */
    private static final class Box {
        int first;
        int second;
    }

    private long sum;

    private static Box box(int r) {
        Box b = new Box();
        b.first = r;
        b.second = r + 1;
        return b;
    }

    private void read(Box b) {
        sum += b.second - b.first;
    }

    @Override
    public void run() {
        condition();
        readWrite();
        queue();
        future();
        exchanger();
        semaphore();
        phaser();
        mapIteration();
        park();
        System.out.println("S44_SynchronizerHandovers: " + sum);
    }

    private Box shared;
    private boolean ready;

    /** Signal and await on a condition of a ReentrantLock. */
    private void condition() {
        ReentrantLock lock = new ReentrantLock();
        Condition full = lock.newCondition();
        Condition empty = lock.newCondition();
        both(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                lock.lock();
                try {
                    while (ready) {
                        full.await();
                    }
                    shared = box(r);
                    ready = true;
                    empty.signal();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                } finally {
                    lock.unlock();
                }
            }
        }, () -> {
            for (int r = 0; r < ROUNDS; r++) {
                lock.lock();
                try {
                    while (!ready) {
                        empty.await();
                    }
                    read(shared);
                    ready = false;
                    full.signal();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                } finally {
                    lock.unlock();
                }
            }
        });
    }

    private int published;

    /** A write lock's unlock to a read lock's lock. */
    private void readWrite() {
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        both(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                rw.writeLock().lock();
                shared = box(r);
                published = r + 1;
                rw.writeLock().unlock();
            }
        }, () -> {
            for (int seen = 0; seen < ROUNDS; ) {
                rw.readLock().lock();
                if (published > seen) {
                    read(shared);
                    seen = published;
                }
                rw.readLock().unlock();
                Rounds.pause();
            }
        });
    }

    /** A blocking queue's put to its take. */
    private void queue() {
        BlockingQueue<Box> q = new ArrayBlockingQueue<>(4);
        both(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                put(q, box(r));
            }
        }, () -> {
            for (int r = 0; r < ROUNDS; r++) {
                read(take(q));
            }
        });
    }

    /** A completion to a join, and to a stage run on the common pool. */
    private void future() {
        for (int r = 0; r < ROUNDS / 10; r++) {
            CompletableFuture<Box> f = new CompletableFuture<>();
            CompletableFuture<Box> later = f.thenApplyAsync(b -> {
                b.second++;
                return b;
            });
            int round = r;
            Thread t = new Thread(() -> f.complete(box(round)), "completer");
            t.start();
            try {
                Box b = later.get();
                b.second--;
                read(b);
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
            Samples.join(t);
        }
    }

    /** An exchanger: each side's box to the other. */
    private void exchanger() {
        Exchanger<Box> ex = new Exchanger<>();
        both(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                read(exchange(ex, box(r)));
            }
        }, () -> {
            for (int r = 0; r < ROUNDS; r++) {
                read(exchange(ex, box(r)));
            }
        });
    }

    /** A semaphore's release to its acquire. */
    private void semaphore() {
        Semaphore given = new Semaphore(0);
        Semaphore taken = new Semaphore(0);
        both(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                shared = box(r);
                given.release();
                taken.acquireUninterruptibly();
            }
        }, () -> {
            for (int r = 0; r < ROUNDS; r++) {
                given.acquireUninterruptibly();
                read(shared);
                taken.release();
            }
        });
    }

    /** Two children of one phaser: each advances when both arrived, through their root. */
    private void phaser() {
        Phaser root = new Phaser();
        Phaser left = new Phaser(root, 1);
        Phaser right = new Phaser(root, 1);
        Box[] slot = new Box[2];
        both(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                slot[0] = box(r);
                left.arriveAndAwaitAdvance();
                read(slot[1]);
                left.arriveAndAwaitAdvance();
            }
        }, () -> {
            for (int r = 0; r < ROUNDS; r++) {
                slot[1] = box(r);
                right.arriveAndAwaitAdvance();
                read(slot[0]);
                right.arriveAndAwaitAdvance();
            }
        });
    }

    /** A map's put to a reader iterating its values. */
    private void mapIteration() {
        Map<Integer, Box> map = new ConcurrentHashMap<>();
        both(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                map.put(r, box(r));
            }
        }, () -> {
            int seen = 0;
            while (seen < ROUNDS) {
                seen = 0;
                for (Box b : map.values()) {
                    read(b);
                    seen++;
                }
                Rounds.pause();
            }
        });
    }

    private volatile Thread parked;
    private volatile int turn;

    /** An unpark to a park that returns (a turn flag, volatile, says whose turn it is; the box is plain). */
    private void park() {
        Box[] slot = new Box[1];
        Thread reader = new Thread(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                while (turn != 2 * r + 1) {
                    LockSupport.park(this);
                }
                read(slot[0]);
                turn = 2 * r + 2;
            }
        }, "parked");
        parked = reader;
        reader.start();
        for (int r = 0; r < ROUNDS; r++) {
            slot[0] = box(r);
            turn = 2 * r + 1;
            LockSupport.unpark(reader);
            while (turn != 2 * r + 2) {
                Rounds.pause();
            }
        }
        Samples.join(reader);
    }

    private static void both(Runnable writer, Runnable reader) {
        Thread w = new Thread(writer, "writer");
        Thread r = new Thread(reader, "reader");
        w.start();
        r.start();
        Samples.join(w);
        Samples.join(r);
    }

    private static void put(BlockingQueue<Box> q, Box b) {
        try {
            q.put(b);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Box take(BlockingQueue<Box> q) {
        try {
            return q.take();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Box exchange(Exchanger<Box> ex, Box b) {
        try {
            return ex.exchange(b);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
