package dev.mmcheck.samples;

/**
 * S38 — The broadcast ring of S37 with the fix: the latest record's position is stored with {@code setRelease}, so
 * the record commits before it, and a lapped receiver that jumps there reads the record written. The tail is stored
 * with {@code set} (a volatile store), which also keeps the next record's stores after it (S37 says why that is
 * tolerated by design).
 *
 * <p>Expected: clean under TSO and PSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S38_BroadcastLatestOrdered}.
 */
@Expected(tso = false, pso = false, why = "the latest position stored with a release store, after the record")
public final class S38_BroadcastLatestOrdered implements Runnable {

    @Override
    public void run() {
        Broadcast.run("S38_BroadcastLatestOrdered", 20_000, (b, position) -> {
            Broadcast.LATEST.setRelease(b, position);
            b.tail.set(position + 1);
        });
    }
}
