package dev.mmcheck.samples;

/**
 * S41 — Two races through one buffer class. {@code IntBuffer.putInt} and {@code getInt} are plain accessors of an
 * int array, as messaging libraries have them for records, counters and flags alike. The writer and the reader use
 * one buffer for a record (the writer publishes a sequence number and reads how far the reader has acknowledged;
 * the reader acknowledges and reads the sequence) and another for a wake-up protocol (the writer counts what is
 * pending and reads whether the reader sleeps; the reader announces that it sleeps and reads what is pending).
 * Both are store buffering: on TSO each side's store can still be buffered when it reads the other's. In the
 * record that is by design: a stale acknowledgement only makes the writer wait longer, a stale sequence number
 * only makes the reader look again. In the wake-up it is the bug: the writer misses the announcement while the
 * reader misses the count, and the wake-up is lost (as in S26).
 *
 * <p>Every store and load of both is the same two lines of {@code IntBuffer}. Grouped by those lines, the two races
 * were one finding showing whichever came first, and the lost wake-up could hide among its examples. Each access
 * inside {@code IntBuffer} is reported with the call that reached it (the lines marked {@code mmcheck:call}), and
 * a race is one finding per pair of calls: the record's and the wake-up's are reported apart.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S41_BufferHelperRaces}.
 */
@Expected(tso = true, pso = true, why = "store buffering in two protocols, both through one buffer class's plain "
        + "putInt and getInt")
public final class S41_BufferHelperRaces implements Runnable {

    private static final int ITERATIONS = 2000;

    /** Plain accessors of an int array. */
    static final class IntBuffer {
        private final int[] data;

        IntBuffer(int size) {
            data = new int[size];
        }

        void putInt(int index, int value) {
            data[index] = value; // mmcheck:store
        }

        int getInt(int index) {
            return data[index]; // mmcheck:access
        }
    }

    // the record: its sequence number and the reader's acknowledgement
    private static final int SEQUENCE = 0;
    private static final int ACKNOWLEDGED = 1;
    // the wake-up: what is pending, and whether the reader sleeps
    private static final int PENDING = 0;
    private static final int SLEEPING = 1;

    private final IntBuffer record = new IntBuffer(2);
    private final IntBuffer wakeUp = new IntBuffer(2);
    private long lag;
    private long seen;
    private long wakeUps;
    private long sleeps;

    /** The writer publishes sequence {@code i} and reads how far the reader has got (stale: it waits longer). */
    private void publish(int i) {
        record.putInt(SEQUENCE, i); // mmcheck:call
        lag += i - record.getInt(ACKNOWLEDGED); // mmcheck:call
    }

    /** The reader acknowledges {@code j} and reads the sequence (stale: it looks again). */
    private void acknowledge(int j) {
        record.putInt(ACKNOWLEDGED, j); // mmcheck:call
        seen += record.getInt(SEQUENCE); // mmcheck:call
    }

    /** The writer counts item {@code i} as pending and wakes the reader if it sleeps. */
    private void signal(int i) {
        wakeUp.putInt(PENDING, i); // mmcheck:call
        if (wakeUp.getInt(SLEEPING) == 1) { // mmcheck:call
            wakeUps++;
        }
    }

    /** The reader announces that it sleeps, then sleeps unless item {@code j} is pending. */
    private void sleep(int j) {
        wakeUp.putInt(SLEEPING, 1); // mmcheck:call
        if (wakeUp.getInt(PENDING) < j) { // mmcheck:call
            sleeps++; // would park here: a lost wake-up parks forever
        }
        wakeUp.putInt(SLEEPING, 0); // mmcheck:call
    }

    @Override
    public void run() {
        Thread writer = new Thread(() -> {
            for (int i = 1; i <= ITERATIONS; i++) {
                publish(i);
                signal(i);
            }
        }, "writer");
        Thread reader = new Thread(() -> {
            for (int j = 1; j <= ITERATIONS; j++) {
                acknowledge(j);
                sleep(j);
            }
        }, "reader");
        writer.start();
        reader.start();
        Samples.join(writer);
        Samples.join(reader);
        System.out.println("S41_BufferHelperRaces: lag " + lag + ", seen " + seen + ", " + wakeUps + " wake-ups, "
                + sleeps + " sleeps");
    }
}
