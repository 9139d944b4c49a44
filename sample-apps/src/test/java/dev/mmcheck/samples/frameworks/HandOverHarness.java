package dev.mmcheck.samples.frameworks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * A pool's hand-over across a solo period (docs/agent.md, "What a period keeps"), made to happen every round; run
 * under the agent by SoloHandOverIT. Each round "owner" claims the entry with a CAS, writes the connection's fields
 * and frees the entry with {@code setOpaque} (S35's bug: under PSO the free state can commit before the fields),
 * while "claimer" sleeps; "owner" then works alone for 25 ms (its own array: long enough for the checker to grant it
 * a solo period) and sleeps with nothing fenced since; "claimer" wakes, claims the entry with a CAS and reads the
 * fields: its first event ends the owner's period. In odd rounds the owner frees the entry before it works alone
 * (its stores were logged, and stay buffered across the period), in even rounds after (the period leaves the stores
 * out, and its hand-over ring keeps them), or as the second argument says. The rounds begin at a barrier. A fence where the period ends, as mmcheck
 * made before, commits the owner's stores just before the claim: the PSO race is then not reported. Prints
 * {@code harness: hand-over ok, rounds=N} when it ends.
 */
public final class HandOverHarness {

    private static final int FREE = 0;
    private static final int IN_USE = 1;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Entry.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The pooled connection. */
    static final class Connection {
        long lastUsed;
        int statements;
    }

    /** Its entry in the pool. */
    static final class Entry {
        final Connection connection = new Connection();
        volatile int state;
    }

    private HandOverHarness() {
    }

    /** Runs {@code args[0]} rounds (default 6); {@code args[1]}: {@code before}, {@code after} or {@code both} (default). */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        String mode = args.length > 1 ? args[1] : "both";
        Entry entry = new Entry();
        CyclicBarrier round = new CyclicBarrier(2);
        long[] seen = new long[1];
        Thread owner = new Thread(() -> {
            long[] own = new long[512];
            for (int r = 1; r <= rounds; r++) {
                await(round);
                boolean before = mode.equals("before") || mode.equals("both") && r % 2 == 1;
                if (before) {
                    use(entry, r);
                }
                long until = System.nanoTime() + 25_000_000L;
                while (System.nanoTime() < until) { // alone: the checker grants a period
                    for (int i = 0; i < own.length; i++) {
                        own[i] += i;
                    }
                }
                if (!before) {
                    use(entry, r);
                }
                sleep(40); // nothing fenced since the release
            }
        }, "owner");
        Thread claimer = new Thread(() -> {
            for (int r = 1; r <= rounds; r++) {
                await(round);
                sleep(30);
                while (!STATE.compareAndSet(entry, FREE, IN_USE)) { // ends the owner's period
                    Thread.onSpinWait();
                }
                Connection c = entry.connection;
                seen[0] += c.lastUsed + c.statements; // the access: PSO lets the fields come after the free state
                STATE.setVolatile(entry, FREE);
            }
        }, "claimer");
        owner.start();
        claimer.start();
        owner.join();
        claimer.join();
        System.out.println("harness: hand-over ok, rounds=" + rounds + " (" + seen[0] + ")");
    }

    private static void use(Entry entry, int r) {
        while (!STATE.compareAndSet(entry, FREE, IN_USE)) {
            Thread.onSpinWait();
        }
        Connection c = entry.connection;
        c.statements++; // the stores the hand-over needs
        c.lastUsed = r;
        STATE.setOpaque(entry, FREE); // the bug: opaque, not release
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await();
        } catch (InterruptedException | BrokenBarrierException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
