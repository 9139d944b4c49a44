package dev.mmcheck.checker.event;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names behind the int ids of an event stream: threads, addresses and sites.
 *
 * <p>Ids are dense and assigned in order of definition. Not thread-safe: written by whoever
 * produces the stream and read by the checker on the same thread.
 */
public final class Symbols implements Names {

    private final List<String> threads = new ArrayList<>();
    private final Map<String, Integer> threadIds = new HashMap<>();
    private final List<String> addresses = new ArrayList<>();
    private final Map<String, Integer> addressIds = new HashMap<>();
    // per address id, the id of its name without the object (addressShape)
    private int[] shapes = new int[16];
    private final Map<String, Integer> shapeIds = new HashMap<>();
    private final List<Site> sites = new ArrayList<>();
    private final Map<Site, Integer> siteIds = new HashMap<>();

    /** The id of the thread with this name, defining it if new. */
    public int thread(String name) {
        return threadIds.computeIfAbsent(name, n -> {
            threads.add(n);
            return threads.size() - 1;
        });
    }

    /** The id of the address with this name, defining it if new. */
    public int address(String name) {
        return addressIds.computeIfAbsent(name, n -> {
            addresses.add(n);
            shaped(addresses.size() - 1, n);
            return addresses.size() - 1;
        });
    }

    /** The id of this site, defining it if new. */
    public int site(Site site) {
        return siteIds.computeIfAbsent(site, s -> {
            sites.add(s);
            return sites.size() - 1;
        });
    }

    /** Defines thread {@code id} (ids must arrive densely, as binary traces carry them). */
    public void defineThread(int id, String name) {
        define(threads, threadIds, id, name, "thread");
    }

    /** Defines address {@code id}. */
    public void defineAddress(int id, String name) {
        define(addresses, addressIds, id, name, "address");
        shaped(id, name);
    }

    private void shaped(int id, String name) {
        if (id >= shapes.length) {
            shapes = java.util.Arrays.copyOf(shapes, Math.max(id + 1, 2 * shapes.length));
        }
        shapes[id] = shapeIds.computeIfAbsent(Names.withoutObject(name), k -> shapeIds.size());
    }

    /** Defines site {@code id}. */
    public void defineSite(int id, Site site) {
        define(sites, siteIds, id, site, "site");
    }

    private static <T> void define(List<T> list, Map<T, Integer> ids, int id, T value, String what) {
        if (id != list.size()) {
            throw new IllegalArgumentException(what + " " + id + " defined out of order (expected id "
                    + list.size() + ")");
        }
        list.add(value);
        ids.putIfAbsent(value, id);
    }

    @Override
    public String threadName(int id) {
        return id >= 0 && id < threads.size() ? threads.get(id) : "thread#" + id;
    }

    @Override
    public String addressName(int id) {
        return id >= 0 && id < addresses.size() ? addresses.get(id) : "address#" + id;
    }

    @Override
    public long addressShape(int id) {
        return id >= 0 && id < addresses.size() ? shapes[id] : -1 - (long) id;
    }

    @Override
    public Site siteOf(int id) {
        return id >= 0 && id < sites.size() ? sites.get(id) : Site.at("?", 0);
    }

    /** Number of threads defined. */
    public int threadCount() {
        return threads.size();
    }

    /** Number of addresses defined. */
    public int addressCount() {
        return addresses.size();
    }

    /** Number of sites defined. */
    public int siteCount() {
        return sites.size();
    }

    /** Whether thread {@code id} is defined. */
    public boolean hasThread(int id) {
        return id >= 0 && id < threads.size();
    }

    /** Whether address {@code id} is defined. */
    public boolean hasAddress(int id) {
        return id >= 0 && id < addresses.size();
    }

    /** Whether site {@code id} is defined. */
    public boolean hasSite(int id) {
        return id >= 0 && id < sites.size();
    }
}
