package dev.mmcheck.samples;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * S17 — Objects with plain fields published through a ConcurrentHashMap: put happens before the get
 * that finds the value, so the reader sees the fields initialized. Clean.
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S17_ConcurrentMapHandover}.
 */
@Expected(tso = false, pso = false, why = "ConcurrentHashMap's put and get synchronize")
public final class S17_ConcurrentMapHandover implements Runnable {

    /** A value with plain fields. */
    static final class Box {
        int a;
        int b;

        Box(int v) {
            a = v;
            b = v + 1;
        }
    }

    private final Map<Integer, Box> map = new ConcurrentHashMap<>();

    @Override
    public void run() {
        long[] sum = new long[1];
        Rounds.run(2000, null, r -> {
            map.put(r, new Box(r));
            map.computeIfAbsent(-r - 1, k -> new Box(k));
        }, r -> {
            Box x = map.get(r);
            if (x != null) {
                sum[0] += x.b - x.a;
            }
            Box y = map.get(-r - 1);
            if (y != null) {
                sum[0] += y.b - y.a;
            }
        });
        System.out.println("S17_ConcurrentMapHandover: " + sum[0]);
    }
}
