package dev.mmcheck.agent.ids;

import dev.mmcheck.checker.event.Site;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sites: one per instrumented instruction (class, method, bytecode index, source file, line),
 * registered once when its class is instrumented; events carry the id. A helper's access (one whose field or
 * element its caller chooses: rewrite.HelperAccesses) is marked so, and the checker thread gives each call that
 * reached it a site of its own, the same instruction with that call as its caller ({@link #called}), so that
 * the checker tells two races through one helper apart. Any thread (synchronized).
 */
public final class SiteTable {

    private final List<Site> sites = new ArrayList<>();
    private final BitSet helpers = new BitSet();
    /** The ids of the sites made by {@link #called}, by (site, caller). */
    private final Map<Long, Integer> called = new HashMap<>();
    /** For an id made by {@link #called}, the site it was made of. */
    private final Map<Integer, Integer> baseOf = new HashMap<>();

    /** Registers a site and returns its id. */
    public synchronized int register(String className, String method, String file, int line, int bci) {
        return register(className, method, file, line, bci, "");
    }

    /** Registers a site with an access mode ({@link Site#mode()}) and returns its id. */
    public synchronized int register(String className, String method, String file, int line, int bci, String mode) {
        return register(className, method, file, line, bci, mode, false);
    }

    /** Registers a site with an access mode, a helper's access when {@code helper}, and returns its id. */
    public synchronized int register(String className, String method, String file, int line, int bci, String mode,
            boolean helper) {
        sites.add(new Site(className, method, file, line, bci, mode));
        if (helper) {
            helpers.set(sites.size() - 1);
        }
        return sites.size() - 1;
    }

    /** Whether site {@code id} is a helper's access. */
    public synchronized boolean helper(int id) {
        return id >= 0 && helpers.get(id);
    }

    /**
     * The id of helper site {@code site} reached through the call at site {@code caller} ({@link Site#caller()}),
     * made the first time. Checker thread (which keeps its own copy of the ids it asked for).
     */
    public synchronized int called(int site, int caller) {
        long key = ((long) site << 32) | (caller & 0xffffffffL);
        Integer id = called.get(key);
        if (id == null) {
            sites.add(get(site).calledFrom(get(caller)));
            id = sites.size() - 1;
            called.put(key, id);
            baseOf.put(id, site);
        }
        return id;
    }

    /** The site {@code id} was made of by {@link #called}, or {@code id} itself: the instruction's own id. */
    public synchronized int base(int id) {
        return baseOf.getOrDefault(id, id);
    }

    /** Site {@code id}. */
    public synchronized Site get(int id) {
        return id >= 0 && id < sites.size() ? sites.get(id) : Site.at("?", 0);
    }

    /** Number of instructions registered (sites made by {@link #called} not counted). */
    public synchronized int size() {
        return sites.size() - called.size();
    }
}
