package dev.mmcheck.samples;

/**
 * S40 — The weak-valued entry of S39 with the fix: the new reference is published with {@code setVolatile}, a full
 * fence before the old reference is cleared; a reader that sees the clear sees the new reference.
 *
 * <p>Expected: clean under TSO and PSO. Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S40_WeakValueVolatile}.
 */
@Expected(tso = false, pso = false, why = "a volatile store of the new reference before the old one is cleared")
public final class S40_WeakValueVolatile implements Runnable {

    @Override
    public void run() {
        WeakCache.run("S40_WeakValueVolatile", 3_000, 60_000, (value, entry, ref) -> value.setVolatile(entry, ref));
    }
}
