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
     * name (its path may leave the thread elsewhere); a later release store, which may itself commit late, made a
     * volatile store. FixDifferentialTest found runs where each is the cheapest fix.
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
                } else if (after && k == EventKind.RELEASE_STORE) {
                    // already a release store, it may commit late: made volatile, it commits where it is issued
                    String words = "the release store to " + Names.withoutObject(symbols.addressName(run.operand(i)));
                    out.add(Set.of(Change.at(Change.Kind.VOLATILE_STORE, symbols.siteOf(site), words)));
                }
            }
        }
        out.removeIf(set -> !writable(set));
        return List.copyOf(out);
    }

    /**
     * A full fence at a point between a violation's two ends that the run executed less often than both (in a loop:
     * a fence once per outer iteration, between an inner loop of stores and an inner loop of loads). Any point between
     * removes what the ends remove, as a fence at either end does. A store-buffer violation (TSO, PSO, Sober): a
     * point after an instruction its store's thread ran after the store and before the event where the path leaves
     * the thread, each such point alone, at most {@code max}, the least executed first. The access-mode model's
     * store-buffering shape, which needs a fence in each thread: the least executed point of each thread's window
     * (the store's thread from the store to where the path leaves it, the access's thread from where the path enters
     * it to the access), or that window's cheaper end when no point between is cheaper, as one pair, when at least
     * one of the two is a point between. Which of them removes what is decided by replay, as for the others.
     */
    static List<Set<Change>> between(Finding finding, EventBuffer run, Symbols symbols, int max) {
        if (finding.isCycle()) {
            return List.of();
        }
        Windows w = new Windows(run, symbols);
        java.util.Map<Site, Integer> points = new java.util.LinkedHashMap<>(); // instruction -> an event of it
        java.util.Map<Site, Integer> stores = new java.util.LinkedHashMap<>(); // a store in a window -> an event of it
        Set<Set<Change>> out = new LinkedHashSet<>();
        Set<List<Object>> walked = new java.util.HashSet<>(); // each window is walked once (each walk reads the run)
        for (Violation v : finding.violations()) {
            if (v.analysis() != Analysis.JMM) {
                EventInfo leaving = leaving(v);
                if (leaving != null && walked.add(List.of(v.store().thread(), v.store().site(), leaving.site()))) {
                    points.putAll(w.cheaperPoints(v.store().thread(), v.store().site(), leaving.site()));
                    stores.putAll(w.stores(v.store().thread(), v.store().site(), leaving.site()));
                }
                continue;
            }
            Path p = Path.of(v);
            if (p.entering == null || p.leaving == null || !walked.add(List.of(v.store().thread(), v.store().site(),
                    p.leaving.site(), p.entering.thread(), p.entering.site(), v.access().site()))) {
                continue;
            }
            Change first = w.cheapest(v.store(), p.leaving);
            Change second = w.cheapest(p.entering, v.access());
            if (first.kind() == Change.Kind.FULL_FENCE_AFTER && !first.site().equals(v.store().site())
                    || second.kind() == Change.Kind.FULL_FENCE_AFTER && !second.site().equals(p.entering.site())) {
                out.add(set(first, second));
            }
        }
        List<java.util.Map.Entry<Site, Integer>> cheapest = new ArrayList<>(points.entrySet());
        cheapest.sort(java.util.Comparator.comparingInt(e -> w.executions(e.getKey())));
        int singles = 0;
        for (java.util.Map.Entry<Site, Integer> e : cheapest) {
            if (singles++ == max) {
                break;
            }
            out.add(Set.of(w.fenceAfter(e.getValue())));
        }
        // a store between made volatile (its field, for a plain field's store) is a full fence there too
        List<java.util.Map.Entry<Site, Integer>> between = new ArrayList<>(stores.entrySet());
        between.sort(java.util.Comparator.comparingInt(e -> w.executions(e.getKey())));
        int made = 0;
        for (java.util.Map.Entry<Site, Integer> e : between) {
            if (made++ == max) {
                break;
            }
            out.add(Set.of(w.volatileStore(e.getValue())));
        }
        out.removeIf(set -> !writable(set));
        List<Set<Change>> all = new ArrayList<>(out);
        return all.size() > 3 * max ? List.copyOf(all.subList(0, 3 * max)) : List.copyOf(all);
    }

    /** A run's executions per instruction, and the instructions a thread ran between two of its instructions. */
    private static final class Windows {
        private final EventBuffer run;
        private final Symbols symbols;
        private final java.util.Map<Site, Integer> executions = new java.util.HashMap<>();

        Windows(EventBuffer run, Symbols symbols) {
            this.run = run;
            this.symbols = symbols;
            int[] count = new int[symbols.siteCount()];
            for (int i = 0; i < run.size(); i++) {
                int site = run.site(i);
                if (site >= 0 && site < count.length) {
                    count[site]++;
                }
            }
            for (int site = 0; site < count.length; site++) {
                if (count[site] > 0 && symbols.hasSite(site)) {
                    executions.merge(Rewrite.instruction(symbols.siteOf(site)), count[site], Integer::sum);
                }
            }
        }

        /** How often the run executed instruction {@code s} (0: never). */
        int executions(Site s) {
            return executions.getOrDefault(Rewrite.instruction(s), 0);
        }

        /**
         * Hands {@code each} every window of {@code thread} in the run: the instructions it ran after an execution of
         * {@code from} and before the next of {@code to} (from {@code from}'s latest execution before it), each with
         * the index of an event of it, and the index of that execution of {@code to}.
         */
        private void windows(String thread, Site from, Site to,
                java.util.function.ObjIntConsumer<java.util.Map<Site, Integer>> each) {
            Site a = Rewrite.instruction(from);
            Site b = Rewrite.instruction(to);
            java.util.Map<Site, Integer> window = new java.util.LinkedHashMap<>();
            boolean after = false;
            for (int i = 0; i < run.size(); i++) {
                int site = run.site(i);
                if (site < 0 || !symbols.hasSite(site) || !symbols.threadName(run.thread(i)).equals(thread)) {
                    continue;
                }
                Site s = Rewrite.instruction(symbols.siteOf(site));
                if (s.equals(a)) {
                    after = true;
                    window.clear(); // the interval from the latest execution of from
                } else if (after && s.equals(b)) {
                    each.accept(window, i);
                    after = false;
                } else if (after) {
                    window.putIfAbsent(s, i);
                }
            }
        }

        /**
         * The instructions {@code thread} ran between {@code from} and {@code to} ({@link #windows}), each with the
         * index of an event of it, that the run executed fewer times than both {@code from} and {@code to}.
         */
        java.util.Map<Site, Integer> cheaperPoints(String thread, Site from, Site to) {
            int ends = Math.min(executions(from), executions(to));
            java.util.Map<Site, Integer> points = new java.util.LinkedHashMap<>();
            windows(thread, from, to, (window, at) -> window.forEach((s, i) -> {
                if (executions(s) < ends) {
                    points.putIfAbsent(s, i);
                }
            }));
            return points;
        }

        /**
         * The cheapest full fence between {@code from} and {@code to} in their thread: after the least executed
         * instruction between them that runs less often than both, else after {@code from} or before {@code to},
         * whichever the run executed less often.
         */
        Change cheapest(EventInfo from, EventInfo to) {
            java.util.Map<Site, Integer> points = cheaperPoints(from.thread(), from.site(), to.site());
            java.util.Map.Entry<Site, Integer> best = null;
            for (java.util.Map.Entry<Site, Integer> e : points.entrySet()) {
                if (best == null || executions(e.getKey()) < executions(best.getKey())) {
                    best = e;
                }
            }
            if (best != null) {
                return fenceAfter(best.getValue());
            }
            return executions(from.site()) <= executions(to.site())
                    ? Change.at(Change.Kind.FULL_FENCE_AFTER, from.site(), Candidates.words(from))
                    : Change.at(Change.Kind.FULL_FENCE_BEFORE, to.site(), Candidates.words(to));
        }

        /**
         * The stores {@code thread} ran between {@code from} and {@code to} ({@link #windows}), and {@code to} itself
         * when it is a store, each with the index of an event of it (whatever their executions: the field made
         * volatile is priced by its accesses, not by the point's).
         */
        java.util.Map<Site, Integer> stores(String thread, Site from, Site to) {
            java.util.Map<Site, Integer> found = new java.util.LinkedHashMap<>();
            windows(thread, from, to, (window, at) -> {
                window.forEach((s, i) -> {
                    if (isStore(i)) {
                        found.putIfAbsent(s, i);
                    }
                });
                if (isStore(at)) {
                    found.putIfAbsent(Rewrite.instruction(symbols.siteOf(run.site(at))), at);
                }
            });
            return found;
        }

        /** Whether event {@code i} is a plain or release store of an address. */
        private boolean isStore(int i) {
            EventKind k = EventKind.of(run.kind(i));
            return (k == EventKind.STORE || k == EventKind.RELEASE_STORE) && run.operand(i) >= 0;
        }

        /**
         * The store of event {@code i} made volatile: its field, for a plain field's store (no call to change in
         * place), else the store made a volatile store.
         */
        Change volatileStore(int i) {
            int site = run.site(i);
            Site s = symbols.siteOf(site);
            String field = Names.withoutObject(symbols.addressName(run.operand(i)));
            String words = Candidates.words(run, symbols, site);
            boolean plainField = EventKind.of(run.kind(i)) == EventKind.STORE && s.mode().isEmpty()
                    && !field.contains("[");
            return plainField ? Change.volatileField(field, s, words)
                    : Change.at(Change.Kind.VOLATILE_STORE, s, words);
        }

        /** A full fence right after the instruction of event {@code i}. */
        Change fenceAfter(int i) {
            int site = run.site(i);
            return Change.at(Change.Kind.FULL_FENCE_AFTER, symbols.siteOf(site), Candidates.words(run, symbols, site));
        }
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
