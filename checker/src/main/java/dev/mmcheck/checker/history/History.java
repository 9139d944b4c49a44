package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recorded history: per thread, its reads and writes in program order, each with the variable and
 * the value written or returned, optionally with the time each operation was issued and completed.
 * Every variable has an initial value (0 unless declared), written by an implicit initial write that
 * precedes every operation. Values are unique per variable (the algorithms need it), so each read
 * has exactly one write it read from. Immutable; build one with {@link #builder(String)}.
 *
 * <p>Operations are numbered thread by thread: the operations of thread {@code t} are the ids
 * {@code threadStart(t) .. threadStart(t+1)-1} in program order.
 */
public final class History {

    /** The writer of a read that returned its variable's initial value. */
    public static final int INIT = -1;

    /** A missing time in {@link Builder#read}/{@link Builder#write}: the operation has no times. */
    public static final long NO_TIME = Long.MIN_VALUE;

    private static final int[] NONE = new int[0];

    private final String source;
    private final List<String> threadNames;
    private final List<String> varNames;
    private final long[] init;
    private final Op[] ops;
    private final int[] threadStart;
    private final boolean timed;

    private final int[] writer;
    private final int[] readerStart;
    private final int[] readers;
    private final int[][][] writesOf;
    private final int[] chainIndex;
    private final int[][] varOps;
    private final int writes;

    private History(String source, List<String> threadNames, List<String> varNames, long[] init, Op[] ops,
            int[] threadStart, boolean timed, int[] writer) {
        this.source = source;
        this.threadNames = List.copyOf(threadNames);
        this.varNames = List.copyOf(varNames);
        this.init = init;
        this.ops = ops;
        this.threadStart = threadStart;
        this.timed = timed;
        this.writer = writer;
        int n = ops.length;
        int vars = varNames.size();
        int threads = threadNames.size();

        int[] count = new int[n + 1];
        int w = 0;
        for (Op o : ops) {
            if (o.write()) {
                w++;
            } else if (writer[o.id()] != INIT) {
                count[writer[o.id()]]++;
            }
        }
        this.writes = w;
        readerStart = new int[n + 1];
        for (int i = 0; i < n; i++) {
            readerStart[i + 1] = readerStart[i] + count[i];
        }
        readers = new int[readerStart[n]];
        int[] fill = Arrays.copyOf(readerStart, n);
        for (Op o : ops) {
            if (o.read() && writer[o.id()] != INIT) {
                readers[fill[writer[o.id()]]++] = o.id();
            }
        }

        int[][] wc = new int[vars][threads];
        int[] varCount = new int[vars];
        for (Op o : ops) {
            varCount[o.var()]++;
            if (o.write()) {
                wc[o.var()][o.thread()]++;
            }
        }
        writesOf = new int[vars][threads][];
        varOps = new int[vars][];
        for (int v = 0; v < vars; v++) {
            varOps[v] = varCount[v] == 0 ? NONE : new int[varCount[v]];
            for (int t = 0; t < threads; t++) {
                writesOf[v][t] = wc[v][t] == 0 ? NONE : new int[wc[v][t]];
            }
        }
        chainIndex = new int[n];
        int[][] wfill = new int[vars][threads];
        int[] vfill = new int[vars];
        for (Op o : ops) {
            varOps[o.var()][vfill[o.var()]++] = o.id();
            if (o.write()) {
                int k = wfill[o.var()][o.thread()]++;
                chainIndex[o.id()] = k;
                writesOf[o.var()][o.thread()][k] = o.id();
            } else {
                chainIndex[o.id()] = -1;
            }
        }
    }

    /** A builder for a history read from (or made for) {@code source}, the name used in messages. */
    public static Builder builder(String source) {
        return new Builder(source);
    }

    /** The file or stream this history came from, as named in messages. */
    public String source() {
        return source;
    }

    /** Number of operations (the initial writes not counted). */
    public int size() {
        return ops.length;
    }

    /** Number of writes (the initial writes not counted). */
    public int writeCount() {
        return writes;
    }

    /** Number of threads. */
    public int threads() {
        return threadNames.size();
    }

    /** Number of variables. */
    public int vars() {
        return varNames.size();
    }

    /** The name of thread {@code t}. */
    public String threadName(int t) {
        return threadNames.get(t);
    }

    /** The name of variable {@code v}. */
    public String varName(int v) {
        return varNames.get(v);
    }

    /** The initial value of variable {@code v}. */
    public long initValue(int v) {
        return init[v];
    }

    /** Whether every operation has an issue and a complete time (no operation has one otherwise). */
    public boolean timed() {
        return timed;
    }

    /** Operation {@code id}. */
    public Op op(int id) {
        return ops[id];
    }

    /** The first operation id of thread {@code t}; {@code threadStart(threads())} is {@link #size()}. */
    public int threadStart(int t) {
        return threadStart[t];
    }

    /** Number of operations of thread {@code t}. */
    public int threadLength(int t) {
        return threadStart[t + 1] - threadStart[t];
    }

    /** The write read {@code read} read from, or {@link #INIT} for the initial value. */
    public int writer(int read) {
        return writer[read];
    }

    /** Number of reads that read from write {@code write}. */
    public int readerCount(int write) {
        return readerStart[write + 1] - readerStart[write];
    }

    /** The {@code k}-th reader of {@code write}, {@code 0 <= k < readerCount(write)}. */
    public int reader(int write, int k) {
        return readers[readerStart[write] + k];
    }

    /** The writes to {@code var} by thread {@code t} in program order (shared array: do not modify). */
    int[] writesOf(int var, int t) {
        return writesOf[var][t];
    }

    /** Number of writes to {@code var} by thread {@code t}. */
    public int writeCount(int var, int t) {
        return writesOf[var][t].length;
    }

    /** For a write, its index among its thread's writes to the same variable; -1 for a read. */
    public int chainIndex(int id) {
        return chainIndex[id];
    }

    /** The operations on {@code var}, thread by thread in program order (shared array: do not modify). */
    int[] varOps(int var) {
        return varOps[var];
    }

    /** "t0#2 write(x,1)": thread, 1-based position, operation; how operations are named to users. */
    public String name(int id) {
        Op o = ops[id];
        return threadNames.get(o.thread()) + "#" + (o.index() + 1) + " " + (o.write() ? "write(" : "read(")
                + varNames.get(o.var()) + "," + o.value() + ")";
    }

    /** {@link #name(int)} followed by " (line N)" when the line is known. */
    public String describe(int id) {
        Op o = ops[id];
        return o.line() > 0 ? name(id) + " (line " + o.line() + ")" : name(id);
    }

    /** How the initial write of {@code var} is named to users. */
    public String initName(int var) {
        return "init " + varNames.get(var) + "=" + init[var];
    }

    /** The same history without any times. */
    public History withoutTimes() {
        if (!timed) {
            return this;
        }
        Op[] copy = new Op[ops.length];
        for (Op o : ops) {
            copy[o.id()] = new Op(o.id(), o.thread(), o.index(), o.write(), o.var(), o.value(), NO_TIME, NO_TIME,
                    o.line());
        }
        return new History(source, threadNames, varNames, init, copy, threadStart, false, writer);
    }

    /** Builds a {@link History}; {@link #build()} checks it and says what is wrong in one line. */
    public static final class Builder {

        private final String source;
        private final Map<String, Integer> threadIds = new LinkedHashMap<>();
        private final Map<String, Integer> varIds = new LinkedHashMap<>();
        private final List<Long> inits = new ArrayList<>();
        private final List<List<long[]>> perThread = new ArrayList<>();
        private long order;

        private Builder(String source) {
            this.source = source;
        }

        /** The id of thread {@code name}, declaring it if new. */
        public int thread(String name) {
            Integer id = threadIds.get(name);
            if (id == null) {
                id = threadIds.size();
                threadIds.put(name, id);
                perThread.add(new ArrayList<>());
            }
            return id;
        }

        /** Whether thread {@code name} has been declared. */
        public boolean hasThread(String name) {
            return threadIds.containsKey(name);
        }

        /** The declared thread names, in order. */
        public List<String> threadNames() {
            return List.copyOf(threadIds.keySet());
        }

        /** The id of variable {@code name}, declaring it with initial value 0 if new. */
        public int variable(String name) {
            Integer id = varIds.get(name);
            return id != null ? id : variable(name, 0);
        }

        /** Declares variable {@code name} with initial value {@code init}; returns its id. */
        public int variable(String name, long init) {
            Integer id = varIds.get(name);
            if (id != null) {
                inits.set(id, init);
                return id;
            }
            id = varIds.size();
            varIds.put(name, id);
            inits.add(init);
            return id;
        }

        /** Whether variable {@code name} has been declared. */
        public boolean hasVariable(String name) {
            return varIds.containsKey(name);
        }

        /** The declared variable names, in order. */
        public List<String> variableNames() {
            return List.copyOf(varIds.keySet());
        }

        /** Appends a write to thread {@code thread}'s program; times are {@link History#NO_TIME} if unknown. */
        public Builder write(int thread, int var, long value, long issue, long complete, int line) {
            return add(thread, true, var, value, issue, complete, line);
        }

        /** Appends a read to thread {@code thread}'s program; times are {@link History#NO_TIME} if unknown. */
        public Builder read(int thread, int var, long value, long issue, long complete, int line) {
            return add(thread, false, var, value, issue, complete, line);
        }

        private Builder add(int thread, boolean write, int var, long value, long issue, long complete, int line) {
            if (thread < 0 || thread >= perThread.size() || var < 0 || var >= inits.size()) {
                throw new IllegalArgumentException("undeclared thread or variable id");
            }
            perThread.get(thread).add(new long[] {write ? 1 : 0, var, value, issue, complete, line, order++});
            return this;
        }

        /** The history, or a {@link HistoryFormatException} naming the first problem. */
        public History build() throws HistoryFormatException {
            int threads = perThread.size();
            int n = 0;
            int[] start = new int[threads + 1];
            for (int t = 0; t < threads; t++) {
                start[t] = n;
                n += perThread.get(t).size();
            }
            start[threads] = n;
            Op[] ops = new Op[n];
            long[] addOrder = new long[n];
            for (int t = 0; t < threads; t++) {
                List<long[]> l = perThread.get(t);
                for (int i = 0; i < l.size(); i++) {
                    long[] a = l.get(i);
                    int id = start[t] + i;
                    ops[id] = new Op(id, t, i, a[0] == 1, (int) a[1], a[2], a[3], a[4], (int) a[5]);
                    addOrder[id] = a[6];
                }
            }
            Integer[] byOrder = new Integer[n];
            for (int i = 0; i < n; i++) {
                byOrder[i] = i;
            }
            Arrays.sort(byOrder, (a, b) -> Long.compare(addOrder[a], addOrder[b]));
            List<String> tn = List.copyOf(threadIds.keySet());
            List<String> vn = List.copyOf(varIds.keySet());
            long[] init = new long[inits.size()];
            for (int v = 0; v < init.length; v++) {
                init[v] = inits.get(v);
            }
            // a provisional history only to name operations in messages
            History names = new History(source, tn, vn, init, ops, start, false, new int[n]);

            boolean timed = n > 0 && ops[byOrder[0]].issue() != NO_TIME;
            for (Integer id : byOrder) {
                Op o = ops[id];
                boolean has = o.issue() != NO_TIME;
                if ((o.issue() == NO_TIME) != (o.complete() == NO_TIME)) {
                    throw error(o, names.name(id) + " has only one of its two times (issue and complete)");
                }
                if (has != timed) {
                    Op first = ops[byOrder[0]];
                    throw error(o, names.name(id) + (has ? " has times but " : " has no times but ")
                            + names.describe(first.id()) + (has ? " has none" : " has")
                            + ": give every operation an issue and a complete time, or none");
                }
                if (has) {
                    if (o.complete() < o.issue()) {
                        throw error(o, names.name(id) + " completes at " + o.complete() + ", before it is issued at "
                                + o.issue());
                    }
                    if (o.index() > 0) {
                        Op prev = ops[id - 1];
                        if (o.issue() < prev.issue()) {
                            throw error(o, names.name(id) + " is issued at " + o.issue() + ", before "
                                    + names.describe(prev.id()) + " is issued at " + prev.issue()
                                    + ": issue times must not decrease in program order");
                        }
                    }
                }
            }

            List<Map<Long, Integer>> written = new ArrayList<>();
            for (int v = 0; v < init.length; v++) {
                written.add(new HashMap<>());
            }
            for (Integer id : byOrder) {
                Op o = ops[id];
                if (!o.write()) {
                    continue;
                }
                if (o.value() == init[o.var()]) {
                    throw error(o, names.name(id) + " writes the initial value " + init[o.var()] + " of "
                            + vn.get(o.var()) + ": values must be unique per variable (the checker tells writes "
                            + "apart by value); give " + vn.get(o.var()) + " another initial value or write another "
                            + "value");
                }
                Integer before = written.get(o.var()).putIfAbsent(o.value(), id);
                if (before != null) {
                    throw error(o, names.name(id) + " writes the same value as " + names.describe(before)
                            + ": values must be unique per variable (the checker tells writes apart by value)");
                }
            }
            int[] writer = new int[n];
            for (Integer id : byOrder) {
                Op o = ops[id];
                if (o.write()) {
                    writer[id] = INIT;
                    continue;
                }
                if (o.value() == init[o.var()]) {
                    writer[id] = INIT;
                } else {
                    Integer w = written.get(o.var()).get(o.value());
                    if (w == null) {
                        throw error(o, names.name(id) + " returns " + o.value() + ", but no operation writes "
                                + o.value() + " to " + vn.get(o.var()) + " and its initial value is "
                                + init[o.var()]);
                    }
                    writer[id] = w;
                }
            }
            return new History(source, tn, vn, init, ops, start, timed, writer);
        }

        private HistoryFormatException error(Op o, String what) {
            return new HistoryFormatException(source, o.line(), what);
        }
    }
}
