package dev.mmcheck.samples;

/**
 * S08 — Unsafe publication: an object with a plain (non-final) field is constructed and its reference
 * stored in a plain field; the reader follows the reference and reads the field. On PSO the reference
 * can become visible before the constructor's store, so the reader can see the object uninitialized.
 * TSO keeps the stores in order.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S08_UnsafePublication}.
 */
@Expected(tso = false, pso = true, why = "the constructor's store and the publishing store can commit out of order")
public final class S08_UnsafePublication implements Runnable {

    /** A holder whose field is not final. */
    static final class Holder {
        int value;

        Holder(int v) {
            value = v; // mmcheck:store
        }
    }

    private Holder shared;
    private int ack;
    private long sum;

    @Override
    public void run() {
        Rounds.run(3000, () -> {
            shared = null;
            ack = 0;
        }, r -> {
            shared = new Holder(r + 1);
            for (int spins = 0; ack == 0 && spins < 2000; spins++) {
                Rounds.pause();
            }
        }, r -> {
            Holder h = shared;
            for (int spins = 0; h == null && spins < 2000; spins++) {
                Rounds.pause();
                h = shared;
            }
            if (h != null) {
                sum += h.value; // mmcheck:access
            }
            ack = 1;
        });
        System.out.println("S08_UnsafePublication: done");
    }
}
