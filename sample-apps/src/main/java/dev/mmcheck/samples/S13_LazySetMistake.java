package dev.mmcheck.samples;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * S13 — A common mistake: using {@code lazySet} (a release store) where a full fence is needed. A
 * release store orders the stores before it, but not the loads after it, so Dekker's protocol with
 * lazySet is as broken on TSO as with plain stores.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S13_LazySetMistake}.
 */
@Expected(tso = true, pso = true, why = "a release store can still be buffered when a later load runs")
public final class S13_LazySetMistake implements Runnable {

    private final AtomicInteger want1 = new AtomicInteger();
    private final AtomicInteger want2 = new AtomicInteger();
    private int entered;

    @Override
    public void run() {
        Rounds.run(3000, () -> {
            want1.set(0);
            want2.set(0);
            entered = 0;
        }, r -> {
            want1.lazySet(1); // mmcheck:store
            if (want2.get() == 0) { // mmcheck:access
                entered++;
                Rounds.pause(); // stays in the critical section a while, as a preemption would make it
            }
        }, r -> {
            want2.lazySet(1); // mmcheck:store
            if (want1.get() == 0) { // mmcheck:access
                entered++;
                Rounds.pause();
            }
        });
        System.out.println("S13_LazySetMistake: done");
    }
}
