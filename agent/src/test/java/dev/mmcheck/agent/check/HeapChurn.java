package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.FieldTable;

/**
 * The identity table under the queue workloads' churn, on one thread: each step makes an item, looks up its field
 * (an object never seen), the queue's two index fields and a slot of its buffer, and the field of the item made
 * 1,000 steps before (seen, but not among the last two objects); dead items are expunged every 65,536 steps. Prints
 * the nanoseconds per step of five rounds of 2,000,000 steps after two of warm-up. A benchmark for
 * docs/performance.md, not a test. Run after {@code mvn -q -DskipTests install}:
 * {@code java -cp agent/target/test-classes:agent/target/classes:runtime/target/classes:checker/target/classes dev.mmcheck.agent.check.HeapChurn}
 */
public final class HeapChurn {

    private HeapChurn() {
    }

    /** Item of the churn: one field. */
    static final class Item {
        int value;
    }

    /** Runs the rounds and prints each one's time per step. */
    public static void main(String[] args) {
        FieldTable fields = new FieldTable();
        int value = fields.id("x.Item", "value");
        int producer = fields.id("x.Queue", "producerIndex");
        int consumer = fields.id("x.Queue", "consumerIndex");
        Heap heap = new Heap(fields, () -> 0);
        Object queue = new Object();
        Object[] buffer = new Object[1024];
        int steps = 2_000_000;
        long sink = 0;
        for (int round = 0; round < 7; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < steps; i++) {
                Item it = new Item();
                sink += heap.address(it, value);
                sink += heap.address(queue, producer);
                sink += heap.address(buffer, i & 1023);
                Object old = buffer[(i + 24) & 1023];
                buffer[i & 1023] = it;
                sink += heap.address(queue, consumer);
                if (old != null) {
                    sink += heap.address(old, value);
                }
                if ((i & 0xffff) == 0) {
                    heap.expunge(a -> { });
                }
            }
            long ns = System.nanoTime() - start;
            System.out.printf("round %d: %.1f ns per step (%d objects tracked)%n", round, (double) ns / steps, heap.objects());
        }
        System.out.println(sink == 42 ? "" : "done");
    }
}
