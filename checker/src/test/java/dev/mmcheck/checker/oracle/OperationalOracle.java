package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.event.EventKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Brute force from the papers' operational models (Burnim et al. Figs. 1-3): enumerates every run of
 * a straight-line program on the TSO or PSO store-buffer automaton and decides whether one outputs a
 * trace that is not sequentially consistent, i.e. whose happens-before relation (program order plus
 * conflict order, Def. 4-6 and Prop. 1) has a cycle.
 *
 * <p>Automaton steps: a thread issues its next operation, or the memory commits a buffered store.
 * A load reads the thread's own last buffered store to the address, else memory (load_TSO/PSO). A
 * store enters the buffer (TSO: one FIFO per thread; PSO: one FIFO per thread and address). An
 * operation that needs buffers empty (interlocked, fence, the fence half of a volatile store) is
 * enabled only when they are, which yields the same traces as the figures' flush-inside transitions.
 * Java's extension (docs/mapping.md): in PSO a StoreStore fence, a release store and a volatile store
 * start a new generation; a store commits only when no store of an older generation of its thread is
 * buffered. A volatile store is then followed by a full fence. A load fence does nothing; monitorenter and
 * monitorexit are interlocked operations on the monitor's address, and an enter waits while another thread
 * holds the monitor (a program that locks must be one whose threads can always go on: every enter is
 * followed by its exit in its thread, as in {@code synchronized}).
 *
 * <p>States are memoized on everything that determines the rest of the run and its trace (program
 * counters, buffers, commit orders so far and the sources of the loads so far).
 */
public final class OperationalOracle {

    /** The automaton to run. */
    public enum Model {
        /** TSO (Fig. 2); its Java extension changes nothing but adds fences that flush. */
        TSO,
        /** PSO as in Fig. 3: interlocked waits only for its own address's buffer. */
        PSO_PAPER,
        /** PSO for Java: interlocked is a full fence; StoreStore generations. */
        PSO_JAVA
    }

    /** A non-SC trace found: who read what and the commit order per address. */
    public record Witness(int[] src, List<List<Integer>> commitOrder) {
    }

    private final Program program;
    private final Model model;
    private final int threads;
    private final int[] base;      // global ref of each thread's first op
    private final EventKind[] kind;
    private final int[] address;
    private final int[] threadOf;
    private final Set<String> seen = new HashSet<>();
    private int[] issueOrder;   // when set: the threads issue their operations in this order
    private int access = -1;    // when set: the witness must order this access before ...
    private int store = -1;     // ... this store in conflict order
    private Witness witness;
    private long states;

    private OperationalOracle(Program program, Model model) {
        this.program = program;
        this.model = model;
        this.threads = program.threads().size();
        int total = program.size();
        base = new int[threads + 1];
        kind = new EventKind[total];
        address = new int[total];
        threadOf = new int[total];
        int g = 0;
        for (int t = 0; t < threads; t++) {
            base[t] = g;
            for (Program.Op op : program.threads().get(t)) {
                kind[g] = op.kind();
                address[g] = op.address();
                threadOf[g] = t;
                g++;
            }
        }
        base[threads] = g;
    }

    /** A run of {@code program} on {@code model} whose trace is not SC, or null when every trace is SC. */
    public static Witness findNonSc(Program program, Model model) {
        OperationalOracle o = new OperationalOracle(program, model);
        o.explore(o.initial());
        return o.witness;
    }

    /**
     * A run of {@code program} on {@code model} that issues the operations in {@code issueOrder} (a
     * thread number per operation, as an SC interleaving lists them), commits its stores whenever the
     * model allows, orders {@code accessRef} before {@code storeRef} in conflict order (the access reads
     * or overwrites an older value than the store's), and outputs a trace that is not SC; null when there
     * is none. This is what a monitor's report on that interleaving claims exists.
     */
    public static Witness findNonSc(Program program, Model model, int[] issueOrder, int accessRef, int storeRef) {
        OperationalOracle o = new OperationalOracle(program, model);
        o.issueOrder = issueOrder.clone();
        o.access = accessRef;
        o.store = storeRef;
        o.explore(o.initial());
        return o.witness;
    }

    /**
     * {@link #findNonSc(Program, Model, int[], int, int)} for programs whose operations may depend on the
     * values they read: every load and interlocked operation issued before {@code accessRef} must read
     * from the same store as in the SC interleaving {@code issueOrder} ({@code scSources}: the source of
     * each operation, -1 for the initial value), so the program's control flow up to the access is the
     * SC run's whatever it depends on, and the cycle must lie among the operations issued up to the
     * access. This is what a report made from a trace with some accesses left out must still satisfy:
     * the accesses the checker did not see read what they read, and what follows them may depend on it.
     */
    public static Witness findNonScKeepingReads(Program program, Model model, int[] issueOrder, int accessRef,
            int storeRef, int[] scSources) {
        OperationalOracle o = new OperationalOracle(program, model);
        o.issueOrder = issueOrder.clone();
        o.access = accessRef;
        o.store = storeRef;
        o.kept = new int[program.size()];
        java.util.Arrays.fill(o.kept, NOT_KEPT);
        o.prefix = new boolean[program.size()];
        int[] pc = new int[o.threads];
        for (int t : issueOrder) {
            int r = o.base[t] + pc[t]++;
            o.prefix[r] = true;
            if (r == accessRef) {
                break;
            }
            o.kept[r] = scSources[r];
        }
        o.explore(o.initial());
        return o.witness;
    }

    private static final int NOT_KEPT = -3;
    private int[] kept;          // when set: the source each load or interlocked op issued before the access must read
    private boolean[] prefix;    // when set: the operations issued up to the access, among which the cycle must be

    /** Number of distinct automaton states the last search visited (for tuning). */
    long states() {
        return states;
    }

    private final class State {
        final int[] pc = new int[threads];
        final boolean[] fencing = new boolean[threads];     // the fence half of a volatile store is pending
        final int[] generation = new int[threads];
        final List<List<Integer>> buffer = new ArrayList<>(); // per thread, buffered refs in issue order
        final int[] gen = new int[program.size()];            // generation of each buffered ref
        final List<List<Integer>> commits = new ArrayList<>(); // per address
        final int[] src = new int[program.size()];

        State() {
            for (int t = 0; t < threads; t++) {
                buffer.add(new ArrayList<>());
            }
            for (int a = 0; a < program.addresses(); a++) {
                commits.add(new ArrayList<>());
            }
            Arrays.fill(src, -2);
        }

        State copy() {
            State s = new State();
            System.arraycopy(pc, 0, s.pc, 0, threads);
            System.arraycopy(fencing, 0, s.fencing, 0, threads);
            System.arraycopy(generation, 0, s.generation, 0, threads);
            for (int t = 0; t < threads; t++) {
                s.buffer.get(t).addAll(buffer.get(t));
            }
            System.arraycopy(gen, 0, s.gen, 0, gen.length);
            for (int a = 0; a < program.addresses(); a++) {
                s.commits.get(a).addAll(commits.get(a));
            }
            System.arraycopy(src, 0, s.src, 0, src.length);
            return s;
        }

        String key() {
            return Arrays.toString(pc) + Arrays.toString(fencing) + Arrays.toString(generation) + buffer + commits
                    + Arrays.toString(src);
        }
    }

    private State initial() {
        return new State();
    }

    private void explore(State s) {
        if (witness != null || !seen.add(s.key())) {
            return;
        }
        states++;
        boolean done = true;
        int next = -1;
        if (issueOrder != null) {
            int issued = 0;
            for (int t = 0; t < threads; t++) {
                issued += s.pc[t];
            }
            next = issued < issueOrder.length ? issueOrder[issued] : -1;
        }
        for (int t = 0; t < threads; t++) {
            if (s.pc[t] < base[t + 1] - base[t] || s.fencing[t]) {
                done = false;
                // in a fixed order only the thread whose turn it is issues (a pending fence half may end any time)
                State n = issueOrder == null || t == next || s.fencing[t] ? issue(s, t) : null;
                if (n != null) {
                    explore(n);
                }
            }
            for (int r : committable(s, t)) {
                done = false;
                State n = s.copy();
                commit(n, t, r);
                explore(n);
            }
        }
        if (done && (access < 0 || accessPrecedesStore(s)) && !isSequentiallyConsistent(s.src, s.commits)) {
            witness = new Witness(s.src.clone(), s.commits);
        }
    }

    /** Whether the run ordered {@link #access} before {@link #store} (it read or overwrote an older value). */
    private boolean accessPrecedesStore(State s) {
        List<Integer> order = s.commits.get(address[store]);
        int storeAt = order.indexOf(store);
        if (kind[access] == EventKind.LOAD) {
            int src = s.src[access];
            return src < 0 || order.indexOf(src) < storeAt;
        }
        return order.indexOf(access) < storeAt;
    }

    /** The buffered stores of thread {@code t} that may commit now. */
    private List<Integer> committable(State s, int t) {
        List<Integer> buf = s.buffer.get(t);
        List<Integer> out = new ArrayList<>();
        if (buf.isEmpty()) {
            return out;
        }
        if (model == Model.TSO) {
            out.add(buf.get(0));
            return out;
        }
        int minGen = Integer.MAX_VALUE;
        for (int r : buf) {
            minGen = Math.min(minGen, s.gen[r]);
        }
        boolean[] headSeen = new boolean[program.addresses()];
        for (int r : buf) {
            int a = address[r];
            if (!headSeen[a]) {
                headSeen[a] = true; // the oldest buffered store to a: the head of B[t][a]
                if (s.gen[r] <= minGen) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    private void commit(State s, int t, int r) {
        s.buffer.get(t).remove(Integer.valueOf(r));
        s.commits.get(address[r]).add(r);
    }

    /** The state after thread {@code t} issues its next operation, or null when it is not enabled. */
    private State issue(State s, int t) {
        List<Integer> buf = s.buffer.get(t);
        if (s.fencing[t]) {
            if (!buf.isEmpty()) {
                return null;
            }
            State n = s.copy();
            n.fencing[t] = false;
            return n;
        }
        int r = base[t] + s.pc[t];
        int a = address[r];
        switch (kind[r]) {
            case LOAD: {
                State n = s.copy();
                int from = -1;
                for (int x : buf) {
                    if (address[x] == a) {
                        from = x; // the last buffered store to a (B[p] in TSO, B[p][a] in PSO)
                    }
                }
                if (from < 0) {
                    List<Integer> c = s.commits.get(a);
                    from = c.isEmpty() ? -1 : c.get(c.size() - 1);
                }
                if (kept != null && kept[r] != NOT_KEPT && kept[r] != from) {
                    return null; // it must read what it read in the SC run
                }
                n.src[r] = from;
                n.pc[t]++;
                return n;
            }
            case STORE:
            case RELEASE_STORE:
            case VOLATILE_STORE: {
                State n = s.copy();
                // a release store, and a volatile store (a release store followed by a full fence, as the
                // JVM emits it: StoreStore|LoadStore before, StoreLoad after), commits after the earlier stores
                if (kind[r] != EventKind.STORE && model != Model.TSO) {
                    n.generation[t]++;
                }
                n.gen[r] = n.generation[t];
                n.buffer.get(t).add(r);
                n.pc[t]++;
                if (kind[r] == EventKind.VOLATILE_STORE) {
                    n.fencing[t] = true;
                }
                return n;
            }
            case INTERLOCKED: {
                boolean ready = model == Model.PSO_PAPER
                        ? buf.stream().noneMatch(x -> address[x] == a)
                        : buf.isEmpty();
                if (!ready) {
                    return null;
                }
                List<Integer> c0 = s.commits.get(a);
                int from = c0.isEmpty() ? -1 : c0.get(c0.size() - 1);
                if (kept != null && kept[r] != NOT_KEPT && kept[r] != from) {
                    return null;
                }
                State n = s.copy();
                List<Integer> c = n.commits.get(a);
                n.src[r] = from;
                c.add(r);
                n.pc[t]++;
                return n;
            }
            case FULL_FENCE: {
                if (!buf.isEmpty()) {
                    return null;
                }
                State n = s.copy();
                n.pc[t]++;
                return n;
            }
            case STORE_STORE_FENCE: {
                State n = s.copy();
                if (model != Model.TSO) {
                    n.generation[t]++;
                }
                n.pc[t]++;
                return n;
            }
            case LOAD_FENCE: {
                // nothing in TSO or PSO (docs/mapping.md): loads are never reordered there
                State n = s.copy();
                n.pc[t]++;
                return n;
            }
            case MONITOR_ENTER:
            case MONITOR_EXIT: {
                // interlocked on the monitor's address (a full fence in TSO and in PSO for Java); an enter waits
                // while the last operation committed there is an enter, i.e. another thread holds the monitor
                if (!buf.isEmpty()) {
                    return null;
                }
                List<Integer> c0 = s.commits.get(a);
                int from = c0.isEmpty() ? -1 : c0.get(c0.size() - 1);
                if (kind[r] == EventKind.MONITOR_ENTER && from >= 0 && kind[from] == EventKind.MONITOR_ENTER) {
                    return null;
                }
                State n = s.copy();
                n.src[r] = from;
                n.commits.get(a).add(r);
                n.pc[t]++;
                return n;
            }
            default:
                throw new IllegalStateException("not generated: " + kind[r]);
        }
    }

    /**
     * Prop. 1: a trace is SC iff happens-before is acyclic. Conflict order as Burckhardt and
     * Musuvathi define it on coherence indices: x → y for a write y with c(x) < c(y), and for a write
     * x and a pure load y with c(x) ≤ c(y) (a load's index is that of the write it read, 0 for the
     * initial value).
     */
    private boolean isSequentiallyConsistent(int[] src, List<List<Integer>> commits) {
        int n = program.size();
        int[] coh = new int[n];
        for (List<Integer> order : commits) {
            for (int i = 0; i < order.size(); i++) {
                coh[order.get(i)] = i + 1;
            }
        }
        for (int r = 0; r < n; r++) {
            if (kind[r] == EventKind.LOAD) {
                coh[r] = src[r] < 0 ? 0 : coh[src[r]];
            }
        }
        List<List<Integer>> succ = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            succ.add(new ArrayList<>());
        }
        for (int t = 0; t < threads; t++) {
            int prev = -1;
            for (int r = base[t]; r < base[t + 1]; r++) {
                if (kind[r].isAccess() && (prefix == null || prefix[r])) {
                    if (prev >= 0) {
                        succ.get(prev).add(r);
                    }
                    prev = r;
                }
            }
        }
        for (int x = 0; x < n; x++) {
            for (int y = 0; y < n; y++) {
                if (x == y || !kind[x].isAccess() || !kind[y].isAccess() || address[x] != address[y]
                        || (prefix != null && (!prefix[x] || !prefix[y]))) {
                    continue;
                }
                boolean yWrites = kind[y].writes();
                boolean xWrites = kind[x].writes();
                if ((yWrites && coh[x] < coh[y]) || (xWrites && kind[y] == EventKind.LOAD && coh[x] <= coh[y])) {
                    succ.get(x).add(y);
                }
            }
        }
        int[] color = new int[n];
        for (int i = 0; i < n; i++) {
            if (color[i] == 0 && cyclic(i, succ, color)) {
                return false;
            }
        }
        return true;
    }

    private static boolean cyclic(int v, List<List<Integer>> succ, int[] color) {
        color[v] = 1;
        for (int w : succ.get(v)) {
            if (color[w] == 1 || (color[w] == 0 && cyclic(w, succ, color))) {
                return true;
            }
        }
        color[v] = 2;
        return false;
    }
}
