package dev.mmcheck.samples;

/**
 * S29 — A program in phases, as many tests are: the main thread fills a table alone, two workers then
 * race on a plain Dekker pair (S01's bug) while reading the table, and once they are joined the main
 * thread works on the table alone again, three times over.
 *
 * <p>While a thread is the only thread that logs, mmcheck leaves its accesses out, volatile and release
 * stores and reads of a ConcurrentHashMap included (docs/agent.md, "Accesses of a thread running alone"): no other thread can take part in
 * a violation with them. The
 * workers' race must still be found, and nothing reported on the table, which the workers read after
 * {@code Thread.start} and the main thread writes again after {@code Thread.join}. The summary's events
 * line says how many accesses were left out, and in how many solo periods.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S29_PhasesAlone}.
 */
@Expected(tso = true, pso = true, why = "the workers' flags between the main thread's phases alone: store buffering")
public final class S29_PhasesAlone implements Runnable {

    private final int[] table = new int[1 << 14];
    private int flag1;
    private int flag2;
    private int entered;
    private int seen1;
    private int seen2;
    /** How far the fill has come, for a progress reader there is none of: volatile, and stored with a release too. */
    private volatile int progress;
    private final java.util.concurrent.ConcurrentHashMap<String, Integer> settings = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.lang.invoke.VarHandle PROGRESS;

    static {
        try {
            PROGRESS = java.lang.invoke.MethodHandles.lookup().findVarHandle(S29_PhasesAlone.class, "progress", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The main thread, alone: many plain loads and stores of the table, and volatile and release stores. */
    private void fill(int phase) {
        for (int pass = 0; pass < 16; pass++) {
            for (int i = 0; i < table.length; i++) {
                table[i] = table[i] * 31 + i + phase;
                if ((i & 3) == 0) {
                    progress = i;
                } else if ((i & 3) == 2) {
                    PROGRESS.setRelease(this, i + 1);
                } else if ((i & 3) == 1) {
                    settings.get("mode"); // a ConcurrentHashMap read: JDK synchronization, that cannot block
                }
            }
        }
    }

    private void thread1(int round) {
        seen1 += table[round & (table.length - 1)]; // written before the worker started
        flag1 = 1; // mmcheck:store
        if (flag2 == 0) { // mmcheck:access
            entered++;
            Rounds.pause();
        }
    }

    private void thread2(int round) {
        seen2 += table[(round * 7) & (table.length - 1)];
        flag2 = 1; // mmcheck:store
        if (flag1 == 0) { // mmcheck:access
            entered++;
            Rounds.pause();
        }
    }

    @Override
    public void run() {
        int both = 0;
        for (int phase = 0; phase < 3; phase++) {
            fill(phase);
            int[] count = new int[1];
            Rounds.run(500, () -> {
                count[0] += entered > 1 ? 1 : 0;
                flag1 = 0;
                flag2 = 0;
                entered = 0;
            }, this::thread1, this::thread2);
            both += count[0];
        }
        long sum = 0;
        for (int v : table) {
            sum += v;
        }
        System.out.println("S29_PhasesAlone: both workers entered in " + both + " of 1500 rounds; table sum " + sum
                + ", workers saw " + (seen1 + seen2));
    }
}
