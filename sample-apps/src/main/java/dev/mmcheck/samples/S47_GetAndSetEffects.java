package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S47 — S46 with a get-and-set (jcstress' {@code RMW_09_GAS_Effects}, {@code GAS_CAS}): the first thread writes
 * the plain {@code x}, then {@code getAndSet(y, 0)}; the second CASes {@code y} from 0 to 1 and reads {@code x}.
 * The get-and-set is one atomic action that drains the store buffer before it reads, so no TSO or PSO
 * execution has both threads read 0 (jcstress forbids it, and AArch64 never shows it). Expected: clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S47_GetAndSetEffects}.
 */
@Expected(tso = false, pso = false, why = "the get-and-set drains the write of x before it reads y")
public final class S47_GetAndSetEffects implements Runnable {

    /** The test's state, new in every round (jcstress' {@code @State}). */
    static final class State {
        static final VarHandle Y;

        static {
            try {
                Y = MethodHandles.lookup().findVarHandle(State.class, "y", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        int x;
        volatile int y;

        int actor1() {
            x = 1;
            return (int) Y.getAndSet(this, 0);
        }

        int actor2() {
            Y.compareAndSet(this, 0, 1);
            return x;
        }
    }

    private State state = new State();
    private final int[] r = {-1, -1}; // each round's results; -1 before the first
    private int both;

    @Override
    public void run() {
        Rounds.run(2000, () -> {
            if (r[0] == 0 && r[1] == 0) {
                both++;
            }
            r[0] = -1;
            r[1] = -1;
            state = new State();
        }, k -> r[0] = state.actor1(), k -> r[1] = state.actor2());
        if (r[0] == 0 && r[1] == 0) { // the last round's
            both++;
        }
        System.out.println("S47_GetAndSetEffects: both read 0 in " + both + " rounds (0 expected on every machine)");
    }
}
