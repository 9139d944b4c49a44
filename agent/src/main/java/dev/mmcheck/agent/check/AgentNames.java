package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Site;

import java.util.HashMap;
import java.util.Map;

/**
 * The names behind the agent's ids, as the checker's reports show them: threads by the name they had
 * when their log was created, addresses through the {@link Heap}, sites through the {@link SiteTable}.
 * Created before the checker, which names its findings through it. Checker thread only (the site table
 * is synchronized itself).
 */
public final class AgentNames implements Names {

    private final Heap heap;
    private final SiteTable sites;
    private final Map<Integer, String> threads = new HashMap<>();

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

    /** Records the callers of the finding's sites from now on (runtime's Contexts). Checker thread. */
    @Override
    public void reported(int storeSite, int accessSite) {
        dev.mmcheck.runtime.Contexts.want(storeSite);
        dev.mmcheck.runtime.Contexts.want(accessSite);
    }
}
