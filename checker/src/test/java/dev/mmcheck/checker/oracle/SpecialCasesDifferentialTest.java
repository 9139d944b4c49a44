package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.jmm.AccessMode;
import dev.mmcheck.checker.jmm.FenceKind;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.report.CheckResult;
import dev.mmcheck.checker.report.Violation;
import dev.mmcheck.checker.trace.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * TSO and PSO as special cases of the access-mode analysis (docs/jmm-model.md, "TSO and PSO as special cases"):
 * on random programs in the vocabulary both sides share, written once as a text trace and translated to the
 * store-buffer oracle's {@link Program} (docs/mapping.md) and to the model's {@link JmmProgram}
 * (docs/jmm-model.md):
 * <ul>
 *   <li>program level: a program with a non-SC run under PSO with Java's mapping ({@link OperationalOracle},
 *       {@code PSO_JAVA}) has a consistent non-SC graph in the model with volatile read as C11's seq_cst
 *       ({@link RaOracle.Volatile#RC11_SC}, the reading the analyzer's default is measured by), and the real
 *       analysis ({@code models=jmm}, its default volatile rule) reports on some SC interleaving of it; a
 *       program non-SC under TSO is non-SC under PSO;</li>
 *   <li>run level: on every SC interleaving, each run fed to one production {@link Checker} running TSO, PSO
 *       and JMM, with the sites' modes as the text trace reader gives them: whenever TSO or PSO reports, JMM
 *       reports on the same run;</li>
 *   <li>sanity: the TSO and PSO monitors report on some interleaving exactly when their oracle finds a non-SC
 *       run (with the monitors and load fences this test adds to the vocabulary).</li>
 * </ul>
 * An exception fails the test unless {@link #exceptionClass} names its class (docs/jmm-model.md explains each;
 * none is needed so far). With volatile read as the monitor's leading fence ({@link
 * RaOracle.Volatile#LEADING_SC_FENCE}) the programs non-SC under PSO and robust under the model are counted and
 * printed, not failed: that reading puts an SC fence before a volatile load, which PSO (and x86, where HotSpot's
 * volatile load is a plain {@code mov}) does not have.
 *
 * <p>The vocabulary: loads in every mode (one {@code load} for TSO and PSO), plain, opaque, release and volatile
 * stores, {@code cas} as an update that always writes (getAndSet: the store-buffer oracle has no failing
 * interlocked operation, and a failed CAS is a read in the model), full, store-store and load fences, and lock
 * sections on one monitor. 2-3 threads, 2-3 data locations; programs with more than {@code
 * -Dmmcheck.special.maxInterleavings} (default 150) interleavings are drawn again. Knobs: {@code
 * -Dmmcheck.special.programs=N} (default 2000), {@code -Dmmcheck.special.seed=S}.
 */
class SpecialCasesDifferentialTest {

    /** An operation both sides have: its trace word, its store-buffer event, and the model's operation. */
    enum Word {
        LOAD("load", EventKind.LOAD, JmmProgram.Kind.LOAD, AccessMode.PLAIN, null),
        OPAQUE_LOAD("opaque-load", EventKind.LOAD, JmmProgram.Kind.LOAD, AccessMode.OPAQUE, null),
        ACQUIRE_LOAD("load-acquire", EventKind.LOAD, JmmProgram.Kind.LOAD, AccessMode.ACQUIRE, null),
        VOLATILE_LOAD("volatile-load", EventKind.LOAD, JmmProgram.Kind.LOAD, AccessMode.VOLATILE, null),
        STORE("store", EventKind.STORE, JmmProgram.Kind.STORE, AccessMode.PLAIN, null),
        OPAQUE_STORE("opaque-store", EventKind.STORE, JmmProgram.Kind.STORE, AccessMode.OPAQUE, null),
        RELEASE_STORE("release-store", EventKind.RELEASE_STORE, JmmProgram.Kind.STORE, AccessMode.RELEASE, null),
        VOLATILE_STORE("volatile-store", EventKind.VOLATILE_STORE, JmmProgram.Kind.STORE, AccessMode.VOLATILE, null),
        CAS("cas", EventKind.INTERLOCKED, JmmProgram.Kind.RMW, AccessMode.VOLATILE, null),
        FULL_FENCE("fence", EventKind.FULL_FENCE, JmmProgram.Kind.FENCE, null, FenceKind.FULL),
        STORE_STORE_FENCE("storestore-fence", EventKind.STORE_STORE_FENCE, JmmProgram.Kind.FENCE, null,
                FenceKind.STORE_STORE),
        LOAD_FENCE("load-fence", EventKind.LOAD_FENCE, JmmProgram.Kind.FENCE, null, FenceKind.ACQUIRE),
        LOCK("monitor-enter", EventKind.MONITOR_ENTER, JmmProgram.Kind.LOCK, null, null),
        UNLOCK("monitor-exit", EventKind.MONITOR_EXIT, JmmProgram.Kind.UNLOCK, null, null);

        final String word;
        final EventKind event;
        final JmmProgram.Kind kind;
        final AccessMode mode;
        final FenceKind fence;

        Word(String word, EventKind event, JmmProgram.Kind kind, AccessMode mode, FenceKind fence) {
            this.word = word;
            this.event = event;
            this.kind = kind;
            this.mode = mode;
            this.fence = fence;
        }
    }

    /** One operation: a word and its location ({@code -1} for a fence). */
    record Op(Word word, int loc) {
        @Override
        public String toString() {
            return word.word + (loc >= 0 ? " " + JmmProgram.locationName(loc) : "");
        }
    }

    /** A program in the shared vocabulary; {@code locations} counts the lock's location when some thread locks. */
    record Shared(List<List<Op>> threads, int locations) {

        int size() {
            return threads.stream().mapToInt(List::size).sum();
        }

        /** The store-buffer oracle's program: each operation its event, the lock a monitor's address. */
        Program toProgram() {
            List<List<Program.Op>> out = new ArrayList<>();
            for (List<Op> t : threads) {
                List<Program.Op> ops = new ArrayList<>();
                for (Op op : t) {
                    ops.add(new Program.Op(op.word().event, op.loc()));
                }
                out.add(ops);
            }
            return new Program(out, locations);
        }

        /** The model's program: each write writes its operation number + 1 (never the initial 0). */
        JmmProgram toJmm() {
            List<List<JmmProgram.Op>> out = new ArrayList<>();
            int g = 0;
            for (List<Op> t : threads) {
                List<JmmProgram.Op> ops = new ArrayList<>();
                for (Op op : t) {
                    Word w = op.word();
                    long value = switch (w.kind) {
                        case STORE, RMW -> g + 1;
                        case LOCK -> 1;
                        default -> 0;
                    };
                    ops.add(new JmmProgram.Op(w.kind, op.loc(), w.mode, w.fence, value, 0));
                    g++;
                }
                out.add(ops);
            }
            return new JmmProgram(out, locations);
        }

        /** The program as a text trace (threads one after the other), each operation's site {@code T<t>:<index + 1>}. */
        String toTrace() {
            StringBuilder b = new StringBuilder();
            for (int t = 0; t < threads.size(); t++) {
                List<Op> ops = threads.get(t);
                for (int k = 0; k < ops.size(); k++) {
                    b.append('T').append(t).append(' ').append(ops.get(k)).append(" T").append(t).append(':')
                            .append(k + 1).append('\n');
                }
            }
            return b.toString();
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (int t = 0; t < threads.size(); t++) {
                b.append(t == 0 ? "" : " | ").append('T').append(t).append(": ");
                List<Op> ops = threads.get(t);
                for (int k = 0; k < ops.size(); k++) {
                    b.append(k == 0 ? "" : "; ").append(ops.get(k));
                }
            }
            return b.toString();
        }
    }

    private static final Word[] LOADS = {Word.LOAD, Word.LOAD, Word.OPAQUE_LOAD, Word.ACQUIRE_LOAD,
            Word.VOLATILE_LOAD, Word.VOLATILE_LOAD};
    private static final Word[] STORES = {Word.STORE, Word.STORE, Word.STORE, Word.OPAQUE_STORE,
            Word.RELEASE_STORE, Word.RELEASE_STORE, Word.VOLATILE_STORE};
    private static final Word[] FENCES = {Word.FULL_FENCE, Word.STORE_STORE_FENCE, Word.LOAD_FENCE};

    /** A random program: 2-3 threads, 1-4 operations each plus a lock section's enter and exit, 2-3 locations. */
    static Shared random(Random rnd, long maxInterleavings) {
        while (true) {
            Shared s = draw(rnd);
            if (interleavings(s) <= maxInterleavings) {
                return s;
            }
        }
    }

    private static Shared draw(Random rnd) {
        int n = 2 + (rnd.nextInt(3) == 0 ? 1 : 0);
        int data = 2 + (rnd.nextInt(6) == 0 ? 1 : 0);
        boolean locking = rnd.nextInt(6) == 0;
        boolean crossing = rnd.nextBoolean();
        List<List<Op>> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int len = (n == 3 ? 1 : 2) + rnd.nextInt(2) + (rnd.nextInt(4) == 0 ? 1 : 0);
            boolean section = locking && rnd.nextBoolean();
            int from = section ? rnd.nextInt(len + 1) : -1;
            int to = section ? from + rnd.nextInt(len - from + 1) : -1;
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i <= len; i++) {
                if (i == from) {
                    ops.add(new Op(Word.LOCK, data));
                }
                if (i == to) {
                    ops.add(new Op(Word.UNLOCK, data));
                }
                if (i < len) {
                    // crossing: thread t's first half on location t, its second on t + 1 (SB, MP, LB, 2+2W, S, R...)
                    int loc = crossing ? (2 * i < len ? t : t + 1) % data : rnd.nextInt(data);
                    ops.add(randomOp(rnd, loc));
                }
            }
            threads.add(ops);
        }
        return new Shared(threads, data + (locking ? 1 : 0));
    }

    private static Op randomOp(Random rnd, int loc) {
        int r = rnd.nextInt(100);
        if (r < 40) {
            return new Op(LOADS[rnd.nextInt(LOADS.length)], loc);
        }
        if (r < 80) {
            return new Op(STORES[rnd.nextInt(STORES.length)], loc);
        }
        if (r < 88) {
            return new Op(Word.CAS, loc);
        }
        return new Op(FENCES[rnd.nextInt(FENCES.length)], -1);
    }

    /** The number of ways to interleave the threads (the lock's waits not counted). */
    static long interleavings(Shared s) {
        long r = 1;
        int done = 0;
        for (List<Op> t : s.threads()) {
            for (int i = 1; i <= t.size(); i++) {
                r = r * (done + i) / i;
            }
            done += t.size();
        }
        return r;
    }

    /** The events the text trace reader makes of a program's trace, by operation number, and its symbols. */
    record Events(Symbols symbols, int[] kind, int[] thread, int[] operand, int[] site, int[] base) {
    }

    static Events read(Shared s) {
        int size = s.size();
        int[] kind = new int[size];
        int[] thread = new int[size];
        int[] operand = new int[size];
        int[] site = new int[size];
        int[] at = {0};
        Symbols symbols = new Symbols();
        try {
            TextTraceReader.read("special", new StringReader(s.toTrace()), symbols, (k, t, o, st) -> {
                kind[at[0]] = k;
                thread[at[0]] = t;
                operand[at[0]] = o;
                site[at[0]] = st;
                at[0]++;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (dev.mmcheck.checker.trace.TraceFormatException e) {
            throw new AssertionError("the generated trace does not read: " + e.getMessage() + "\n" + s.toTrace(), e);
        }
        int[] base = new int[s.threads().size()];
        for (int t = 1; t < base.length; t++) {
            base[t] = base[t - 1] + s.threads().get(t - 1).size();
        }
        return new Events(symbols, kind, thread, operand, site, base);
    }

    private static final Checker.Config CONFIG = new Checker.Config(EnumSet.of(Analysis.TSO, Analysis.PSO,
            Analysis.JMM), MonitorConfig.defaults(), 64, 16);

    /** What the production checker did on one program's interleavings. */
    static final class Runs {
        long runs;
        long tso;
        long pso;
        long jmm;
        long storeBuffer;          // runs where TSO or PSO reports
        long samePair;             // ... and JMM reports one of their (store, access) pairs
        long sameAccess;           // ... or at least one of their accesses
        long everyAccess;          // ... or every access they name
        final List<int[]> missed = new ArrayList<>();  // runs where TSO or PSO reports and JMM does not
        boolean tsoSomewhere;
        boolean psoSomewhere;
        boolean jmmSomewhere;
    }

    /** Every SC interleaving of {@code s} (a lock's enter only when it is free) through TSO, PSO and JMM. */
    static Runs runs(Shared s, JmmProgram jp, Events ev) {
        Runs r = new Runs();
        JmmRuns.interleavings(jp, order -> {
            Checker c = new Checker(ev.symbols(), CONFIG);
            int[] pc = new int[ev.base().length];
            for (int t : order) {
                int g = ev.base()[t] + pc[t]++;
                c.event(ev.kind()[g], ev.thread()[g], ev.operand()[g], ev.site()[g]);
            }
            CheckResult res = c.result();
            List<Violation> tso = res.violationsOf(Analysis.TSO);
            List<Violation> pso = res.violationsOf(Analysis.PSO);
            List<Violation> jmm = res.violationsOf(Analysis.JMM);
            r.runs++;
            r.tso += tso.isEmpty() ? 0 : 1;
            r.pso += pso.isEmpty() ? 0 : 1;
            r.jmm += jmm.isEmpty() ? 0 : 1;
            r.tsoSomewhere |= !tso.isEmpty();
            r.psoSomewhere |= !pso.isEmpty();
            r.jmmSomewhere |= !jmm.isEmpty();
            if (tso.isEmpty() && pso.isEmpty()) {
                return;
            }
            r.storeBuffer++;
            if (jmm.isEmpty()) {
                r.missed.add(order.clone());
                return;
            }
            Set<List<Site>> pairs = new HashSet<>();
            Set<Site> accesses = new HashSet<>();
            for (Violation v : jmm) {
                pairs.add(List.of(v.store().site(), v.access().site()));
                accesses.add(v.access().site());
            }
            boolean pair = false;
            boolean access = false;
            boolean everyAccess = true;
            for (List<Violation> vs : List.of(tso, pso)) {
                for (Violation v : vs) {
                    pair |= pairs.contains(List.of(v.store().site(), v.access().site()));
                    access |= accesses.contains(v.access().site());
                    everyAccess &= accesses.contains(v.access().site());
                }
            }
            r.samePair += pair ? 1 : 0;
            r.sameAccess += access ? 1 : 0;
            r.everyAccess += everyAccess ? 1 : 0;
        });
        return r;
    }

    /**
     * The documented class of an exception (a program non-SC under PSO that the model or the analysis finds robust,
     * or a run TSO or PSO reports and JMM does not), or null when it is not explained. docs/jmm-model.md, "TSO and
     * PSO as special cases", describes each class with an example.
     */
    static String exceptionClass(Shared s, String what) {
        return null;
    }

    @Test
    void whatTsoAndPsoFindTheAccessModeAnalysisFinds() {
        long seed = Long.getLong("mmcheck.special.seed", 20261129L);
        int programs = Integer.getInteger("mmcheck.special.programs", 2000);
        long maxInterleavings = Long.getLong("mmcheck.special.maxInterleavings", 150);
        Random rnd = new Random(seed);
        List<String> failures = new ArrayList<>();
        Map<String, Integer> exceptions = new TreeMap<>();
        Map<String, String> examples = new TreeMap<>();
        int tsoNonSc = 0;
        int psoNonSc = 0;
        int seqCstNonRobust = 0;
        int reportedSomewhere = 0;
        int psoAndSeqCst = 0;
        int psoAndReported = 0;
        int reportedNotSeqCst = 0;
        int leadingMissed = 0;
        String leadingExample = null;
        long runs = 0;
        long tsoRuns = 0;
        long psoRuns = 0;
        long jmmRuns = 0;
        long storeBufferRuns = 0;
        long samePair = 0;
        long sameAccess = 0;
        long everyAccess = 0;
        long runExceptions = 0;
        long start = System.nanoTime();
        int done = 0;
        for (int i = 0; i < programs && failures.size() < 5; i++, done++) {
            Shared s = random(rnd, maxInterleavings);
            Program p = s.toProgram();
            JmmProgram jp = s.toJmm();
            boolean pso = OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_JAVA) != null;
            boolean seqCst = new RaOracle(jp, RaOracle.Volatile.RC11_SC).nonRobust() != null;
            Runs r = runs(s, jp, read(s));
            // every TSO run is a PSO run: TSO's oracle is asked only when PSO's finds a non-SC run or TSO's monitor reports
            boolean tso = (pso || r.tsoSomewhere) && OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO) != null;
            tsoNonSc += tso ? 1 : 0;
            psoNonSc += pso ? 1 : 0;
            seqCstNonRobust += seqCst ? 1 : 0;
            reportedSomewhere += r.jmmSomewhere ? 1 : 0;
            psoAndSeqCst += pso && seqCst ? 1 : 0;
            psoAndReported += pso && r.jmmSomewhere ? 1 : 0;
            reportedNotSeqCst += r.jmmSomewhere && !seqCst ? 1 : 0;
            runs += r.runs;
            tsoRuns += r.tso;
            psoRuns += r.pso;
            jmmRuns += r.jmm;
            storeBufferRuns += r.storeBuffer;
            samePair += r.samePair;
            sameAccess += r.sameAccess;
            everyAccess += r.everyAccess;
            String head = "program " + i + ": " + s + "\n";
            if (tso && !pso) {
                failures.add(head + "non-SC under TSO but not under PSO");
            }
            if (tso != r.tsoSomewhere || pso != r.psoSomewhere) {
                failures.add(head + "a store-buffer monitor disagrees with its oracle: TSO " + tso + "/" + r.tsoSomewhere
                        + ", PSO " + pso + "/" + r.psoSomewhere + " (oracle/monitor)");
            }
            if (pso && !seqCst) {
                exception(failures, exceptions, examples, s, head, "program: robust in the model (volatile as seq_cst)");
            }
            if (pso && !r.jmmSomewhere) {
                exception(failures, exceptions, examples, s, head, "program: the analysis reports on no interleaving");
            }
            for (int[] order : r.missed) {
                runExceptions++;
                exception(failures, exceptions, examples, s, head + "interleaving " + java.util.Arrays.toString(order)
                        + ": ", "run: TSO or PSO reports, JMM does not");
            }
            if (pso) {
                boolean leading = new RaOracle(jp, RaOracle.Volatile.LEADING_SC_FENCE).nonRobust() != null;
                if (!leading) {
                    leadingMissed++;
                    if (leadingExample == null || s.toString().length() < leadingExample.length()) {
                        leadingExample = s.toString();
                    }
                }
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf("special cases: %d programs (seed %d), %d interleavings, in %.1f s%n", done, seed, runs,
                secs);
        System.out.printf("  programs: non-SC under TSO %d, under PSO %d; not robust in the model (volatile as "
                + "seq_cst) %d, of them non-SC under PSO %d; the analysis reports on some interleaving %d, of the PSO "
                + "ones %d, of the ones robust with volatile as seq_cst %d; PSO non-SC but robust with volatile as the "
                + "leading fence (not failed) %d, shortest: %s%n", tsoNonSc, psoNonSc, seqCstNonRobust, psoAndSeqCst,
                reportedSomewhere, psoAndReported, reportedNotSeqCst, leadingMissed, leadingExample);
        System.out.printf("  runs: TSO reports on %d, PSO on %d, JMM on %d; TSO or PSO on %d, of which JMM names one "
                + "of their (store, access) pairs on %d, one of their accesses on %d, every one of their accesses on "
                + "%d, nothing on %d%n", tsoRuns, psoRuns, jmmRuns, storeBufferRuns, samePair, sameAccess, everyAccess,
                runExceptions);
        System.out.println("  exceptions by class: " + exceptions + (examples.isEmpty() ? "" : ", shortest: " + examples));
        if (!failures.isEmpty()) {
            fail(String.join("\n\n", failures));
        }
        assertTrue(psoNonSc > done / 10 && psoNonSc < done - done / 10, "PSO verdicts too one-sided");
        assertTrue(tsoNonSc > done / 20, "too few programs non-SC under TSO");
        assertTrue(psoNonSc > tsoNonSc, "PSO must find more than TSO");
        assertTrue(storeBufferRuns > runs / 100, "too few runs on which TSO or PSO reports");
    }

    private static void exception(List<String> failures, Map<String, Integer> exceptions, Map<String, String> examples,
            Shared s, String head, String what) {
        String cls = exceptionClass(s, what);
        if (cls == null) {
            failures.add(head + what);
            return;
        }
        String key = what + ": " + cls;
        exceptions.merge(key, 1, Integer::sum);
        String e = examples.get(key);
        if (e == null || s.toString().length() < e.length()) {
            examples.put(key, s.toString());
        }
    }
}
