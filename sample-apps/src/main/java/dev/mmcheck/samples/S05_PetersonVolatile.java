package dev.mmcheck.samples;

/**
 * S05 — Peterson's lock with volatile flag and turn: the textbook Java version, correct on every
 * model (volatile accesses are sequentially consistent).
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S05_PetersonVolatile}.
 */
@Expected(tso = false, pso = false, why = "volatile stores are followed by a full fence")
public final class S05_PetersonVolatile implements Runnable {

    private volatile int flag0;
    private volatile int flag1;
    private volatile int turn;
    private int inside;

    private void enter0() {
        flag0 = 1;
        turn = 1;
        while (flag1 == 1 && turn == 1) {
            Rounds.pause();
        }
        inside++;
        flag0 = 0;
    }

    private void enter1() {
        flag1 = 1;
        turn = 0;
        while (flag0 == 1 && turn == 0) {
            Rounds.pause();
        }
        inside++;
        flag1 = 0;
    }

    @Override
    public void run() {
        Rounds.run(2000, () -> inside = 0, r -> enter0(), r -> enter1());
        System.out.println("S05_PetersonVolatile: done");
    }
}
