package dev.mmcheck.samples;

/**
 * S04 — Peterson's lock with plain fields (one entry per thread per round). Each thread raises its
 * flag, gives the turn away and waits while the other's flag is up and the turn is the other's. On
 * TSO the flag and turn stores can still be buffered when the other thread reads them: both enter.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S04_PetersonPlain}.
 */
@Expected(tso = true, pso = true, why = "the flag and turn stores can be overtaken by the loads that follow them")
public final class S04_PetersonPlain implements Runnable {

    private int flag0;
    private int flag1;
    private int turn;
    private int inside;

    private void enter0() {
        flag0 = 1; // mmcheck:store
        turn = 1; // mmcheck:store mmcheck:access
        int spins = 0;
        while (flag1 == 1 && turn == 1 && spins++ < 2000) { // mmcheck:access
            Rounds.pause();
        }
        inside++; // mmcheck:store mmcheck:access
        Rounds.pause(); // stays in the critical section a while, as a preemption would make it
        flag0 = 0;
    }

    private void enter1() {
        flag1 = 1; // mmcheck:store
        turn = 0; // mmcheck:store mmcheck:access
        int spins = 0;
        while (flag0 == 1 && turn == 0 && spins++ < 2000) { // mmcheck:access
            Rounds.pause();
        }
        inside++; // mmcheck:store mmcheck:access
        Rounds.pause();
        flag1 = 0;
    }

    @Override
    public void run() {
        Rounds.run(2000, () -> inside = 0, r -> enter0(), r -> enter1());
        System.out.println("S04_PetersonPlain: done");
    }
}
