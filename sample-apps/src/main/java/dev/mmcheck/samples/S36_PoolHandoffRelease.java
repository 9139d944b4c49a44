package dev.mmcheck.samples;

/**
 * S36 — The pool of S35 with the fix: the release marks the entry free with {@code setRelease}, so the pooled
 * connection's fields commit before the free state (a StoreStore barrier in PSO; a release on ARM), and the next
 * borrower's CAS sees them.
 *
 * <p>Expected: clean under TSO and PSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S36_PoolHandoffRelease}.
 */
@Expected(tso = false, pso = false, why = "a release store frees the entry after the pooled object's fields")
public final class S36_PoolHandoffRelease implements Runnable {

    @Override
    public void run() {
        Pool.run("S36_PoolHandoffRelease", 200, (state, entry) -> state.setRelease(entry, Pool.FREE));
    }
}
