package dev.mmcheck.checker.result;

import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the report shows as one entry: a race, or one cycle of transactions. A race is the store-buffer
 * violations of one store site and one access site that reached the same field or array (objects and
 * element indices left out), each site with the call that reached it when it is a helper's access
 * ({@link Site#caller()}): whichever models found them and whatever prev events they came with. So the same
 * race seen on many objects, in many iterations, or by TSO and PSO is one finding, while two races through
 * one helper ({@code putInt} on a record and on a counter, called from two places) are two. Built from the
 * checker's distinct violations at the end ({@link #group}); mutable only through {@link #suppress} and
 * {@link #baseline}, when the report is triaged.
 */
public final class Finding {

    /** One prev event seen with a race: the other thread's event that the store happens before. */
    public record Example(EventInfo prev, long count) {
    }

    private final List<Violation> violations = new ArrayList<>();
    private String suppressedBy = "";
    private boolean baselined;
    private List<String> storeContexts = List.of();
    private List<String> accessContexts = List.of();
    private List<String> tests = List.of();

    private Finding(Violation first) {
        violations.add(first);
    }

    /** The findings of {@code violations}, in the order their first violation was seen. */
    public static List<Finding> group(List<Violation> violations) {
        return group(violations, false);
    }

    /**
     * As {@link #group(List)}; with {@code acrossRuns} (reports of several JVMs read back, {@code report.Merge}) a cycle is
     * grouped by what it is ({@link #cycle}), not by the one JVM's violation object.
     */
    public static List<Finding> group(List<Violation> violations, boolean acrossRuns) {
        Map<Object, Finding> byKey = new LinkedHashMap<>();
        for (Violation v : violations) {
            Object key = !v.isCycle() ? race(v) : acrossRuns ? cycle(v) : v;
            Finding f = byKey.get(key);
            if (f == null) {
                byKey.put(key, new Finding(v));
            } else {
                f.violations.add(v);
            }
        }
        return List.copyOf(byKey.values());
    }

    /**
     * What makes store-buffer violation {@code v} the race it is: its store's and access's sites, each with the
     * call that reached it if any, and the field or array each reached, objects left out. Violations with equal
     * races are one finding ({@link #group}, and {@code report.Merge} across reports).
     */
    public static List<Object> race(Violation v) {
        return List.of(v.store().site(), v.access().site(), field(v.store()), field(v.access()));
    }

    /**
     * What makes serializability violation {@code v} the cycle it is, in any JVM: its kind and analysis, its
     * transactions' sites, and each edge's kind, late side and events' sites and fields (objects left out).
     */
    public static List<Object> cycle(Violation v) {
        List<Object> key = new ArrayList<>(List.of(v.kind(), v.analysis()));
        for (TxInfo x : v.transactions()) {
            key.add(x.site());
        }
        for (CycleEdge e : v.edges()) {
            key.add(List.of(e.kind(), e.late(), e.source().site(), field(e.source()), e.target().site(),
                    field(e.target())));
        }
        return key;
    }

    /** The violation shown for it: the first one seen. */
    public Violation first() {
        return violations.get(0);
    }

    /** Every distinct violation it stands for. */
    public List<Violation> violations() {
        return Collections.unmodifiableList(violations);
    }

    /** Whether it is a cycle of transactions (a serializability violation). */
    public boolean isCycle() {
        return first().isCycle();
    }

    /** Its category. */
    public Category category() {
        return isCycle() ? Category.ATOMICITY : Category.of(first().store(), first().access());
    }

    /** The analyses that found it, in their order. */
    public List<Analysis> analyses() {
        TreeSet<Analysis> a = new TreeSet<>();
        for (Violation v : violations) {
            a.add(v.analysis());
        }
        return List.copyOf(a);
    }

    /** The memory models it breaks under ({@code TSO}, {@code PSO}; {@code SC} for an SC-serializability cycle). */
    public List<String> models() {
        List<String> m = new ArrayList<>();
        for (Analysis a : analyses()) {
            if (!m.contains(a.model())) {
                m.add(a.model());
            }
        }
        return m;
    }

    /** Per analysis, how many times it was seen. */
    public Map<Analysis, Long> counts() {
        Map<Analysis, Long> c = new EnumMap<>(Analysis.class);
        for (Violation v : violations) {
            c.merge(v.analysis(), v.count(), Long::sum);
        }
        return c;
    }

    /** How many times it was seen: by the analysis that saw it most (they watch the same accesses). */
    public long count() {
        long n = 0;
        for (long c : counts().values()) {
            n = Math.max(n, c);
        }
        return n;
    }

    /** The distinct prev events it came with (by site), first seen first, each with its count. */
    public List<Example> examples() {
        Map<Site, Map<Analysis, Long>> by = new LinkedHashMap<>();
        Map<Site, EventInfo> prev = new LinkedHashMap<>();
        for (Violation v : violations) {
            if (v.isCycle()) {
                continue;
            }
            prev.putIfAbsent(v.prev().site(), v.prev());
            by.computeIfAbsent(v.prev().site(), s -> new EnumMap<>(Analysis.class)).merge(v.analysis(), v.count(),
                    Long::sum);
        }
        List<Example> out = new ArrayList<>();
        for (Map.Entry<Site, EventInfo> e : prev.entrySet()) {
            long n = 0;
            for (long c : by.get(e.getKey()).values()) {
                n = Math.max(n, c);
            }
            out.add(new Example(e.getValue(), n));
        }
        return out;
    }

    /**
     * A key that survives unrelated edits: the class, method and field of store and access (element
     * indices and object numbers left out), not their lines, and for a helper's access the class and method
     * of the call that reached it ({@code race:Buf#putInt@Ring#write:int[][]->...}); for a cycle, its
     * transactions' methods.
     */
    public String key() {
        return key(true);
    }

    /**
     * {@link #key()} without the callers: the key of the same finding as reports before helpers were told apart
     * by their callers wrote it. A baseline line of that form accepts the finding whatever its callers
     * ({@code report.Triage}). Equal to {@link #key()} when neither side has a caller, and for a cycle.
     */
    public String keyWithoutCallers() {
        return key(false);
    }

    private String key(boolean callers) {
        if (isCycle()) {
            TreeSet<String> txs = new TreeSet<>();
            for (TxInfo x : first().transactions()) {
                txs.add(where(x.site()));
            }
            return first().analysis().option() + ":" + String.join(",", txs);
        }
        return "race:" + where(first().store().site(), callers) + ":" + field(first().store()) + "->"
                + where(first().access().site(), callers) + ":" + field(first().access());
    }

    private static String where(Site s, boolean withCaller) {
        return where(s) + (withCaller && s.caller() != null ? "@" + where(s.caller()) : "");
    }

    private static String where(Site s) {
        return s.method().isEmpty() ? s.file() : s.className() + "#" + s.method();
    }

    private static String field(EventInfo e) {
        return dev.mmcheck.checker.event.Names.withoutObject(e.field());
    }

    /**
     * Gives it the caller chains recorded for its store's and access's sites ({@code Class.method:line ->
     * ...}, outermost first), from {@code bySite} (keyed by the sites themselves, callers left out); a site
     * reached through a known call keeps only the chains through that call. A cycle takes none.
     */
    public void contexts(Map<Site, List<String>> bySite) {
        if (!isCycle()) {
            storeContexts = withCaller(first().store().site(), bySite.getOrDefault(first().store().site().base(),
                    List.of()));
            accessContexts = withCaller(first().access().site(), bySite.getOrDefault(first().access().site().base(),
                    List.of()));
        }
    }

    /**
     * The chains that name a caller (a chain of the site's own method alone says nothing new), and, when
     * {@code site} has a caller, whose frame before the site's own is that caller.
     */
    private static List<String> withCaller(Site site, List<String> chains) {
        List<String> out = new ArrayList<>();
        for (String c : chains) {
            String[] frames = c.split(" -> ");
            if (frames.length < 2) {
                continue;
            }
            Site call = site.caller();
            if (call != null && !frames[frames.length - 2].equals(call.className()
                    .substring(call.className().lastIndexOf('.') + 1) + "." + call.method() + ":" + call.line())) {
                continue;
            }
            out.add(c);
        }
        return out;
    }

    /** Gives it these caller chains, as read back from reports ({@code report.Merge}). */
    public void contexts(List<String> store, List<String> access) {
        storeContexts = List.copyOf(store);
        accessContexts = List.copyOf(access);
    }

    /** Caller chains seen at the store's site (empty when none were recorded). */
    public List<String> storeContexts() {
        return storeContexts;
    }

    /** Caller chains seen at the access's site. */
    public List<String> accessContexts() {
        return accessContexts;
    }

    /** Names the tests during which it was first seen (a test framework's hooks, the agent's TestBridge). */
    public void tests(List<String> names) {
        tests = List.copyOf(names);
    }

    /** The tests during which it was first seen; empty when no test framework said. */
    public List<String> tests() {
        return tests;
    }

    /** Marks it suppressed by the rule described by {@code rule}. */
    public void suppress(String rule) {
        suppressedBy = rule;
    }

    /** The rule that suppressed it, or empty. */
    public String suppressedBy() {
        return suppressedBy;
    }

    /** Whether a rule suppressed it. */
    public boolean suppressed() {
        return !suppressedBy.isEmpty();
    }

    /** Marks it as present in the baseline: known, and not failing the run. */
    public void baseline() {
        baselined = true;
    }

    /** Whether the baseline has it. */
    public boolean baselined() {
        return baselined;
    }

    /** Whether it is new: neither suppressed nor in the baseline. */
    public boolean isNew() {
        return !suppressed() && !baselined;
    }
}
