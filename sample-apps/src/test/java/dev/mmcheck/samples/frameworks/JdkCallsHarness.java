package dev.mmcheck.samples.frameworks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Correct code that synchronizes through JDK methods mmcheck models by what they do, run under the agent by JdkModelIT
 * (docs/mapping.md, "The JDK's memory-relevant methods"): records written through view VarHandles of a byte array, a
 * heap buffer and a direct buffer, and read after a join; a value handed over with an interrupt (the reader waits to
 * see itself interrupted); a thread found ended by isAlive(); a weak reference cleared by one thread and read by
 * another after a join; and reference-queue polls, which mmcheck does not model and fences, naming them. Prints
 * {@code harness: jdk calls ok} when it ends.
 */
public final class JdkCallsHarness {

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** What the interrupt hands over. */
    static final class Box {
        int first;
        int second;
    }

    private JdkCallsHarness() {
    }

    /** Runs {@code args[0]} rounds (default 50) and {@code args[1]} polls (default 1000). */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int polls = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        byte[] bytes = new byte[64];
        ByteBuffer heap = ByteBuffer.wrap(new byte[64]);
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        long sum = 0;
        for (int r = 0; r < rounds; r++) {
            int round = r;
            Thread writer = new Thread(() -> {
                INTS.set(bytes, 0, round); // a byte array's and a heap buffer's views: plain modes only since JDK 22
                INTS.set(bytes, 4, round + 1);
                LONGS.set(heap, 8, (long) round);
                LONGS.setRelease(direct.slice(16, 16), 0, (long) round);
            }, "writer");
            writer.start();
            writer.join();
            sum += (int) INTS.get(bytes, 0) + bytes[4] + (long) LONGS.get(heap.asReadOnlyBuffer(), 8)
                    + (long) LONGS.getVolatile(direct, 16);

            Box box = new Box();
            Thread reader = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.onSpinWait();
                }
                if (box.second - box.first != 1) {
                    throw new IllegalStateException("the interrupt hands the box over");
                }
            }, "interrupted");
            reader.start();
            box.first = round;
            box.second = round + 1;
            reader.interrupt();
            while (reader.isAlive()) {
                Thread.onSpinWait();
            }

            Object value = new Object();
            WeakReference<Object> weak = new WeakReference<>(value);
            Thread clearer = new Thread(weak::clear, "clearer");
            clearer.start();
            clearer.join();
            sum += weak.get() == null ? 1 : 0;
        }
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        for (int i = 0; i < polls; i++) {
            sum += queue.poll() == null ? 0 : 1;
        }
        System.out.println("harness: jdk calls ok " + sum);
    }
}
