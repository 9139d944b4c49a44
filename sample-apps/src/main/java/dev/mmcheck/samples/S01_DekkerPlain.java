package dev.mmcheck.samples;

/**
 * S01 — Dekker's mutual exclusion with plain fields. Expected verdict: TSO and PSO violation.
 *
 * <p>Each thread raises its own flag and then reads the other's. Under sequential consistency at most
 * one thread can read 0. On x86 (TSO) each store can still sit in its core's store buffer when the
 * other core's load runs, so both read 0 and both enter the critical section.
 *
 * <p>Run: {@code java -jar sample-apps/target/sample-apps.jar S01_DekkerPlain}. The trace
 * sample-apps/traces/S01_DekkerPlain.trace is one sequentially consistent run of it; replay it with
 * {@code ./mmcheck replay sample-apps/traces/S01_DekkerPlain.trace}.
 */
public final class S01_DekkerPlain implements Runnable {

    private int flag1;
    private int flag2;
    private int inside;
    private int bothInside;

    private void thread1() {
        flag1 = 1;
        if (flag2 == 0) {
            critical();
        }
    }

    private void thread2() {
        flag2 = 1;
        if (flag1 == 0) {
            critical();
        }
    }

    private void critical() {
        synchronized (this) {
            if (++inside > 1) {
                bothInside++;
            }
        }
    }

    @Override
    public void run() {
        int rounds = 20_000;
        int broken = 0;
        for (int i = 0; i < rounds; i++) {
            S01_DekkerPlain d = new S01_DekkerPlain();
            Thread a = new Thread(d::thread1, "T1");
            Thread b = new Thread(d::thread2, "T2");
            a.start();
            b.start();
            Samples.join(a);
            Samples.join(b);
            broken += d.bothInside;
        }
        System.out.println("S01_DekkerPlain: both threads in the critical section in " + broken + " of " + rounds
                + " rounds (any number above 0 is a store-buffer reordering seen on this machine)");
    }
}
