package dev.mmcheck.samples;

/**
 * S39 — A cache reports a present key absent: the weak-valued entry of {@link WeakCache} publishes its new
 * {@code WeakReference} with {@code setRelease} and then clears the old one with {@code clear()}. A release store
 * orders the stores before it, not the ones after: on a machine that commits stores to different addresses out of
 * order (PSO; ARM and POWER likewise) the clear can become visible first, and a reader finds the old reference
 * cleared while the entry still holds it: the value looks collected. x86 (TSO) commits in order. The fix is a full
 * fence between the two, {@code setVolatile} (S40). {@code Reference.get} and {@code clear} are modelled as the
 * load and store of the referent they are (docs/mapping.md); before, they were no event and this was not found.
 *
 * <p>Expected: a PSO violation (store: the new reference; access: the reader's second look at the entry), none under
 * TSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S39_WeakValueRelease}.
 */
@Expected(tso = false, pso = true, why = "the old reference cleared after a release store of the new one: the clear may commit first")
public final class S39_WeakValueRelease implements Runnable {

    @Override
    public void run() {
        WeakCache.run("S39_WeakValueRelease", 3_000, 60_000, (value, entry, ref) -> value.setRelease(entry, ref)); // mmcheck:store
    }
}
