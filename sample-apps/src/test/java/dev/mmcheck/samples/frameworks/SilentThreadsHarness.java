package dev.mmcheck.samples.frameworks;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads that end without an event of their own, started while the starting thread's log is far ahead of the
 * checker: what the LMAX Disruptor's tests do when their thread factory is told to ignore executions (its
 * threads run an empty Runnable, which has nothing to instrument). Run by ThreadLifecycleIT. Prints
 * {@code harness: silent threads ok}.
 */
public final class SilentThreadsHarness {

    /** A task with no accesses: the thread running it logs nothing. */
    static final class Empty implements Runnable {
        @Override
        public void run() {
        }
    }

    /** Logs stores without pause until told to stop: the checker falls behind, as in a busy suite. */
    static final class Busy extends Thread {
        final int[] data = new int[1 << 12];
        volatile boolean stop;

        Busy(String name) {
            super(name);
        }

        @Override
        public void run() {
            for (int i = 0; !stop; i++) {
                data[i & (data.length - 1)] += i;
            }
        }
    }

    private SilentThreadsHarness() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Busy a = new Busy("busy-a");
        Busy b = new Busy("busy-b");
        a.start();
        b.start();
        List<Thread> started = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            Thread t = new Thread(new Empty(), "silent-" + r);
            t.start(); // its start waits in this thread's log while the thread itself has long ended
            started.add(t);
            Thread.sleep(1);
        }
        for (Thread t : started) {
            t.join();
        }
        a.stop = true;
        b.stop = true;
        a.join();
        b.join();
        System.out.println("harness: silent threads ok");
    }
}
