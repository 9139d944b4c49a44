package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The event loop of samples S33 and S34, written as Netty's {@code NioEventLoop} is: the loop clears its
 * {@code wakenUp} flag, looks at its task queue, and blocks in {@code select} (here a timed park) when it
 * is empty; a submitter adds a task and then sets {@code wakenUp}, waking the loop only when it found the
 * flag clear. The queue is a multi-producer single-consumer ring in JCTools' style: producers claim a slot
 * with a CAS on the producer index and publish the task with an ordered store; the consumer polls slots in
 * order and publishes its index with a volatile store (JCTools uses an ordered store there: a producer's
 * capacity check can then read a stale consumer index while the consumer's next poll finds the producer's slot
 * still empty, a store-buffering reordering that mmcheck rightly reports and that is benign by design, since the
 * producer only sees the queue fuller than it is; the volatile store keeps the samples to the wake-up's race);
 * {@code isEmpty} compares the two indices. How the loop
 * clears the flag is the sample's choice: {@link #run} takes it.
 */
final class EventLoop {

    /** How the loop clears {@code wakenUp} before it looks at its queue. */
    interface Clear {
        /** Clears the flag. */
        void clear(AtomicInteger wakenUp);
    }

    private static final int CAPACITY = 256;

    private final AtomicLong producerIndex = new AtomicLong();
    private final AtomicLong consumerIndex = new AtomicLong();
    private final AtomicReferenceArray<Runnable> buffer = new AtomicReferenceArray<>(CAPACITY);
    private final AtomicInteger wakenUp = new AtomicInteger();
    private volatile Thread loopThread;
    private long ran;
    private long selects;
    private long woken;

    /** Adds a task: false when the queue is full. Any thread. */
    private boolean offer(Runnable task) {
        long p;
        do {
            p = producerIndex.get();
            if (p - consumerIndex.get() >= CAPACITY) {
                return false;
            }
        } while (!producerIndex.compareAndSet(p, p + 1));
        buffer.lazySet((int) (p % CAPACITY), task);
        return true;
    }

    /** The next task, or null. The loop thread only. */
    private Runnable poll() {
        long c = consumerIndex.get();
        int slot = (int) (c % CAPACITY);
        Runnable task = buffer.get(slot);
        if (task == null) {
            return null; // empty, or a producer has claimed the slot and not yet published the task
        }
        buffer.lazySet(slot, null);
        consumerIndex.set(c + 1); // volatile: see the class comment
        return task;
    }

    /** Whether no task has been claimed since the consumer's last poll. */
    private boolean isEmpty() {
        return consumerIndex.get() == producerIndex.get(); // mmcheck:access
    }

    /** The loop: runs tasks until {@code total} have run, blocking in a timed "select" when the queue is empty. */
    private void loop(int total, Clear clear) {
        loopThread = Thread.currentThread();
        while (ran < total) {
            clear.clear(wakenUp);
            if (isEmpty()) {
                selects++;
                LockSupport.parkNanos(this, 200_000L); // select(timeout): the wake-up or the timeout ends it
            }
            Runnable task;
            while ((task = poll()) != null) { // runAllTasks
                task.run();
                ran++;
            }
        }
    }

    /** Submits {@code total} tasks, waking the loop when it found the flag clear, as {@code execute} does. */
    private void submit(int total) {
        long sink = 0;
        for (int i = 0; i < total; i++) {
            while (!offer(() -> { })) {
                Thread.onSpinWait();
            }
            if (wakenUp.getAndSet(1) == 0) { // mmcheck:access
                woken++;
                Thread loop = loopThread;
                if (loop != null) {
                    LockSupport.unpark(loop); // selector.wakeup()
                }
            }
            for (int k = 0; k < 200 + (i % 7) * 100; k++) { // the submitter's own work between tasks
                sink += k * 31L ^ i;
            }
        }
        if (sink == 42) {
            System.out.print("");
        }
    }

    /** Runs the loop against one submitter of {@code total} tasks, printing {@code name}'s summary line. */
    static void run(String name, int total, Clear clear) {
        EventLoop e = new EventLoop();
        Thread loop = new Thread(() -> e.loop(total, clear), "event-loop");
        Thread submitter = new Thread(() -> e.submit(total), "submitter");
        loop.start();
        submitter.start();
        Samples.join(submitter);
        Samples.join(loop);
        System.out.println(name + ": " + e.ran + " tasks run, " + e.selects + " selects, " + e.woken + " wake-ups");
    }
}
