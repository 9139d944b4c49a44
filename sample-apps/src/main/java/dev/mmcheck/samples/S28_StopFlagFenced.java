package dev.mmcheck.samples;

import java.lang.invoke.VarHandle;

/**
 * S28 — S27 with the fix as a fence: a writer stores two results, runs a full fence, then clears a
 * plain flag; a reader spins on the flag, runs a full fence, then reads the results. The writer's fence
 * commits both results before the flag is even stored, so on TSO and PSO a reader that saw the flag
 * sees them. Clean. (The plain flag is still a data race under the Java memory model; the fences are
 * what orders the hardware.) Repeated over many rounds with fresh objects: under {@code sample=R}
 * the results' object is often drawn while the flag's is not, so the only order between the writer's
 * fence and the reader's reads runs through accesses that are not logged, and the checker must not
 * report the results' stores as still buffered (docs/sampling.md, "Fences and the merge").
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=sample=0.5 -jar sample-apps/target/sample-apps.jar S28_StopFlagFenced}.
 */
@Expected(tso = false, pso = false, why = "a full fence on each side orders the results and the flag")
public final class S28_StopFlagFenced implements Runnable {

    /** The results handed over. */
    static final class Results {
        int x;
        int y;
    }

    /** The plain flag the reader waits for. */
    static final class Flag {
        boolean running = true;
    }

    private static final int ROUNDS = 500;

    @Override
    public void run() {
        long seen = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Results r = new Results();
            Flag flag = new Flag();
            int[] read = new int[2];
            Thread reader = new Thread(() -> {
                while (flag.running) {
                    Thread.yield();
                }
                VarHandle.fullFence();
                read[0] = r.y;
                read[1] = r.x;
            }, "reader");
            Thread writer = new Thread(() -> {
                r.x = 1;
                r.y = 1;
                VarHandle.fullFence();
                flag.running = false;
            }, "writer");
            reader.start();
            writer.start();
            Samples.join(writer);
            Samples.join(reader);
            seen += read[0] + read[1];
        }
        System.out.println("S28_StopFlagFenced: the readers saw " + seen + " of " + 2 * ROUNDS);
    }
}
