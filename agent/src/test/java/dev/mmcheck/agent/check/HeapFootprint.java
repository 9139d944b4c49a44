package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.FieldTable;

/**
 * What the checker's identity table costs per tracked object: tracks 1,000,000 live objects with one address each
 * (or two, with the argument {@code 2}) and prints the heap's growth per object after full collections. A measurement
 * for docs/performance.md, not a test (its figure depends on the JVM and the collector). Run after {@code mvn -q
 * -DskipTests install} (the test classes built):
 * {@code java -XX:+UseSerialGC -cp agent/target/test-classes:agent/target/classes:runtime/target/classes:checker/target/classes dev.mmcheck.agent.check.HeapFootprint 2}
 */
public final class HeapFootprint {

    private HeapFootprint() {
    }

    /** Prints the bytes per tracked object; {@code args[0]}, 1 or 2, the addresses per object. */
    public static void main(String[] args) throws InterruptedException {
        int perObject = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        FieldTable fields = new FieldTable();
        int next = fields.id("x.Node", "next");
        int value = fields.id("x.Node", "value");
        Heap heap = new Heap(fields, () -> 0);
        int n = 1_000_000;
        Object[] live = new Object[n];
        for (int i = 0; i < n; i++) {
            live[i] = new Object();
        }
        long before = usedAfterCollection();
        for (Object o : live) {
            heap.address(o, next);
            if (perObject > 1) {
                heap.address(o, value);
            }
        }
        long after = usedAfterCollection();
        System.out.println("bytes per tracked object with " + perObject + " address(es): " + (after - before) / n
                + " (" + heap.objects() + " objects, " + heap.addresses() + " addresses, " + live.length + " live)");
    }

    private static long usedAfterCollection() throws InterruptedException {
        System.gc();
        Thread.sleep(200);
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
