package dev.mmcheck.samples;

/**
 * S33 — A lost wake-up in an event loop, the pattern of Netty's {@code NioEventLoop} (its
 * {@code wakenUp} flag; see {@link EventLoop}). Before it looks at its task queue and blocks, the loop
 * clears the flag with {@code lazySet(0)}, an ordered store; a submitter adds a task, then
 * {@code getAndSet(1)}s the flag and wakes the loop only if it was clear. The ordered store can still
 * be in the loop's store buffer when the loop reads the queue's producer index (x86 lets a load pass an
 * earlier store): the loop sees the queue empty while the submitter, its {@code getAndSet} ordered after
 * the task, sees the flag still set from before and does not wake it. The loop sleeps with a task in its
 * queue until its select times out (in Netty: a second, or forever). The fix is a full fence between the
 * two: {@code wakenUp.set(0)} (S34).
 *
 * <p>The loop's read of the producer index repeats the one it made when it last found the queue empty,
 * with no write since: mmcheck used to leave such a repeated load out of its log, and with it the edge
 * that closes this cycle; it now logs a repeated load whenever the thread has done anything since but
 * repeated loads (docs/agent.md, "Loads that are not logged").
 *
 * <p>Expected: a TSO (and PSO) violation, store at the {@code lazySet}, access at the submitter's
 * {@code getAndSet}. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S33_EventLoopLazySet}.
 */
@Expected(tso = true, pso = true, why = "the loop's ordered store of wakenUp, then its load of the producer index: store buffering")
public final class S33_EventLoopLazySet implements Runnable {

    @Override
    public void run() {
        EventLoop.run("S33_EventLoopLazySet", 3000, wakenUp -> wakenUp.lazySet(0)); // mmcheck:store
    }
}
