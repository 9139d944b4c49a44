package dev.mmcheck.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calling contexts of the sites of findings: once the checker has reported a finding, it asks for the
 * callers of its store's and access's sites ({@link #want}); the next few times an application thread
 * logs an event at such a site, it records its instrumented caller chain (up to {@link #FRAMES}
 * frames, outermost first), so that an access inside a shared helper ({@code soRefElement}) can be
 * told apart by where it was called from ({@code SpscArrayQueue.offer}). Up to {@link #CHAINS} distinct
 * chains per site, then the site is no longer watched.
 *
 * <p>Cost: one array load per logged event; a capture (a {@link StackWalker} walk, which allocates)
 * happens a bounded number of times per site of a finding, after the stripe is released, with the
 * thread muted. The contexts are those seen <em>after</em> the first report, not necessarily the
 * reported event's own.
 */
public final class Contexts {

    /** Caller frames kept per chain. */
    static final int FRAMES = 4;
    /** Distinct chains kept per site. */
    static final int CHAINS = 3;
    /** Captures tried per site before it is no longer watched. */
    static final int TRIES = 32;
    private static final int MASK = (1 << 16) - 1;

    /** Sites watched, direct-mapped on the site id (a collision only makes a capture that is then dropped). */
    static final boolean[] WANTED = new boolean[MASK + 1];
    private static final Map<Integer, List<String>> CHAINS_BY_SITE = new ConcurrentHashMap<>();
    private static final Map<Integer, Integer> TRIED = new ConcurrentHashMap<>();
    private static final StackWalker WALKER = StackWalker.getInstance();
    /** The agent's own frames that can stand between application frames: the wrappers of tasks (SyncTasks). */
    private static final String WRAPPERS = SyncTasks.class.getName();
    /** The frames on top of the application's: the probe that logged the event, down to this class. */
    private static final java.util.Set<String> PROBE_CLASSES = java.util.Set.of(Contexts.class.getName(),
            StripeProtocol.class.getName(), Probes.class.getName(), ArrayLoads.class.getName(),
            Schedule.class.getName());

    private Contexts() {
    }

    /** Watches site {@code site}: its next events record their callers. Checker thread. */
    public static void want(int site) {
        if (site >= 0 && !CHAINS_BY_SITE.containsKey(site)) {
            CHAINS_BY_SITE.put(site, new ArrayList<>());
            WANTED[site & MASK] = true;
        }
    }

    /** The caller chains recorded per site ({@code Class.method:line -> ...}, outermost first). Any thread, at exit. */
    public static Map<Integer, List<String>> captured() {
        Map<Integer, List<String>> out = new java.util.TreeMap<>();
        for (Map.Entry<Integer, List<String>> e : CHAINS_BY_SITE.entrySet()) {
            synchronized (e.getValue()) {
                if (!e.getValue().isEmpty()) {
                    out.put(e.getKey(), List.copyOf(e.getValue()));
                }
            }
        }
        return out;
    }

    /** Whether an event at {@code site} should record its callers (under the stripe: only notes it). */
    static boolean wanted(int site) {
        return WANTED[site & MASK];
    }

    /** Records the caller chain of {@code t}'s event at {@code t.contextSite}; after the stripe is released. */
    static void capture(ThreadLog t) {
        int site = t.contextSite;
        t.contextSite = -1;
        List<String> chains = CHAINS_BY_SITE.get(site);
        if (chains == null) {
            return; // another site with the same hash
        }
        int tries = TRIED.merge(site, 1, Integer::sum);
        if (tries > TRIES) {
            WANTED[site & MASK] = false;
            return;
        }
        boolean wasMuted = t.muted;
        t.muted = true; // nothing below may log
        try {
            String chain = WALKER.walk(frames -> {
                List<String> kept = new ArrayList<>();
                frames.dropWhile(f -> PROBE_CLASSES.contains(f.getClassName()))
                        .filter(f -> !f.getClassName().startsWith("java.") && !f.getClassName().startsWith("jdk.")
                        && !f.getClassName().startsWith("sun.")
                        && !f.getClassName().startsWith(WRAPPERS)) // the agent's wrappers of tasks handed to j.u.c
                        .limit(FRAMES)
                        .forEach(f -> kept.add(0, simple(f.getClassName()) + "." + f.getMethodName() + ":"
                                + f.getLineNumber()));
                return String.join(" -> ", kept);
            });
            synchronized (chains) {
                if (!chain.isEmpty() && !chains.contains(chain) && chains.size() < CHAINS) {
                    chains.add(chain);
                }
                if (chains.size() >= CHAINS) {
                    WANTED[site & MASK] = false;
                }
            }
        } finally {
            t.muted = wasMuted;
        }
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
