package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * S07 — Message passing fixed with release/acquire: the flag is published with
 * {@code VarHandle.setRelease} and read with {@code getAcquire}. The release store cannot become
 * visible before the data store, on any model: clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S07_MessagePassingRelease}.
 */
@Expected(tso = false, pso = false, why = "a release store commits after the thread's earlier stores")
public final class S07_MessagePassingRelease implements Runnable {

    private static final VarHandle READY;

    static {
        try {
            READY = MethodHandles.lookup().findVarHandle(S07_MessagePassingRelease.class, "ready", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int data;
    private int ready;
    private int seen;

    @Override
    public void run() {
        Rounds.run(3000, () -> {
            data = 0;
            READY.setVolatile(this, 0);
        }, r -> {
            data = r + 1;
            READY.setRelease(this, 1);
        }, r -> {
            if ((int) READY.getAcquire(this) == 1) {
                seen += data;
            }
        });
        System.out.println("S07_MessagePassingRelease: done");
    }
}
