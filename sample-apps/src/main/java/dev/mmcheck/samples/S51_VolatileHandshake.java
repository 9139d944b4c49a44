package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S51 — S50 with the flags read as they are written, with {@code getVolatile}: volatile accesses are totally
 * ordered (the synchronization order), so at most one party reads the other's flag down and enters.
 * Expected: TSO clean, PSO clean, JMM clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S51_VolatileHandshake}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.CLEAN,
        why = "volatile writes and volatile reads of the flags are in one synchronization order")
public final class S51_VolatileHandshake implements Runnable {

    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(int[].class);

    /** Two parties' flags: a party is inside while its flag is up. */
    static final class Gate {
        final int[] flags = new int[2];
        volatile int holder = -1; // who is inside, to notice two parties inside at once

        /** Party {@code me} tries to go in: true when it did (then it must {@link #leave}). */
        boolean tryEnter(int me) {
            FLAGS.setVolatile(flags, me, 1);
            if ((int) FLAGS.getVolatile(flags, 1 - me) == 0) {
                return true;
            }
            FLAGS.setVolatile(flags, me, 0);
            return false;
        }

        void leave(int me) {
            FLAGS.setVolatile(flags, me, 0);
        }
    }

    private Gate gate = new Gate();
    private final int[] overlaps = new int[2]; // per party: rounds in which it saw the other inside with it

    @Override
    public void run() {
        Rounds.run(2000, () -> gate = new Gate(), k -> party(0), k -> party(1));
        System.out.println("S51_VolatileHandshake: two parties inside at once in " + (overlaps[0] + overlaps[1])
                + " rounds");
    }

    private void party(int me) {
        Gate g = gate;
        if (g.tryEnter(me)) {
            g.holder = me;
            Thread.onSpinWait();
            if (g.holder != me) {
                overlaps[me]++;
            }
            g.leave(me);
        }
    }
}
