package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;

/**
 * The weak-valued cache entry of samples S39 and S40, written as a caching library's is (Guava's and Caffeine's weak
 * values): an entry holds its value through a {@code WeakReference}; a writer replacing the value publishes a new
 * reference and then clears the old one, so that the old value is no longer reachable through the entry; a reader
 * takes the reference, gets the value, and when it finds null checks whether the entry still holds the same
 * reference: if so, the value was collected and the key counts as absent, otherwise it reads again. How the writer
 * publishes the new reference is the sample's choice. The values are held strongly elsewhere too: only the writer
 * clears a reference here, never the collector.
 */
final class WeakCache {

    /** How the writer publishes an entry's new reference. */
    interface Publish {
        /** Stores {@code ref} into {@code entry}'s value field through {@code value}, the field's handle. */
        void publish(VarHandle value, Entry entry, WeakReference<Object> ref);
    }

    static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(Entry.class, "value", WeakReference.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A cache entry: its key is present for as long as the test runs. */
    static final class Entry {
        volatile WeakReference<Object> value;
    }

    private final Entry entry = new Entry();
    private final Object[] values; // held strongly: no reference is cleared by the collector
    private long misses;

    private WeakCache(int count) {
        values = new Object[count];
        for (int i = 0; i < count; i++) {
            values[i] = "value-" + i;
        }
        entry.value = new WeakReference<>(values[0]);
    }

    private void write(Publish publish) {
        for (int i = 1; i < values.length; i++) {
            WeakReference<Object> old = entry.value;
            publish.publish(VALUE, entry, new WeakReference<>(values[i]));
            old.clear(); // the old value no longer reachable through the entry
            for (int k = 0; k < 2_000; k++) { // the writer's own work between replacements
                Thread.onSpinWait();
            }
        }
    }

    private void read(int reads) {
        for (int i = 0; i < reads; i++) {
            WeakReference<Object> ref = (WeakReference<Object>) VALUE.getAcquire(entry);
            Object v = ref.get();
            if (v == null && VALUE.getAcquire(entry) == ref) { // mmcheck:access
                misses++; // collected, as far as the reader can tell: a present key reported absent
            }
        }
    }

    /** A writer of {@code count} values and a reader of {@code reads}; prints {@code name}'s summary line. */
    static void run(String name, int count, int reads, Publish publish) {
        WeakCache c = new WeakCache(count);
        Thread reader = new Thread(() -> c.read(reads), "reader");
        Thread writer = new Thread(() -> c.write(publish), "writer");
        reader.start();
        writer.start();
        Samples.join(writer);
        Samples.join(reader);
        System.out.println(name + ": " + count + " values, " + reads + " reads, " + c.misses + " present keys read absent");
    }
}
