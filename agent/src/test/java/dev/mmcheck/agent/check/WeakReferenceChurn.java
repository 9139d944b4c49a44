package dev.mmcheck.agent.check;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * The collector alone, with no identity table: makes 12,000,000 weak references to objects dropped at once, each held
 * in an array ({@code flat}) or in chains from a bucket array as the table holds its records ({@code chain}), and
 * prints how many the collections cleared by the end (after garbage enough for a few more collections, with no new
 * reference). HeapChurn's comparison (docs/performance.md, eleventh and twelfth rounds), not a test. Run after
 * {@code mvn -q -DskipTests install}:
 * {@code java -Xlog:gc -cp agent/target/test-classes dev.mmcheck.agent.check.WeakReferenceChurn chain}; with
 * {@code -XX:SurvivorRatio=1} (room in survivor space for every record) all are cleared.
 */
public final class WeakReferenceChurn {

    private WeakReferenceChurn() {
    }

    /** A record: a weak reference with a link, as the table's. */
    static final class Record extends WeakReference<Object> {
        Record next;

        Record(Object o, ReferenceQueue<Object> queue) {
            super(o, queue);
        }
    }

    /** Garbage to fill the young generation between the records, so that collections come as in a run. */
    static volatile Object sink;

    /** Makes the references and prints how many were cleared; {@code args[0]}: {@code flat} or {@code chain}. */
    public static void main(String[] args) {
        boolean chain = args.length > 0 && args[0].equals("chain");
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        Record[] buckets = new Record[1 << 22];
        Object[] flat = new Object[1 << 24];
        int n = 12_000_000;
        int cleared = 0;
        for (int i = 0; i < n; i++) {
            Object o = new Object();
            Record r = new Record(o, queue);
            if (chain) {
                int b = System.identityHashCode(o) & (buckets.length - 1);
                r.next = buckets[b];
                buckets[b] = r;
            } else {
                flat[i] = r;
            }
            sink = new byte[32];
            if ((i & 0xffff) == 0) {
                while (queue.poll() != null) {
                    cleared++;
                }
            }
        }
        // garbage only, so that the last records made see young collections too
        for (int i = 0; i < 20_000_000; i++) {
            sink = new byte[32];
        }
        while (queue.poll() != null) {
            cleared++;
        }
        System.out.println((chain ? "chain" : "flat") + ": " + cleared + " of " + n + " cleared by the collections");
    }
}
