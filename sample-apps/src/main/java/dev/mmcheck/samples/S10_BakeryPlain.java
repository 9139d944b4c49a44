package dev.mmcheck.samples;

/**
 * S10 — Lamport's bakery lock for two threads with plain arrays. A thread announces it is choosing,
 * takes a ticket one above the largest it sees, and waits for threads with smaller tickets. On TSO the
 * choosing and ticket stores can still be buffered when the other thread reads them: both enter.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S10_BakeryPlain}.
 */
@Expected(tso = true, pso = true, why = "the choosing and ticket stores can be overtaken by the loads that follow")
public final class S10_BakeryPlain implements Runnable {

    private final int[] choosing = new int[2];
    private final int[] ticket = new int[2];
    private int inside;

    private void lock(int i) {
        int j = 1 - i;
        choosing[i] = 1; // mmcheck:store
        Rounds.pause(); // widens the window between the stores and the loads, as a preemption would
        int t = ticket[j] + 1; // mmcheck:access
        for (int k = 0; k <= 2 * i; k++) {
            // thread 1 takes longer to choose, as a preemption would make it: thread 0 stores its ticket
            // and reads thread 1's choosing flag while that is still set (and could still be buffered)
            Rounds.pause();
        }
        ticket[i] = t; // mmcheck:store
        choosing[i] = 0; // mmcheck:store
        Rounds.pause();
        int spins = 0;
        while (choosing[j] == 1 && spins++ < 2000) { // mmcheck:access
            Rounds.pause();
        }
        spins = 0;
        while (ticket[j] != 0 && (ticket[j] < t || (ticket[j] == t && j < i)) && spins++ < 2000) { // mmcheck:access
            Rounds.pause();
        }
        inside++; // mmcheck:store mmcheck:access
        Rounds.pause(); // stays in the critical section a while, as a preemption would make it
        ticket[i] = 0; // mmcheck:store
    }

    @Override
    public void run() {
        Rounds.run(2000, () -> inside = 0, r -> lock(0), r -> lock(1)); // mmcheck:call (lock(i) indexes by its argument)
        System.out.println("S10_BakeryPlain: done");
    }
}
