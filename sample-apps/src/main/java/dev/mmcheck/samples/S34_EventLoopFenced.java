package dev.mmcheck.samples;

/**
 * S34 — The event loop of S33 with the fix: the loop clears {@code wakenUp} with a volatile {@code set(0)},
 * a full fence between the flag and its look at the queue. Either the loop sees the task, or the submitter's
 * {@code getAndSet} sees the flag clear and wakes it.
 *
 * <p>Expected: clean under TSO and PSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S34_EventLoopFenced}.
 */
@Expected(tso = false, pso = false, why = "a volatile store of wakenUp before the loop reads the queue")
public final class S34_EventLoopFenced implements Runnable {

    @Override
    public void run() {
        EventLoop.run("S34_EventLoopFenced", 3000, wakenUp -> wakenUp.set(0));
    }
}
