package dev.mmcheck.samples;

import java.util.concurrent.ConcurrentHashMap;

/**
 * S31 — S01 with a ConcurrentHashMap read between each thread's store and load. A read of a concurrent
 * map is an acquire (its specification: an insertion happens-before a retrieval that sees it), not a
 * fence: on x86 {@code get} makes plain loads, so a flag store can still be in its core's store buffer
 * after it and both threads can read 0. Only the map's writes (put, compute...) are atomic updates
 * that drain the buffer. The agent logs a read of a ConcurrentHashMap as a load, so the race is found;
 * it logs every other call into java.util.concurrent as a full fence, so the same code with a
 * {@code put} in the middle is clean under the agent.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S31_DekkerAroundMapRead}.
 */
@Expected(tso = true, pso = true, why = "a map read between a store and a load is no fence: store buffering")
public final class S31_DekkerAroundMapRead implements Runnable {

    private final ConcurrentHashMap<String, Integer> settings = new ConcurrentHashMap<>();
    private int flag1;
    private int flag2;
    private int entered;

    private void thread1() {
        flag1 = 1; // mmcheck:store
        settings.get("mode");
        if (flag2 == 0) { // mmcheck:access
            entered++;
            Rounds.pause();
        }
    }

    private void thread2() {
        flag2 = 1; // mmcheck:store
        settings.get("mode");
        if (flag1 == 0) { // mmcheck:access
            entered++;
            Rounds.pause();
        }
    }

    @Override
    public void run() {
        settings.put("mode", 1);
        int[] both = new int[1];
        Rounds.run(3000, () -> {
            both[0] += entered > 1 ? 1 : 0;
            flag1 = 0;
            flag2 = 0;
            entered = 0;
        }, r -> thread1(), r -> thread2());
        System.out.println("S31_DekkerAroundMapRead: both threads entered in " + both[0] + " of 3000 rounds");
    }
}
