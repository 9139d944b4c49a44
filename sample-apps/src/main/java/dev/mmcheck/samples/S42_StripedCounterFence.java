package dev.mmcheck.samples;

import java.util.concurrent.atomic.LongAdder;

/**
 * S42 — Two threads ordered only through a {@code LongAdder}, as a lock-free queue library orders its slots: each
 * thread writes its flag, counts itself in with {@code increment()} and reads the other's flag (Dekker: the
 * increment is a CAS, a full fence), then a record is written and published by an increment that the reader waits
 * for with {@code sum()} (a volatile read of every cell). Correct on every model; mmcheck reported it under TSO and
 * PSO while it did not model {@code LongAdder} (every class of java.util.concurrent.atomic is modelled now:
 * docs/mapping.md). Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S42_StripedCounterFence}.
 */
@Expected(tso = false, pso = false, why = "LongAdder.increment is a full fence; sum() reads what it published")
public final class S42_StripedCounterFence implements Runnable {

    private static final int ROUNDS = 2000;

    private final LongAdder arrived = new LongAdder();
    private final LongAdder published = new LongAdder();
    private int flag1;
    private int flag2;
    private int entered;
    private int first;
    private int second;
    private long seen;

    @Override
    public void run() {
        Rounds.run(ROUNDS, () -> {
            flag1 = 0;
            flag2 = 0;
        }, r -> {
            flag1 = 1;
            arrived.increment();
            if (flag2 == 0) {
                entered++;
            }
            first = r;
            second = r + 1;
            published.increment();
        }, r -> {
            flag2 = 1;
            arrived.increment();
            if (flag1 == 0) {
                entered++;
            }
            while (published.sum() <= r) {
                Rounds.pause();
            }
            seen += second - first;
        });
        System.out.println("S42_StripedCounterFence: " + arrived.sum() + " " + seen);
    }
}
