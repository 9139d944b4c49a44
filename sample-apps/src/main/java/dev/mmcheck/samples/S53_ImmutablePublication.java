package dev.mmcheck.samples;

/**
 * S53 — An immutable object published by a race: the writer stores a new {@code Limits}, whose fields are
 * final, into a plain field; the reader reads that field and, through it, the limits. The reference itself may
 * be stale, but the fields read through it show the constructor's values (JLS 17.5: final field semantics; the
 * constructor's end is a freeze, a StoreStore barrier on ARM): there is nothing to fix. The same object with
 * plain fields is S48's bug. Expected: TSO clean, PSO clean, JMM clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar=models=tso:pso:jmm -jar sample-apps/target/sample-apps.jar S53_ImmutablePublication}.
 */
@Expected(tso = false, pso = false, jmm = Expected.Jmm.CLEAN,
        why = "final fields read through the published reference show the constructor's values")
public final class S53_ImmutablePublication implements Runnable {

    /** Limits that never change once made. */
    static final class Limits {
        final int low;
        final int high;

        Limits(int low, int high) {
            this.low = low;
            this.high = high;
        }
    }

    /** Where the current limits are published, with a plain field: a race, but a benign one. */
    static final class Holder {
        Limits current;
    }

    private Holder holder = new Holder();
    private int broken;

    @Override
    public void run() {
        Rounds.run(2000, () -> holder = new Holder(), k -> holder.current = new Limits(k, k + 10), k -> {
            for (int i = 0; i < 100; i++) {
                Limits l = holder.current;
                if (l != null) {
                    if (l.high - l.low != 10) {
                        broken++;
                    }
                    return;
                }
                Thread.onSpinWait();
            }
        });
        System.out.println("S53_ImmutablePublication: limits seen half-made " + broken + " times");
    }
}
