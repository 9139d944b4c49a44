package dev.mmcheck.checker.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random histories for the differential tests and the benchmarks. A random program (per thread a
 * sequence of reads and writes over a few variables, each write with a fresh value) is run by a
 * simulator: {@link Kind#SC} interleaves the threads (every read returns memory); {@link Kind#TSO} adds
 * per-thread store buffers that drain at random moments (reads see their own buffer first);
 * {@link Kind#RANDOM} lets each read return any value written to its variable (or the initial one);
 * {@link Kind#MUTATED} runs the TSO simulator and then changes what one read returned. Times, when
 * asked for, bracket the moment each operation took effect in the simulation (a write's buffered
 * moment for its times, its drain for its visibility), so the simulated histories are consistent with
 * their model with and without times; {@link Kind#RANDOM} and {@link Kind#MUTATED} histories get
 * random intervals, and a fraction of the simulated ones get their times shuffled.
 */
public final class RandomHistories {

    /** How reads get their values (see the class comment). */
    public enum Kind { SC, TSO, RANDOM, MUTATED, TEMPLATE }

    private RandomHistories() {
    }

    /**
     * A program with exactly {@code perThread} operations per thread, writes with probability
     * {@code writeShare}, each on one of {@code vars} variables.
     */
    public static Program fixed(Random rnd, int threads, int vars, int perThread, double writeShare) {
        List<List<int[]>> ops = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<int[]> l = new ArrayList<>();
            for (int i = 0; i < perThread; i++) {
                l.add(new int[] {rnd.nextDouble() < writeShare ? 1 : 0, rnd.nextInt(vars)});
            }
            ops.add(l);
        }
        return new Program(threads, vars, ops);
    }

    /** A program: per thread, ops as {write ? 1 : 0, var}. */
    public record Program(int threads, int vars, List<List<int[]>> ops) {
    }

    /** A random program: per thread 1..{@code opsPerThreadMax} operations, writes with probability {@code writeShare}. */
    public static Program program(Random rnd, int threads, int vars, int opsPerThreadMax, double writeShare) {
        List<List<int[]>> ops = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<int[]> l = new ArrayList<>();
            int k = 1 + rnd.nextInt(opsPerThreadMax);
            for (int i = 0; i < k; i++) {
                l.add(new int[] {rnd.nextDouble() < writeShare ? 1 : 0, rnd.nextInt(vars)});
            }
            ops.add(l);
        }
        return new Program(threads, vars, ops);
    }

    /**
     * Histories on which the search must refute or must find a subtle witness (CCM but not SC, wCCM but
     * not TSO, TSO but not SC), which random programs of this size rarely give.
     */
    static final String[] TEMPLATES = {
        "t0: w x 1; r y 0\nt1: w y 1; r x 0\n",
        "t0: w z 1; r y 0; w x 1; r z 1\nt1: w y 1; w z 2; r x 0\n",
        "t0: w y 1; w x 2; r z 0\nt1: w x 1; r y 0\nt2: w z 1; r x 1; r y 1\n",
        "t0: w x 1; w x 2; r y 3\nt1: w y 1; w y 3; r x 0\nt2: r x 1; w y 2; r x 1\n",
        "t0: w y 1; w x 1; w u 1\nt1: w x 2; w z 1\nt2: r z 1; r y 0\nt3: r u 1; r v 0\nt4: w v 1; w q 1\n"
                + "t5: r q 1; r x 2\n",
        "t0: w z 1; w x 1; w y 1\nt1: w x 2; r z 0; r y 1; r x 2\n",
        "t0: w x 1; w x 2; r y 1\nt1: w y 1; w y 2; r x 1\n",
        "t0: w x 1; w x 2\nt1: w y 1; w y 2\nt2: r y 2; r x 1\nt3: r x 2; r y 1\n",
    };

    /**
     * One of {@link #TEMPLATES} with threads and variables renamed, a few operations added (fresh writes,
     * reads of some written value) and sometimes one read changed; random times when {@code timed}.
     */
    static History fromTemplate(Random rnd, boolean timed) {
        History t;
        try {
            t = HistoryText.read("template", new java.io.StringReader(TEMPLATES[rnd.nextInt(TEMPLATES.length)]));
        } catch (java.io.IOException | HistoryFormatException e) {
            throw new IllegalStateException(e);
        }
        int threads = t.threads();
        List<List<long[]>> ops = new ArrayList<>(); // {write, var, value}
        for (int s = 0; s < threads; s++) {
            List<long[]> l = new ArrayList<>();
            for (int id = t.threadStart(s); id < t.threadStart(s + 1); id++) {
                Op o = t.op(id);
                l.add(new long[] {o.write() ? 1 : 0, o.var(), o.value()});
            }
            ops.add(l);
        }
        long[] top = new long[t.vars()];
        for (int id = 0; id < t.size(); id++) {
            top[t.op(id).var()] = Math.max(top[t.op(id).var()], t.op(id).value());
        }
        int extra = rnd.nextInt(3);
        for (int k = 0; k < extra; k++) {
            List<long[]> l = ops.get(rnd.nextInt(threads));
            int x = rnd.nextInt(t.vars());
            long[] op = rnd.nextBoolean() ? new long[] {1, x, ++top[x]} : new long[] {0, x, rnd.nextInt((int) top[x] + 1)};
            l.add(rnd.nextInt(l.size() + 1), op);
        }
        if (rnd.nextInt(4) == 0) {
            List<long[]> l = ops.get(rnd.nextInt(threads));
            for (long[] op : l) {
                if (op[0] == 0) {
                    op[2] = rnd.nextInt((int) top[(int) op[1]] + 1);
                    break;
                }
            }
        }
        int[] threadName = permutation(rnd, threads);
        int[] varName = permutation(rnd, t.vars());
        History.Builder b = History.builder("template");
        for (int s = 0; s < threads; s++) {
            b.thread("t" + threadName[s]);
        }
        int[] varId = new int[t.vars()];
        for (int x = 0; x < t.vars(); x++) {
            varId[x] = b.variable("v" + varName[x]);
        }
        for (int s = 0; s < threads; s++) {
            long at = rnd.nextInt(40);
            for (long[] op : ops.get(s)) {
                at += rnd.nextInt(25);
                long issue = timed ? at : History.NO_TIME;
                long complete = timed ? at + rnd.nextInt(60) : History.NO_TIME;
                if (op[0] == 1) {
                    b.write(s, varId[(int) op[1]], op[2], issue, complete, 0);
                } else {
                    b.read(s, varId[(int) op[1]], op[2], issue, complete, 0);
                }
            }
        }
        try {
            return b.build();
        } catch (HistoryFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int[] permutation(Random rnd, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int tmp = p[i];
            p[i] = p[j];
            p[j] = tmp;
        }
        return p;
    }

    /** A small history for the oracle: 1-4 threads, 1-3 variables, at most 14 operations, 4 writes a variable. */
    static History small(Random rnd, Kind kind, boolean timed) {
        if (kind == Kind.TEMPLATE) {
            return fromTemplate(rnd, timed);
        }
        int threads = 1 + rnd.nextInt(4);
        int vars = 1 + rnd.nextInt(3);
        int perThread = Math.max(1, 14 / threads);
        Program p;
        do {
            p = rnd.nextBoolean() ? program(rnd, threads, vars, Math.min(5, perThread), 0.45)
                    : shaped(rnd, Math.max(2, threads), Math.max(2, vars), Math.min(4, Math.max(2, perThread)));
        } while (writesPerVar(p) > 4);
        boolean shuffle = timed && (kind == Kind.RANDOM || kind == Kind.MUTATED || rnd.nextInt(5) == 0);
        return run(rnd, p, kind, timed, 12, shuffle);
    }

    /**
     * A program shaped like the litmus tests that tell the models apart: each thread writes first and
     * reads after (store buffering, message passing, IRIW and the like).
     */
    static Program shaped(Random rnd, int threads, int vars, int opsPerThreadMax) {
        List<List<int[]>> ops = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<int[]> l = new ArrayList<>();
            int k = 1 + rnd.nextInt(opsPerThreadMax);
            int writes = rnd.nextInt(k + 1);
            for (int i = 0; i < k; i++) {
                l.add(new int[] {i < writes ? 1 : 0, rnd.nextInt(vars)});
            }
            ops.add(l);
        }
        return new Program(threads, vars, ops);
    }

    private static int writesPerVar(Program p) {
        int[] c = new int[p.vars()];
        int max = 0;
        for (List<int[]> l : p.ops()) {
            for (int[] o : l) {
                if (o[0] == 1) {
                    max = Math.max(max, ++c[o[1]]);
                }
            }
        }
        return max;
    }

    /**
     * Runs program {@code p} under {@code kind}; with {@code timed}, each operation's interval spans up to
     * {@code slack} time units either side of the moment it took effect (steps are 10 units apart), or
     * with {@code shuffleTimes} random intervals unrelated to the run.
     */
    public static History run(Random rnd, Program p, Kind kind, boolean timed, int slack, boolean shuffleTimes) {
        int threads = p.threads();
        int[] next = new int[threads];
        long[] memory = new long[p.vars()];
        long[] counter = new long[p.vars()];
        List<List<long[]>> buffers = new ArrayList<>();
        // per op: value, issue, complete
        List<List<long[]>> result = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            buffers.add(new ArrayList<>());
            List<long[]> r = new ArrayList<>();
            for (int i = 0; i < p.ops().get(t).size(); i++) {
                r.add(new long[3]);
            }
            result.add(r);
        }
        boolean tso = kind == Kind.TSO || kind == Kind.MUTATED;
        long step = 0;
        long[] lastIssue = new long[threads];
        java.util.Arrays.fill(lastIssue, Long.MIN_VALUE / 2);
        while (true) {
            List<Integer> choices = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                if (next[t] < p.ops().get(t).size()) {
                    choices.add(t);
                }
                if (tso && !buffers.get(t).isEmpty()) {
                    choices.add(threads + t);
                }
            }
            if (choices.isEmpty()) {
                break;
            }
            step += 10;
            int c = choices.get(rnd.nextInt(choices.size()));
            if (c >= threads && choices.get(0) < threads && rnd.nextInt(4) != 0) {
                c = choices.get(0); // let buffers linger, or store buffering is rarely seen
                for (int k = 1; k < choices.size(); k++) {
                    if (choices.get(k) < threads && rnd.nextBoolean()) {
                        c = choices.get(k);
                    }
                }
            }
            if (c >= threads) {
                long[] e = buffers.get(c - threads).remove(0);
                memory[(int) e[0]] = e[1];
                continue;
            }
            int t = c;
            int[] op = p.ops().get(t).get(next[t]);
            long[] out = result.get(t).get(next[t]);
            next[t]++;
            int x = op[1];
            if (op[0] == 1) {
                long v = ++counter[x];
                out[0] = v;
                if (tso) {
                    buffers.get(t).add(new long[] {x, v});
                } else {
                    memory[x] = v;
                }
            } else {
                long v = memory[x];
                for (long[] e : buffers.get(t)) {
                    if (e[0] == x) {
                        v = e[1];
                    }
                }
                out[0] = v;
            }
            long issue = Math.max(lastIssue[t], step - 1 - rnd.nextInt(slack));
            lastIssue[t] = issue;
            out[1] = issue;
            out[2] = step + rnd.nextInt(slack + 1);
        }
        if (kind == Kind.RANDOM || kind == Kind.MUTATED) {
            List<long[]> reads = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < p.ops().get(t).size(); i++) {
                    if (p.ops().get(t).get(i)[0] == 0) {
                        reads.add(new long[] {t, i});
                    }
                }
            }
            for (long[] r : reads) {
                if (kind == Kind.RANDOM ? rnd.nextBoolean() : r == reads.get(rnd.nextInt(reads.size()))) {
                    int x = p.ops().get((int) r[0]).get((int) r[1])[1];
                    result.get((int) r[0]).get((int) r[1])[0] = rnd.nextInt((int) counter[x] + 1);
                }
            }
        }
        if (timed && shuffleTimes) {
            for (int t = 0; t < threads; t++) {
                long at = rnd.nextInt(40);
                for (long[] out : result.get(t)) {
                    at += rnd.nextInt(25);
                    out[1] = at;
                    out[2] = at + rnd.nextInt(40);
                }
            }
        }
        History.Builder b = History.builder("random");
        for (int t = 0; t < threads; t++) {
            b.thread("t" + t);
        }
        for (int x = 0; x < p.vars(); x++) {
            b.variable(String.valueOf((char) ('x' + x % 3)) + (x < 3 ? "" : String.valueOf(x / 3)));
        }
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < p.ops().get(t).size(); i++) {
                int[] op = p.ops().get(t).get(i);
                long[] out = result.get(t).get(i);
                long issue = timed ? out[1] : History.NO_TIME;
                long complete = timed ? out[2] : History.NO_TIME;
                if (op[0] == 1) {
                    b.write(t, op[1], out[0], issue, complete, 0);
                } else {
                    b.read(t, op[1], out[0], issue, complete, 0);
                }
            }
        }
        try {
            return b.build();
        } catch (HistoryFormatException e) {
            throw new IllegalStateException(e);
        }
    }
}
