package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broadcast ring of samples S37 and S38, written as a broadcast buffer's transmitter and receiver are (Agrona's
 * {@code BroadcastTransmitter}/{@code BroadcastReceiver}): the transmitter writes each record into the ring, notes
 * its position as the latest record, and publishes the tail with an ordered store; a receiver follows behind and,
 * when the transmitter has lapped it (overwritten records it has not read), jumps to the latest record instead of
 * reading ones that are gone. How the transmitter stores the latest position and the tail is the sample's choice.
 */
final class Broadcast {

    /** How the transmitter publishes a record: notes its position as the latest, then moves the tail past it. */
    interface Publish {
        /** Publishes the record at {@code position}. */
        void publish(Broadcast b, long position);
    }

    static final VarHandle LATEST;

    static {
        try {
            LATEST = MethodHandles.lookup().findVarHandle(Broadcast.class, "latest", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int CAPACITY = 64;

    private final int[] type = new int[CAPACITY];
    private final long[] payload = new long[CAPACITY];
    final AtomicLong tail = new AtomicLong();
    long latest;
    private long lapped;
    private long sum;

    private void transmit(long count, Publish publish) {
        for (long position = 0; position < count; position++) {
            int i = (int) (position % CAPACITY);
            type[i] = 1 + (int) (position & 7); // mmcheck:store
            payload[i] = position; // mmcheck:store
            publish.publish(this, position);
        }
    }

    private void receive(long count) {
        long cursor = 0;
        long sink = 0;
        while (cursor < count) {
            long t = tail.get(); // mmcheck:access
            if (t == cursor) {
                Thread.onSpinWait();
                continue;
            }
            if (t - cursor > CAPACITY) {
                cursor = (long) LATEST.getAcquire(this); // lapped: jump to the latest record
                lapped++;
            }
            int i = (int) (cursor % CAPACITY);
            int kind = type[i]; // mmcheck:access
            long value = payload[i]; // mmcheck:access
            sum += kind + value;
            for (int k = 0; k < 3_000; k++) { // the receiver's handling of the record: slower than the transmitter
                sink += value * k;
            }
            cursor++;
        }
        if (sink == 42) {
            System.out.print("");
        }
    }

    /** A transmitter of {@code count} records and a slower receiver; prints {@code name}'s summary line. */
    static void run(String name, long count, Publish publish) {
        Broadcast b = new Broadcast();
        Thread receiver = new Thread(() -> b.receive(count), "receiver");
        Thread transmitter = new Thread(() -> b.transmit(count, publish), "transmitter");
        receiver.start();
        transmitter.start();
        Samples.join(transmitter);
        Samples.join(receiver);
        System.out.println(name + ": " + count + " records, lapped " + b.lapped + " times (" + b.sum + ")");
    }
}
