package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Finding;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the cheapest set of {@link Change}s that removes every finding of a recorded run, and proves it by replay
 * (docs/fix.md). DFence's loop (Liu et al., PLDI 2012) on one run, with Java's access modes for its repairs:
 *
 * <ol>
 *   <li>replay the run under the models asked for; its findings are what to remove;</li>
 *   <li>propose, per finding, the change sets that could remove it ({@link Candidates});</li>
 *   <li>replay the run with each candidate set made (on top of what earlier rounds chose): the findings it no longer
 *       has are the ones it removes; nothing about which change removes what is assumed;</li>
 *   <li>choose the cheapest combination that removes them all ({@link HittingSet}), priced by the run's executions
 *       of what each change touches;</li>
 *   <li>replay with the choice made; findings it still has (a stronger mode can let a later access show a race the
 *       earlier one hid) start another round from there;</li>
 *   <li>drop any change without which the replay is still clean (dearest first), and for each change kept, replay
 *       without it: the findings that come back prove it is needed.</li>
 * </ol>
 *
 * The checker's configuration is the replay command's; the run is held in memory ({@link EventBuffer}, 16 bytes an
 * event) and replayed once per candidate set, so the cost is about (candidate sets + 2 x changes) replays.
 */
public final class FixSearch {

    /** How the search is bounded. */
    public record Config(int maxRounds, long nodeBudget) {
        /** Three rounds, a million nodes of exact search per round. */
        public static Config defaults() {
            return new Config(3, 1_000_000);
        }
    }

    /** One recorded run: its events and the names behind their ids. */
    public record Run(EventBuffer events, Symbols symbols) {
    }

    /** At most this many release changes at the later stores of a PSO finding's thread ({@link Candidates}). */
    private static final int LATER_STORES = 8;

    /** At most this many fences at points between a store-buffer finding's ends that run less often ({@link Candidates}). */
    private static final int BETWEEN = 4;

    private final List<Run> runs;
    private final Config config;
    private final Map<Site, Long> executions = new HashMap<>();
    private final Map<String, long[]> fieldAccesses = new HashMap<>();   // field -> {stores, loads}
    private final Map<String, Change> volatileFields = new HashMap<>();  // field -> the one change making it volatile
    private final Set<Site> plainAccesses = new HashSet<>();  // instructions the runs executed as plain loads or stores
    private final Map<Change, Boolean> edges = new HashMap<>();  // a fence: whether nothing runs between it and its access
    private Set<Analysis> models;
    private long replays;

    private FixSearch(List<Run> runs, Config config) {
        this.runs = List.copyOf(runs);
        this.config = config;
        for (Run r : runs) {
            count(r.events(), r.symbols());
        }
    }

    /** Adds {@code run}'s executions of each instruction and accesses of each field to the counts. */
    private void count(EventBuffer run, Symbols symbols) {
        for (int i = 0; i < run.size(); i++) {
            int site = run.site(i);
            EventKind k = EventKind.of(run.kind(i));
            if (site >= 0) {
                Site s = symbols.siteOf(site);
                Site instruction = Rewrite.instruction(s);
                executions.merge(instruction, 1L, Long::sum);
                if ((k == EventKind.LOAD || k == EventKind.STORE) && s.mode().isEmpty()) {
                    plainAccesses.add(instruction);
                }
            }
            if ((k == EventKind.LOAD || k == EventKind.STORE || k == EventKind.RELEASE_STORE
                    || k == EventKind.VOLATILE_STORE) && run.operand(i) >= 0) {
                long[] n = fieldAccesses.computeIfAbsent(Names.withoutObject(symbols.addressName(run.operand(i))),
                        f -> new long[2]);
                n[k == EventKind.LOAD ? 1 : 0]++;
            }
        }
    }

    /** The fix for {@code run}, whose names are {@code symbols}, under {@code analyses}. */
    public static FixResult search(EventBuffer run, Symbols symbols, Set<Analysis> analyses, Config config) {
        return search(List.of(new Run(run, symbols)), analyses, config);
    }

    /**
     * The fix for several runs of one program at once: the changes name instructions, which the runs share; a finding
     * is removed when no run has it with the changes made, and a change is priced by its executions in all the runs.
     */
    public static FixResult search(List<Run> runs, Set<Analysis> analyses, Config config) {
        return new FixSearch(runs, config).search(analyses);
    }

    private FixResult search(Set<Analysis> analyses) {
        models = EnumSet.copyOf(analyses);
        List<Finding> all = new ArrayList<>(union(Set.of(), true).values());
        List<Finding> findings = new ArrayList<>();
        List<Finding> cycles = new ArrayList<>();
        Set<Analysis> reported = EnumSet.noneOf(Analysis.class);
        for (Finding f : all) {
            if (f.isCycle()) {
                cycles.add(f);
            } else {
                findings.add(f);
                reported.addAll(f.analyses());
            }
        }
        if (findings.isEmpty()) {
            return new FixResult(models, findings, cycles, List.of(), List.of(), 0, true, 0, replays, runs.size());
        }
        models = reported;
        Set<Change> chosen = new LinkedHashSet<>();
        Map<Change, Set<String>> removes = new LinkedHashMap<>();
        List<Finding> remaining = findings;
        boolean exact = true;
        int candidates = 0;
        int rounds = 0;
        while (!remaining.isEmpty() && rounds < config.maxRounds()) {
            rounds++;
            Round r = round(chosen, remaining);
            candidates += r.tried;
            exact &= r.exact;
            if (r.picked.isEmpty()) {
                break;
            }
            for (Set<Change> set : r.picked) {
                for (Change c : set) {
                    chosen.add(c);
                    removes.computeIfAbsent(c, k -> new LinkedHashSet<>()).addAll(r.removedBy.get(set));
                }
            }
            remaining = findings(chosen);
        }
        if (remaining.isEmpty()) {
            // minimal: leave out each change, dearest first, that the replay does not need
            List<Change> order = new ArrayList<>(chosen);
            order.sort(Comparator.comparingDouble(this::cost).reversed());
            for (Change c : order) {
                Set<Change> without = new LinkedHashSet<>(chosen);
                without.remove(c);
                if (findings(without).isEmpty()) {
                    chosen.remove(c);
                }
            }
        }
        List<FixResult.Planned> planned = new ArrayList<>();
        for (Change c : chosen) {
            Set<Change> without = new LinkedHashSet<>(chosen);
            without.remove(c);
            int back = remaining.isEmpty() ? findings(without).size() : 0;
            planned.add(new FixResult.Planned(c, executions(c), cost(c), edit(c),
                    List.copyOf(removes.getOrDefault(c, Set.of())), back));
        }
        planned.sort(Comparator.comparingDouble(FixResult.Planned::cost).reversed()
                .thenComparing(p -> p.change().toString()));
        return new FixResult(models, findings, cycles, List.copyOf(planned), remaining, candidates, exact, rounds,
                replays, runs.size());
    }

    /** One round's outcome: the candidate sets chosen, what each removes, how many were tried, whether exact. */
    private record Round(List<Set<Change>> picked, Map<Set<Change>, Set<String>> removedBy, int tried,
            boolean exact) {
    }

    private Round round(Set<Change> chosen, List<Finding> todo) {
        List<String> keys = new ArrayList<>();
        for (Finding f : todo) {
            keys.add(key(f));
        }
        // candidate sets, each less what is already chosen, tried once each
        List<Set<Change>> sets = new ArrayList<>();
        Set<Set<Change>> seen = new LinkedHashSet<>();
        for (Finding f : todo) {
            List<Set<Change>> proposed = new ArrayList<>(Candidates.of(f));
            for (Run r : runs) {
                proposed.addAll(Candidates.laterStores(f, r.events(), r.symbols(), LATER_STORES));
                proposed.addAll(Candidates.between(f, r.events(), r.symbols(), BETWEEN));
            }
            for (Set<Change> s : proposed) {
                Set<Change> extra = new LinkedHashSet<>();
                for (Change c : s) {
                    Change k = canonical(c);
                    if (k == null) {
                        extra = null; // a fence no line can hold where the replay would put it
                        break;
                    }
                    extra.add(k);
                }
                if (extra == null) {
                    continue;
                }
                extra.removeAll(chosen);
                if (!extra.isEmpty() && seen.add(extra)) {
                    sets.add(extra);
                }
            }
        }
        List<Change> elements = new ArrayList<>();
        Map<Change, Integer> index = new HashMap<>();
        int[][] members = new int[sets.size()][];
        BitSet[] removes = new BitSet[sets.size()];
        Map<Set<Change>, Set<String>> removedBy = new HashMap<>();
        for (int s = 0; s < sets.size(); s++) {
            Set<Change> with = new LinkedHashSet<>(chosen);
            with.addAll(sets.get(s));
            Set<String> left = new java.util.HashSet<>();
            for (Finding f : findings(with)) {
                left.add(key(f));
            }
            removes[s] = new BitSet();
            Set<String> gone = new LinkedHashSet<>();
            for (int f = 0; f < keys.size(); f++) {
                if (!left.contains(keys.get(f))) {
                    removes[s].set(f);
                    gone.add(todo.get(f).key());
                }
            }
            removedBy.put(sets.get(s), gone);
            members[s] = sets.get(s).stream().mapToInt(c -> index.computeIfAbsent(c, k -> {
                elements.add(k);
                return elements.size() - 1;
            })).toArray();
        }
        double[] cost = new double[elements.size()];
        for (int e = 0; e < cost.length; e++) {
            cost[e] = cost(elements.get(e));
        }
        HittingSet h = new HittingSet(cost, members, removes, keys.size(), config.nodeBudget());
        HittingSet.Choice choice = h.solve();
        List<Set<Change>> picked = new ArrayList<>();
        for (int s : choice.sets()) {
            picked.add(sets.get(s));
        }
        return new Round(picked, removedBy, sets.size(), choice.exact());
    }

    /**
     * One change per field made volatile, whichever store asked for it first: two findings whose stores differ ask
     * for the same edit, which must be priced once (else the hitting set pays the field twice and may choose a
     * dearer fix; the minimality pass then drops the second, but too late for the choice).
     */
    /**
     * The change as it is written: one field change per field; a fence at a helper's call where nothing of the helper
     * runs between the call's line and the access, else at the access itself for every caller; null for a fence at an
     * access that shares its line with other events of its thread on the fence's side (a line written before or after
     * that line would have those events between it and the access, which the replay does not).
     */
    private Change canonical(Change c) {
        if (c.kind() == Change.Kind.VOLATILE_FIELD) {
            return volatileFields.computeIfAbsent(c.field(), f -> c);
        }
        if (!c.kind().insertsFence()) {
            return c;
        }
        Change placed = c.site().caller() != null && !atEdge(c) ? Change.at(c.kind(), c.site().base(), c.access()) : c;
        return placed.site().caller() != null || atEdge(placed) ? placed : null;
    }

    /**
     * Whether a fence written on its own line does what the replay's fence next to the access does: in every run, for
     * each execution of the access, the thread's next memory event (previous, for a fence before; a transaction's bounds
     * are not) is outside what the line spans. For a fence at a helper's call, outside the helper: an event of the caller's method, or of another call
     * the caller made (its site names that caller), or none; for a fence at the access itself, any event not on the
     * access's own line.
     */
    private boolean atEdge(Change c) {
        return edges.computeIfAbsent(c, k -> {
            boolean after = k.kind() == Change.Kind.FULL_FENCE_AFTER || k.kind() == Change.Kind.ACQUIRE_FENCE_AFTER;
            Site access = k.site();
            Site caller = access.caller();
            for (Run r : runs) {
                EventBuffer run = r.events();
                Symbols symbols = r.symbols();
                Map<Integer, Site> last = new HashMap<>();   // thread -> the site of its latest event with one
                Set<Integer> open = new HashSet<>();         // threads whose latest site event is the access (after)
                for (int i = 0; i < run.size(); i++) {
                    int site = run.site(i);
                    EventKind kind = EventKind.of(run.kind(i));
                    if (site < 0 || !symbols.hasSite(site) || kind == EventKind.TX_BEGIN || kind == EventKind.TX_END) {
                        continue; // a method declared atomic begins or ends: no memory event
                    }
                    int t = run.thread(i);
                    Site s = symbols.siteOf(site);
                    boolean here = k.changes(s);
                    if (after && open.remove(t) && !outside(s, access, caller)) {
                        return false; // something ran after the access before the written fence would
                    }
                    if (here) {
                        Site prev = last.get(t);
                        if (!after && prev != null && !outside(prev, access, caller)) {
                            return false; // something ran before the access after the written fence would
                        }
                        if (after) {
                            open.add(t);
                        }
                    }
                    last.put(t, s);
                }
            }
            return true;
        });
    }

    /** Whether an event at {@code s} is outside the line a fence for {@code access} is written next to. */
    private static boolean outside(Site s, Site access, Site caller) {
        if (caller == null) {
            return !(s.file().equals(access.file()) && s.line() == access.line() && sameMethod(s, access));
        }
        // the caller's own code, or another method it called (not the helper itself, whose events name the same call)
        return sameMethod(s, caller) || s.caller() != null && sameMethod(s.caller(), caller) && !sameMethod(s, access);
    }

    private static boolean sameMethod(Site a, Site b) {
        return a.className().equals(b.className()) && lambda(a.method()).equals(lambda(b.method()));
    }

    /** A lambda's method without javac's number, as a caller's is kept ({@code lambda$run$1} is {@code lambda$run}). */
    private static String lambda(String method) {
        return method.matches("lambda\\$.*\\$\\d+") ? method.replaceAll("\\$\\d+$", "") : method;
    }

    /** The findings (not cycles) of the run replayed with {@code changes} made. */
    private List<Finding> findings(Collection<Change> changes) {
        return new ArrayList<>(union(changes, false).values());
    }

    /**
     * The findings of every run replayed with {@code changes} made, under {@link #models}, one per {@link #key} (the
     * first run's that has it), cycles too when {@code cycles}.
     */
    private Map<String, Finding> union(Collection<Change> changes, boolean cycles) {
        Map<String, Finding> out = new LinkedHashMap<>();
        for (Run r : runs) {
            replays++;
            for (Finding f : Applied.replayed(r.events(), r.symbols(), models, changes)) {
                if (cycles || !f.isCycle()) {
                    out.putIfAbsent(key(f), f);
                }
            }
        }
        return out;
    }

    /**
     * What makes a finding the same one in a replay with changes made: its store's and access's instructions (modes
     * left out: a change gives an access a stronger one) and fields.
     */
    static String key(Finding f) {
        if (f.isCycle()) {
            return f.key();
        }
        EventInfo s = f.first().store();
        EventInfo a = f.first().access();
        return instruction(s.site()) + "|" + Names.withoutObject(s.field()) + "->" + instruction(a.site()) + "|"
                + Names.withoutObject(a.field());
    }

    private static String instruction(Site s) {
        return s.className() + "#" + s.method() + "@" + s.file() + ":" + s.line() + "/" + s.bci()
                + (s.caller() == null ? "" : "<-" + instruction(s.caller()));
    }

    /** How many times the run executed what {@code c} changes. */
    long executions(Change c) {
        if (c.kind() == Change.Kind.VOLATILE_FIELD) {
            long[] n = fieldAccesses.getOrDefault(c.field(), new long[2]);
            return n[0] + n[1];
        }
        long n = 0;
        for (Map.Entry<Site, Long> e : executions.entrySet()) {
            if (c.changes(e.getKey())) {
                n += e.getValue();
            }
        }
        return n;
    }

    /**
     * The price of {@code c}: its edit's ({@link #edit}), plus each execution it touches times its kind's weight.
     */
    double cost(Change c) {
        if (c.kind() == Change.Kind.VOLATILE_FIELD) {
            long[] n = fieldAccesses.getOrDefault(c.field(), new long[2]);
            return c.kind().edit() + n[0] * Change.Kind.VOLATILE_STORE.weight()
                    + n[1] * Change.Kind.VOLATILE_LOAD.weight();
        }
        return edit(c) + executions(c) * c.kind().weight();
    }

    /**
     * The price of writing {@code c}: its kind's ({@link Change.Kind#edit}), or {@link Change#HANDLE_EDIT} for a mode
     * change at an instruction the runs executed as a plain load or store (no call whose mode can be changed in place).
     */
    double edit(Change c) {
        if (c.kind().changesMode()) {
            for (Site s : plainAccesses) {
                if (c.changes(s)) {
                    return Change.HANDLE_EDIT;
                }
            }
        }
        return c.kind().edit();
    }
}
