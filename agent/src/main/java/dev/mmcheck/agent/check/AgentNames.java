package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Site;

import java.util.HashMap;
import java.util.Map;

/**
 * The names behind the agent's ids, as the checker's reports show them: threads by the name they had
 * when their log was created, addresses through the {@link Heap}, sites through the {@link SiteTable} (a helper's
 * access under a site of its own per call that reached it: {@link #checkedSite}).
 * Created before the checker, which names its findings through it. Checker thread only (the site table
 * is synchronized itself).
 */
public final class AgentNames implements Names {

    private final Heap heap;
    private final SiteTable sites;
    private final Map<Integer, String> threads = new HashMap<>();
    // the sites of helpers' accesses per call that reached them (checkedSite), by (site, caller)
    private static final long EMPTY = -1L;
    private static final byte PLAIN = 1;
    private static final byte HELPER = 2;
    /** Per site id: 0 not asked yet, PLAIN or HELPER. */
    private byte[] helperOf = new byte[1024];
    private long[] calledKeys = filled(new long[64]);
    private int[] calledIds = new int[64];
    private int calledSize;

    public AgentNames(Heap heap, SiteTable sites) {
        this.heap = heap;
        this.sites = sites;
    }

    /** Thread {@code serial} is called {@code name}. */
    void thread(int serial, String name) {
        threads.put(serial, name);
    }

    @Override
    public String threadName(int id) {
        String n = threads.get(id);
        return n == null ? "thread#" + id : n;
    }

    @Override
    public String addressName(int id) {
        return heap.name(id);
    }

    @Override
    public long addressShape(int id) {
        return heap.shape(id);
    }

    @Override
    public Site siteOf(int id) {
        return sites.get(id);
    }

    /**
     * Records the callers of the finding's sites from now on (runtime's Contexts), the instructions' own sites for
     * sites reached through a call. Checker thread.
     */
    @Override
    public void reported(int storeSite, int accessSite) {
        dev.mmcheck.runtime.Contexts.want(sites.base(storeSite));
        dev.mmcheck.runtime.Contexts.want(sites.base(accessSite));
    }

    /**
     * The site an access at {@code site} is checked under: when {@code site} is a helper's access (one whose field or
     * element its caller chooses) reached through the call at site {@code caller}, a site of its own for that call
     * (SiteTable.called), else {@code site}. Allocates nothing once a pair has been seen. Checker thread.
     */
    int checkedSite(int site, int caller) {
        if (caller < 0 || site < 0 || !helper(site)) {
            return site;
        }
        long key = ((long) site << 32) | (caller & 0xffffffffL);
        int mask = calledKeys.length - 1;
        int i = mix(key) & mask;
        while (calledKeys[i] != EMPTY) {
            if (calledKeys[i] == key) {
                return calledIds[i];
            }
            i = (i + 1) & mask;
        }
        int id = sites.called(site, caller);
        calledKeys[i] = key;
        calledIds[i] = id;
        if (2 * ++calledSize > calledKeys.length) {
            rehashCalled();
        }
        return id;
    }

    private boolean helper(int site) {
        if (site >= helperOf.length) {
            helperOf = java.util.Arrays.copyOf(helperOf, Math.max(site + 1, 2 * helperOf.length));
        }
        byte h = helperOf[site];
        if (h == 0) {
            h = sites.helper(site) ? HELPER : PLAIN; // fixed when the site was registered: asked once
            helperOf[site] = h;
        }
        return h == HELPER;
    }

    private void rehashCalled() {
        long[] keys = calledKeys;
        int[] ids = calledIds;
        calledKeys = new long[keys.length * 2];
        calledIds = new int[keys.length * 2];
        java.util.Arrays.fill(calledKeys, EMPTY);
        int mask = calledKeys.length - 1;
        for (int k = 0; k < keys.length; k++) {
            if (keys[k] != EMPTY) {
                int i = mix(keys[k]) & mask;
                while (calledKeys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                calledKeys[i] = keys[k];
                calledIds[i] = ids[k];
            }
        }
    }

    private static int mix(long key) {
        long x = key * 0x9E3779B97F4A7C15L;
        return (int) (x ^ (x >>> 29));
    }

    private static long[] filled(long[] a) {
        java.util.Arrays.fill(a, EMPTY);
        return a;
    }
}
