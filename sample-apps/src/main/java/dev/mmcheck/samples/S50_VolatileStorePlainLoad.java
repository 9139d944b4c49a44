package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S50 — Dekker with the flags volatile on write only: each of two parties raises its flag in a shared
 * {@code int[]} with {@code setVolatile}, then reads the other's flag with a plain array read, and enters
 * when that flag is down. On x86 the volatile store's fence keeps the read after it, so TSO and PSO are
 * clean; on ARM a {@code stlr} does not order a later plain {@code ldr}, and the JIT may move the plain read
 * above the volatile store too: both parties can read 0 and enter together. The access-mode model reports
 * the read of the other's flag, with the write it may miss. The fix: read the flag with {@code getVolatile}
 * (S51). Expected: TSO clean, PSO clean, JMM violation.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S50_VolatileStorePlainLoad}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.VIOLATION,
        why = "a volatile store does not keep a later plain load of the other flag after it")
public final class S50_VolatileStorePlainLoad implements Runnable {

    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(int[].class);

    /** Two parties' flags: a party is inside while its flag is up. */
    static final class Gate {
        final int[] flags = new int[2];
        volatile int holder = -1; // who is inside, to notice two parties inside at once

        /** Party {@code me} tries to go in: true when it did (then it must {@link #leave}). */
        boolean tryEnter(int me) {
            FLAGS.setVolatile(flags, me, 1); // mmcheck:store
            if (flags[1 - me] == 0) { // mmcheck:access
                return true;
            }
            FLAGS.setVolatile(flags, me, 0); // mmcheck:store
            return false;
        }

        void leave(int me) {
            FLAGS.setVolatile(flags, me, 0); // mmcheck:store
        }
    }

    private Gate gate = new Gate();
    private final int[] overlaps = new int[2]; // per party: rounds in which it saw the other inside with it

    @Override
    public void run() {
        Rounds.run(2000, () -> gate = new Gate(), k -> party(0), k -> party(1));
        System.out.println("S50_VolatileStorePlainLoad: two parties inside at once in " + (overlaps[0] + overlaps[1])
                + " rounds");
    }

    private void party(int me) {
        Gate g = gate;
        if (g.tryEnter(me)) { // mmcheck:call
            g.holder = me;
            Thread.onSpinWait();
            if (g.holder != me) {
                overlaps[me]++;
            }
            g.leave(me); // mmcheck:call
        }
    }
}
