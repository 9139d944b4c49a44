package dev.mmcheck.samples;

/**
 * S37 — A lapped receiver reads a record before it is written: the broadcast ring of {@link Broadcast} notes the
 * latest record's position with a plain store, after writing the record and before publishing the tail with an ordered
 * store. Nothing orders the record's stores before the latest position: on a machine that commits stores to different
 * addresses out of order (PSO; ARM and POWER likewise) a receiver the transmitter has lapped jumps to that position and
 * reads the record as it was before. x86 (TSO) commits in order. The fix is an ordered store of the position (S38).
 * The tail's ordered store is reported too, under PSO: a release store orders the stores before it, not the next
 * record's after it, which a receiver can see before the tail that precedes them (it finds no new record, and looks
 * again: the ring tolerates that, so S38 stores the tail with {@code set} only to keep its verdict clean).
 *
 * <p>Expected: a PSO violation (store: the record's fields; access: the lapped receiver's reads of them), none under
 * TSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S37_BroadcastLatestPlain}.
 */
@Expected(tso = false, pso = true, why = "the latest position stored plainly after the record: the record may commit after it")
public final class S37_BroadcastLatestPlain implements Runnable {

    @Override
    public void run() {
        Broadcast.run("S37_BroadcastLatestPlain", 20_000, (b, position) -> {
            b.latest = position; // the bug: a plain store
            b.tail.lazySet(position + 1); // mmcheck:store (putLongOrdered: the next record's stores may still pass it)
        });
    }
}
