package dev.mmcheck.agent.ids;

import dev.mmcheck.checker.event.Site;

import java.util.ArrayList;
import java.util.List;

/**
 * Sites: one per instrumented instruction (class, method, bytecode index, source file, line),
 * registered once when its class is instrumented; events carry the id. Any thread (synchronized).
 */
public final class SiteTable {

    private final List<Site> sites = new ArrayList<>();

    /** Registers a site and returns its id. */
    public synchronized int register(String className, String method, String file, int line, int bci) {
        return register(className, method, file, line, bci, "");
    }

    /** Registers a site with an access mode ({@link Site#mode()}) and returns its id. */
    public synchronized int register(String className, String method, String file, int line, int bci, String mode) {
        sites.add(new Site(className, method, file, line, bci, mode));
        return sites.size() - 1;
    }

    /** Site {@code id}. */
    public synchronized Site get(int id) {
        return id >= 0 && id < sites.size() ? sites.get(id) : Site.at("?", 0);
    }

    /** Number of sites registered. */
    public synchronized int size() {
        return sites.size();
    }
}
