package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.SiteModes;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.result.Violation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The ways to remove one finding: each a set of {@link Change}s that together order what the finding's violation
 * found unordered (docs/fix.md, "Candidates"). They are proposals, read off the violations' events the way the
 * report's advice is: which of them removes which finding is not assumed here but decided by replaying the run with
 * them ({@link FixSearch}).
 *
 * <p>A store-buffer violation (TSO, PSO, Sober) has a store e that stayed buffered while a later event x of its
 * thread, where the happens-before path leaves that thread, was already seen: a full fence anywhere between e and x
 * removes it; the two ends are proposed (right after e, right before x), and, from the run, the points between that
 * it executed less often than both ends ({@link #between}: in a loop), and the stronger store at e (a volatile store is a store and a full fence: for a plain
 * field's store both the field made volatile and that one store made a volatile store, whichever the run makes
 * cheaper); under PSO, when
 * x is a store, a release store at x or a release fence before it. A finding of the access-mode model (jmm) has a
 * path that enters the access's thread at some event: a release/acquire pair across it (the write where the path
 * leaves the store's thread made release, the read where it enters the access's thread made acquire), fences in
 * both threads for a store-buffering shape, or every weak access on it made volatile.
 */
final class Candidates {

    private Candidates() {
    }

    /** The change sets proposed for {@code finding}, cheapest kinds first, none repeated; empty for a cycle. */
    static List<Set<Change>> of(Finding finding) {
        Set<Set<Change>> out = new LinkedHashSet<>();
        if (finding.isCycle()) {
            return List.of();
        }
        List<Violation> buffer = new ArrayList<>();
        for (Violation v : finding.violations()) {
            if (v.analysis() == Analysis.JMM) {
                jmm(v, out);
            } else {
                buffer.add(v);
            }
        }
        if (!buffer.isEmpty()) {
            storeBuffer(buffer, out);
        }
        out.removeIf(set -> set.isEmpty() || !writable(set));
        return List.copyOf(out);
    }

    /**
     * Whether every change of {@code set} can be written: a fence always; a mode only where the code chose one, not on
     * the referent of a {@code Reference}, which the JDK's {@code get()} and {@code clear()} read and write with no
     * mode a caller can choose (docs/mapping.md, "The JDK's memory-relevant methods").
     */
    static boolean writable(Set<Change> set) {
        for (Change c : set) {
            if (!c.kind().insertsFence() && (c.access().endsWith("Reference.referent")
                    || c.field().endsWith("Reference.referent"))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Under PSO, the stores of a violation's store's thread that the run executed after the store and before the
     * access, each made a release store (or given a release fence before it): the buffered store then commits before
     * it, which orders it before whatever read that later store, a happens-before path the violation's own need not
     * name (its path may leave the thread elsewhere). FixDifferentialTest found runs where this is the cheapest fix.
     * At most {@code max} sets; which of them removes what is decided by replay, as for the others.
     */
    static List<Set<Change>> laterStores(Finding finding, EventBuffer run, Symbols symbols, int max) {
        Set<Set<Change>> out = new LinkedHashSet<>();
        for (Violation v : finding.violations()) {
            if (v.analysis() != Analysis.PSO) {
                continue;
            }
            Site store = Rewrite.instruction(v.store().site());
            Site access = Rewrite.instruction(v.access().site());
            boolean after = false;
            for (int i = 0; i < run.size() && out.size() < max; i++) {
                int site = run.site(i);
                if (site < 0) {
                    continue;
                }
                String thread = symbols.threadName(run.thread(i));
                Site s = Rewrite.instruction(symbols.siteOf(site));
                if (after && thread.equals(v.access().thread()) && s.equals(access)) {
                    break;
                }
                if (!thread.equals(v.store().thread())) {
                    continue;
                }
                if (s.equals(store)) {
                    after = true;
                    continue;
                }
                EventKind k = EventKind.of(run.kind(i));
                if (after && k == EventKind.STORE) {
                    String words = "the store to " + Names.withoutObject(symbols.addressName(run.operand(i)));
                    out.add(Set.of(Change.at(Change.Kind.RELEASE_STORE, symbols.siteOf(site), words)));
                    out.add(Set.of(Change.at(Change.Kind.RELEASE_FENCE_BEFORE, symbols.siteOf(site), words)));
                }
            }
        }
        out.removeIf(set -> !writable(set));
        return List.copyOf(out);
    }

    /**
     * A full fence at a point between a store-buffer violation's two ends: after an instruction its store's thread
     * ran after the store and before the event where the path leaves the thread. Any point between removes it as the
     * ends do; in straight-line code each runs as often as the ends, but in a loop one between them can run less
     * often (a fence once per outer iteration, between an inner loop of stores and an inner loop of loads). Only
     * such points are proposed: instructions the run executed fewer times than both ends, at most {@code max}, the
     * least executed first. Which of them removes what is decided by replay, as for the others.
     */
    static List<Set<Change>> between(Finding finding, EventBuffer run, Symbols symbols, int max) {
        if (finding.isCycle()) {
            return List.of();
        }
        int[] count = new int[symbols.siteCount()];
        for (int i = 0; i < run.size(); i++) {
            int site = run.site(i);
            if (site >= 0 && site < count.length) {
                count[site]++;
            }
        }
        java.util.Map<Site, Integer> executions = new java.util.HashMap<>();
        for (int site = 0; site < count.length; site++) {
            if (count[site] > 0 && symbols.hasSite(site)) {
                executions.merge(Rewrite.instruction(symbols.siteOf(site)), count[site], Integer::sum);
            }
        }
        java.util.Map<Site, Integer> points = new java.util.LinkedHashMap<>(); // instruction -> a site id of it
        for (Violation v : finding.violations()) {
            EventInfo leaving = v.analysis() == Analysis.JMM ? null : leaving(v);
            if (leaving == null) {
                continue;
            }
            Site store = Rewrite.instruction(v.store().site());
            Site leave = Rewrite.instruction(leaving.site());
            int ends = Math.min(executions.getOrDefault(store, 0), executions.getOrDefault(leave, 0));
            java.util.Map<Site, Integer> window = new java.util.LinkedHashMap<>();
            boolean after = false;
            for (int i = 0; i < run.size(); i++) {
                int site = run.site(i);
                if (site < 0 || !symbols.hasSite(site) || !symbols.threadName(run.thread(i)).equals(v.store().thread())) {
                    continue;
                }
                Site s = Rewrite.instruction(symbols.siteOf(site));
                if (s.equals(store)) {
                    after = true;
                    window.clear(); // the interval from the store's latest execution
                } else if (after && s.equals(leave)) {
                    for (java.util.Map.Entry<Site, Integer> e : window.entrySet()) {
                        if (executions.getOrDefault(e.getKey(), 0) < ends) {
                            points.putIfAbsent(e.getKey(), e.getValue());
                        }
                    }
                    after = false;
                } else if (after) {
                    window.putIfAbsent(s, site);
                }
            }
        }
        List<java.util.Map.Entry<Site, Integer>> cheapest = new ArrayList<>(points.entrySet());
        cheapest.sort(java.util.Comparator.comparingInt(e -> executions.getOrDefault(e.getKey(), 0)));
        Set<Set<Change>> out = new LinkedHashSet<>();
        for (java.util.Map.Entry<Site, Integer> e : cheapest) {
            if (out.size() == max) {
                break;
            }
            out.add(Set.of(Change.at(Change.Kind.FULL_FENCE_AFTER, symbols.siteOf(e.getValue()),
                    words(run, symbols, e.getValue()))));
        }
        return List.copyOf(out);
    }

    /** The instruction at site {@code site} as a report names it, from its first event in {@code run}. */
    private static String words(EventBuffer run, Symbols symbols, int site) {
        for (int i = 0; i < run.size(); i++) {
            if (run.site(i) == site) {
                EventKind k = EventKind.of(run.kind(i));
                String op = (k == EventKind.INTERLOCKED ? "compare-and-set" : k.label()).replace('-', ' ');
                return k.operand() == EventKind.Operand.ADDRESS
                        ? "the " + op + (op.contains("store") ? " to " : " of ")
                                + Names.withoutObject(symbols.addressName(run.operand(i)))
                        : "the " + op;
            }
        }
        return "the instruction";
    }

    private static void storeBuffer(List<Violation> vs, Set<Set<Change>> out) {
        EventInfo store = vs.get(0).store();
        out.add(Set.of(Change.at(Change.Kind.FULL_FENCE_AFTER, store.site(), words(store))));
        Change strong = volatileWrite(store);
        out.add(Set.of(strong));
        if (strong.kind() == Change.Kind.VOLATILE_FIELD) {
            // the one store made volatile (a VarHandle's setVolatile) is cheaper than the field when the run
            // stores or loads the field elsewhere (FixDifferentialTest found it)
            out.add(Set.of(Change.at(Change.Kind.VOLATILE_STORE, store.site(), words(store))));
        }
        Set<Change> before = new LinkedHashSet<>();
        Set<Change> release = new LinkedHashSet<>();
        Set<Change> releaseFence = new LinkedHashSet<>();
        boolean allLeave = true;
        boolean pso = true;
        for (Violation v : vs) {
            EventInfo leaving = leaving(v);
            if (leaving == null) {
                allLeave = false;
                continue;
            }
            before.add(Change.at(Change.Kind.FULL_FENCE_BEFORE, leaving.site(), words(leaving)));
            pso &= v.analysis() == Analysis.PSO && writes(leaving);
            if (leaving.op().equals("store")) {
                release.add(Change.at(Change.Kind.RELEASE_STORE, leaving.site(), words(leaving)));
            }
            releaseFence.add(Change.at(Change.Kind.RELEASE_FENCE_BEFORE, leaving.site(), words(leaving)));
        }
        if (allLeave) {
            out.add(before);
            if (pso) {
                if (release.size() == before.size()) {
                    out.add(release);
                }
                out.add(releaseFence);
            }
        }
    }

    private static void jmm(Violation v, Set<Set<Change>> out) {
        EventInfo store = v.store();
        EventInfo access = v.access();
        Path p = Path.of(v);
        Change strongStore = volatileWrite(store);
        Change strongAccess = writes(access) ? volatileWrite(access) : volatileRead(access);
        if (!writes(access) && access.op().equals("load") && !volatileAccess(access)) {
            out.add(set(Change.at(Change.Kind.VOLATILE_LOAD, access.site(), words(access))));
            // an acquire fence right before the access orders the thread's earlier reads (where the path entered)
            // before it; one right after orders it before the thread's later accesses (a seqlock's re-read)
            out.add(set(Change.at(Change.Kind.ACQUIRE_FENCE_BEFORE, access.site(), words(access))));
            out.add(set(Change.at(Change.Kind.ACQUIRE_FENCE_AFTER, access.site(), words(access))));
        }
        out.add(set(Change.at(Change.Kind.FULL_FENCE_AFTER, store.site(), words(store))));
        out.add(set(Change.at(Change.Kind.FULL_FENCE_BEFORE, access.site(), words(access))));
        out.add(set(Change.at(Change.Kind.FULL_FENCE_AFTER, store.site(), words(store)),
                Change.at(Change.Kind.FULL_FENCE_BEFORE, access.site(), words(access))));
        if (p.entering != null && p.source != null && reads(p.entering) && writes(p.source)) {
            // a release/acquire pair where the path crosses into the access's thread
            List<Change> readerSide = new ArrayList<>();
            if (!acquires(p.entering)) {
                if (p.entering.op().equals("load")) {
                    readerSide.add(Change.at(Change.Kind.ACQUIRE_LOAD, p.entering.site(), words(p.entering)));
                }
                readerSide.add(Change.at(Change.Kind.ACQUIRE_FENCE_AFTER, p.entering.site(), words(p.entering)));
            }
            List<Change> writerSide = new ArrayList<>();
            if (p.leaving != null && writes(p.leaving) && !releases(p.leaving)) {
                if (p.leaving.op().equals("store")) {
                    writerSide.add(Change.at(Change.Kind.RELEASE_STORE, p.leaving.site(), words(p.leaving)));
                }
                writerSide.add(Change.at(Change.Kind.RELEASE_FENCE_BEFORE, p.leaving.site(), words(p.leaving)));
            }
            for (Change r : readerSide) {
                out.add(set(r));
                for (Change w : writerSide) {
                    out.add(set(w, r));
                }
            }
            for (Change w : writerSide) {
                out.add(set(w));
            }
        }
        if (p.entering != null && p.leaving != null) {
            // a store-buffering shape: a full fence in each thread, between its two accesses on the path
            out.add(set(Change.at(Change.Kind.FULL_FENCE_AFTER, store.site(), words(store)),
                    Change.at(Change.Kind.FULL_FENCE_AFTER, p.entering.site(), words(p.entering))));
            out.add(set(Change.at(Change.Kind.FULL_FENCE_BEFORE, p.leaving.site(), words(p.leaving)),
                    Change.at(Change.Kind.FULL_FENCE_BEFORE, access.site(), words(access))));
        }
        // every weak access on the path made volatile: SC accesses are ordered whatever the path
        Set<Change> all = new LinkedHashSet<>();
        if (!volatileAccess(store)) {
            all.add(strongStore);
        }
        for (EventInfo e : new EventInfo[] {p.leaving, p.source, p.entering}) {
            if (e != null && !e.op().equals("fence") && !e.op().startsWith("monitor") && !volatileAccess(e)) {
                all.add(writes(e) && !reads(e) ? volatileWrite(e) : volatileRead(e));
            }
        }
        if (!volatileAccess(access)) {
            all.add(strongAccess);
        }
        out.add(all);
    }

    /** The changes given, once each (two of them may be one: the store's site can be where the path enters). */
    private static Set<Change> set(Change... changes) {
        return new LinkedHashSet<>(List.of(changes));
    }

    /** The events where the path leaves the store's thread, and enters the access's (from {@code source}). */
    private record Path(EventInfo leaving, EventInfo source, EventInfo entering) {
        static Path of(Violation v) {
            List<EventInfo> steps = v.path();
            if (steps == null) {
                return new Path(null, null, null);
            }
            EventInfo leaving = null;
            EventInfo source = null;
            EventInfo entering = null;
            for (int i = 0; i < steps.size(); i++) {
                EventInfo s = steps.get(i);
                boolean crosses = i + 1 < steps.size() && !steps.get(i + 1).thread().equals(s.thread());
                boolean entered = i > 0 && !steps.get(i - 1).thread().equals(s.thread());
                if (crosses && leaving == null && s.thread().equals(v.store().thread())) {
                    leaving = s;
                }
                if (entered && s.thread().equals(v.access().thread())) {
                    source = steps.get(i - 1);
                    entering = s;
                }
            }
            return new Path(leaving, source, entering);
        }
    }

    /** Where the happens-before path of a store-buffer violation leaves the store's thread, or null when not kept. */
    static EventInfo leaving(Violation v) {
        return Path.of(v).leaving;
    }

    /** The stronger store at {@code e}: the field made volatile for a plain field's store, else a volatile store. */
    private static Change volatileWrite(EventInfo e) {
        String field = Names.withoutObject(e.field());
        boolean plainField = e.op().equals("store") && e.site().mode().isEmpty() && !field.contains("[");
        return plainField ? Change.volatileField(field, e.site(), words(e))
                : Change.at(Change.Kind.VOLATILE_STORE, e.site(), words(e));
    }

    /** The stronger load at {@code e}: the field made volatile for a plain field's load, else a volatile load. */
    private static Change volatileRead(EventInfo e) {
        String field = Names.withoutObject(e.field());
        boolean plainField = e.op().equals("load") && e.site().mode().isEmpty() && !field.contains("[");
        return plainField ? Change.volatileField(field, e.site(), words(e))
                : Change.at(Change.Kind.VOLATILE_LOAD, e.site(), words(e));
    }

    /** The access as a report names it: {@code the store to Ring.tail}, {@code the load of Ring.head}. */
    private static String words(EventInfo e) {
        String op = e.op().equals("cas") ? "compare-and-set" : e.op().replace('-', ' ');
        String field = Names.withoutObject(e.field());
        return "the " + op + (field.isEmpty() ? "" : (op.contains("store") ? " to " : " of ") + field);
    }

    private static boolean volatileAccess(EventInfo e) {
        String m = e.site().mode();
        return e.op().equals("volatile-store") || e.op().equals("load") && m.equals(SiteModes.VOLATILE)
                || e.op().equals("cas") && (m.isEmpty() || m.equals(SiteModes.FAILED));
    }

    private static boolean reads(EventInfo e) {
        return e.op().equals("load") || e.op().equals("cas") || e.op().equals("monitor-enter");
    }

    private static boolean writes(EventInfo e) {
        return e.op().contains("store") || e.op().equals("cas") && !e.site().mode().endsWith(SiteModes.FAILED)
                || e.op().equals("monitor-exit");
    }

    private static boolean acquires(EventInfo e) {
        String m = e.site().mode();
        return e.op().equals("monitor-enter") || m.startsWith(SiteModes.VOLATILE) || m.startsWith(SiteModes.ACQUIRE)
                || e.op().equals("cas") && (m.isEmpty() || m.equals(SiteModes.FAILED));
    }

    private static boolean releases(EventInfo e) {
        String m = e.site().mode();
        return e.op().equals("release-store") || e.op().equals("volatile-store") || e.op().equals("monitor-exit")
                || e.op().equals("cas") && (m.isEmpty() || m.startsWith(SiteModes.RELEASE));
    }
}
