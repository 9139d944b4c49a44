package dev.mmcheck.samples;

/**
 * S09 — The same racy publication as S08, but the field is final: the Java memory model freezes final
 * fields at the end of the constructor (a StoreStore fence), so a reader that sees the reference sees
 * the field initialized, on every model. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S09_FinalFieldPublication}.
 */
@Expected(tso = false, pso = false, why = "final fields are frozen at the end of the constructor")
public final class S09_FinalFieldPublication implements Runnable {

    /** A holder whose field is final. */
    static final class Holder {
        final int value;

        Holder(int v) {
            value = v;
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
                sum += h.value;
            }
            ack = 1;
        });
        System.out.println("S09_FinalFieldPublication: done");
    }
}
