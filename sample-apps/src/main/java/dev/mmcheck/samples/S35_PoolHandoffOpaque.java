package dev.mmcheck.samples;

/**
 * S35 — An object pool whose release publishes with {@code setOpaque} ({@link Pool}: a borrower claims the entry
 * with a CAS, uses the pooled connection, and marks the entry free). Opaque orders nothing: on a machine that lets
 * stores to different addresses commit out of order (PSO; ARM and POWER likewise), the free state can become
 * visible before the connection's fields, and the next borrower, whose CAS claims the entry at once, reads the
 * fields as they were before the last use. x86 (TSO) commits stores in order: no violation there. The fix is a
 * release store, {@code setRelease} (S36).
 *
 * <p>The two workers take turns, each alone for long stretches: mmcheck's solo periods must keep the stores the
 * hand-over needs (docs/agent.md, "Accesses of a thread running alone").
 *
 * <p>Expected: a PSO violation (store: a field of the connection; access: the next borrower's read of it), none
 * under TSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S35_PoolHandoffOpaque}.
 */
@Expected(tso = false, pso = true, why = "an opaque store frees the entry: the pooled object's fields may commit after it")
public final class S35_PoolHandoffOpaque implements Runnable {

    @Override
    public void run() {
        Pool.run("S35_PoolHandoffOpaque", 200, (state, entry) -> state.setOpaque(entry, Pool.FREE)); // the bug
    }
}
