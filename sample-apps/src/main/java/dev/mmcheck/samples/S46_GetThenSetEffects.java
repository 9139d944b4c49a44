package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S46 — A read and a write where a get-and-set belongs (jcstress' {@code RMW_09_GAS_Effects}, {@code GTS_CAS}):
 * the first thread writes the plain {@code x}, reads the volatile {@code y}, then writes {@code y = 0}; the
 * second thread CASes {@code y} from 0 to 1 and reads {@code x}. Under TSO the write of {@code x} can wait in
 * the store buffer past the read of {@code y}; the second thread's CAS and its read of {@code x} fit between
 * that read and the volatile write that drains the buffer, and both threads see 0: the outcome jcstress sees
 * on AArch64. The read and the write are two actions, not one; S47 makes them one {@code getAndSet}.
 *
 * <p>The window is between the read of {@code y} and the volatile write: schedule=active's fourth rule
 * (docs/schedules.md) pauses the first thread there.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S46_GetThenSetEffects}.
 */
@Expected(tso = true, pso = true, why = "the write of x can stay buffered past the read of y, until the volatile write")
public final class S46_GetThenSetEffects implements Runnable {

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
            x = 1; // mmcheck:store
            int t = y; // mmcheck:access
            y = 0;
            return t;
        }

        int actor2() {
            Y.compareAndSet(this, 0, 1); // mmcheck:access
            return x; // mmcheck:access
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
        System.out.println("S46_GetThenSetEffects: both read 0 in " + both + " rounds");
    }
}
