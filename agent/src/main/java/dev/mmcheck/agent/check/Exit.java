package dev.mmcheck.agent.check;

import dev.mmcheck.runtime.Stripes;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** The checker thread's last drain at exit, once the application has stopped logging (EventLog is closed). */
final class Exit {

    private static final long QUIESCE_NANOS = 2_000_000_000L;

    private Exit() {
    }

    /**
     * Quiesces, then runs {@code pass} (one round over the logs, true when it took an event) until three rounds two
     * milliseconds apart take nothing; returns the stripes still held when quiescing gave up on them.
     */
    static long drain(BooleanSupplier pass) {
        // an access that was in its probes when the log closed holds its stripe until it has logged
        long held = quiesce(pass);
        for (int quiet = 0; quiet < 3;) {
            if (pass.getAsBoolean()) {
                quiet = 0;
            } else {
                quiet++;
                LockSupport.parkNanos(2_000_000L);
            }
        }
        return held;
    }

    /**
     * Takes and releases every stripe once, draining meanwhile (a producer holding a stripe may wait for
     * room in its log). After this, no access that began before the log closed is still to be logged:
     * it holds its stripe until it has logged, and one that takes its stripe later sees the log closed.
     * A stripe still held after {@link #QUIESCE_NANOS} (a user function of getAndUpdate blocking at
     * exit) is counted, not waited for.
     */
    private static long quiesce(BooleanSupplier pass) {
        long held = 0;
        long deadline = System.nanoTime() + QUIESCE_NANOS;
        for (int s = 0; s < Stripes.COUNT; s++) {
            boolean taken = Stripes.tryLock(s);
            while (!taken && System.nanoTime() <= deadline) {
                if (!pass.getAsBoolean()) {
                    Thread.yield();
                }
                taken = Stripes.tryLock(s);
            }
            if (taken) {
                Stripes.unlock(s);
            } else {
                held++;
            }
        }
        return held;
    }
}
