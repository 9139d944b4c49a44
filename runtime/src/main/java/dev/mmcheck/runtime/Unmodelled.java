package dev.mmcheck.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The calls into JDK methods that may synchronize and that mmcheck does not model (docs/mapping.md, "The JDK's
 * memory-relevant methods"), each treated as a full fence of the calling thread: their names, given ids when the
 * rewriter first meets them, and how many times each ran, for the run's note ("treated as full fences:
 * ReferenceQueue.poll x 12,000"). Counting allocates nothing; ids past the table share its last entry.
 */
public final class Unmodelled {

    /** How many methods get a count of their own; the others share the last. */
    static final int CAPACITY = 1024;

    private static final List<String> NAMES = new ArrayList<>();
    private static final Map<String, Integer> IDS = new LinkedHashMap<>();
    private static final AtomicLongArray COUNTS = new AtomicLongArray(CAPACITY);

    private Unmodelled() {
    }

    /** The id of method {@code name} ({@code Owner.method}), given on first sight. At instrumentation time, any thread. */
    public static synchronized int id(String name) {
        Integer id = IDS.get(name);
        if (id == null) {
            id = Math.min(NAMES.size(), CAPACITY - 1);
            if (NAMES.size() < CAPACITY - 1) {
                NAMES.add(name);
                IDS.put(name, id);
            } else if (NAMES.size() == CAPACITY - 1) {
                NAMES.add("other methods");
            }
        }
        return id;
    }

    /** One more call of method {@code id}. Any thread. */
    static void count(int id) {
        if (id >= 0 && id < CAPACITY) {
            COUNTS.getAndIncrement(id);
        }
    }

    /** How many times each method ran, by name, those that ran only, most first. Any thread. */
    public static synchronized Map<String, Long> counts() {
        List<Map.Entry<String, Long>> all = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            long n = COUNTS.get(i);
            if (n > 0) {
                all.add(Map.entry(NAMES.get(i), n));
            }
        }
        all.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : all) {
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }
}
