package dev.mmcheck.samples;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * S18 — Work handed to an ExecutorService and results taken back with Future.get: submit happens
 * before the task runs, and the task happens before get returns. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S18_ExecutorHandover}.
 */
@Expected(tso = false, pso = false, why = "submit and Future.get synchronize")
public final class S18_ExecutorHandover implements Runnable {

    /** State shared with the tasks through plain fields. */
    static final class Job {
        int input;
        int output;
        int done;
    }

    @Override
    public void run() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long sum = 0;
        try {
            for (int r = 0; r < 1000; r++) {
                Job job = new Job();
                job.input = r;
                Future<?> f = pool.submit(() -> {
                    job.output = job.input * 3;
                    job.done = 1;
                });
                f.get();
                if (job.done == 1) {
                    sum += job.output;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdown();
        }
        System.out.println("S18_ExecutorHandover: " + sum);
    }
}
