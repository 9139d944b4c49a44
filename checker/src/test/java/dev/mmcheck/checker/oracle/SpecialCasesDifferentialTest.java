package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.jmm.AccessMode;
import dev.mmcheck.checker.jmm.FenceKind;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.result.Violation;
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
 *       ({@link RaOracle.Volatile#RC11_SC}: the analyzer's default reading has no declarative model, and this is
 *       the one it is measured by), and the real analysis ({@code models=jmm}, its default volatile rule)
 *       reports on some SC interleaving of it; a program non-SC under TSO is non-SC under PSO;</li>
 *   <li>run level: every SC interleaving (a monitor entered only when free) is fed to one production {@link
 *       Checker} running TSO, PSO and JMM, the events and the sites' modes as {@link TextTraceReader} reads them
 *       from the program's text: whenever TSO or PSO reports on a run, JMM reports on the same run;</li>
 *   <li>sanity: the TSO and PSO monitors report on some interleaving exactly when their oracle finds a non-SC
 *       run (with the monitors and load fences this test adds to the oracle's vocabulary).</li>
 * </ul>
 * An exception fails the test unless {@link #exceptionClass} names its class; none is needed. With volatile
 * read as the monitor's leading fence ({@link RaOracle.Volatile#LEADING_SC_FENCE}, not the default) the programs
 * non-SC under PSO and robust in the model are counted, not failed, provided each is non-robust once its volatile
 * loads lose their SC fence: that reading puts an SC fence before a volatile load, which PSO (and x86, where
 * HotSpot's volatile load is a plain {@code mov}) does not have, and that fence must be the whole difference
 * ({@link #storeBufferingBeforeVolatileLoadsIsMissedOnlyByTheLeadingFenceReading}).
 *
 * <p>The vocabulary: loads in every mode (one {@code load} for TSO and PSO), plain, opaque, release and volatile
 * stores, {@code cas} as an update that always writes (getAndSet: the store-buffer oracle has no failing
 * interlocked operation, a failed CAS is a read in the model, and the agent logs every CAS alike), full,
 * store-store and load fences, and lock sections on one monitor. 2-3 threads, 2-3 data locations; half of the
 * programs cross (each thread's first half on one location, its second on the next, often with a fence between),
 * which makes the litmus shapes common; programs with more than {@code -Dmmcheck.special.maxInterleavings}
 * (default 150) interleavings are drawn again. Knobs: {@code -Dmmcheck.special.programs=N} (default 2000), {@code
 * -Dmmcheck.special.seed=S}.
 *
 * <p>The test fails when the analysis is weakened (each mutation made, the test run with its defaults, then
 * reverted; 2026-11-28):
 * <ul>
 *   <li>a release store read as volatile in the translation to the model ({@code Word.RELEASE_STORE}'s mode):
 *       program 93, {@code T0: volatile-load x; volatile-store x; release-store y | T1: release-store y;
 *       storestore-fence; volatile-load x}: robust in the model (4 of the 228 programs non-SC under PSO);</li>
 *   <li>JmmAnalyzer reading a release store as volatile: program 2, {@code T0: store x; cas x; fence; cas y;
 *       storestore-fence | T1: release-store y; release-store y; load x}: runs that PSO reports and JMM does not;</li>
 *   <li>JmmAnalyzer reading a plain store as a release store: program 32, {@code T0: volatile-store x; store x;
 *       opaque-store y | T1: volatile-load y; store y; opaque-load x} (message passing whose stores PSO
 *       reorders);</li>
 *   <li>JmmAnalyzer reading a store-store fence as a full fence: program 119, {@code T0: store x;
 *       storestore-fence; volatile-load y | T1: cas y; release-store y; storestore-fence; volatile-store x;
 *       volatile-load x} (store buffering across the fence);</li>
 *   <li>JmmAnalyzer reading a load fence as a full fence: program 305, {@code T0: fence; release-store x;
 *       opaque-store y; load y | T1: opaque-store y; load-fence; opaque-load x};</li>
 *   <li>RobustnessMonitor without the write check ({@code checkWrite} never reports): program 2, as above: where
 *       T1 runs first, PSO reports T0's {@code cas y}, which its buffered stores to y let overwrite an older value,
 *       and only the write check sees that the CAS can be placed before them.</li>
 * </ul>
 * It cannot see a strengthening where the model is already weaker than PSO: JmmAnalyzer reading every plain load
 * as acquire passes (the analysis then reports on 330 programs instead of 350, none of them non-SC under PSO),
 * since PSO never lets a load pass a later access. That the model's own weakenings beyond PSO are reported
 * genuinely is {@link RobustnessDifferentialTest}'s and {@link VolatileSemanticsTest}'s job.
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

        /** The number of operations. */
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

        /** The program as a text trace (threads one after the other), operation k's site {@code T<t>:<k + 1>}. */
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

    /** Parses {@code "T0: store x; volatile-load y | T1: ..."}, as {@link Shared#toString()} prints a program. */
    static Shared parse(String text) {
        List<List<Op>> threads = new ArrayList<>();
        int locations = 0;
        for (String th : text.split("\\|")) {
            List<Op> ops = new ArrayList<>();
            for (String op : th.substring(th.indexOf(':') + 1).split(";")) {
                String[] w = op.trim().split("\\s+");
                Word word = java.util.Arrays.stream(Word.values()).filter(x -> x.word.equals(w[0])).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown word " + w[0]));
                int loc = w.length > 1 ? "xyzw".indexOf(w[1]) : -1;
                locations = Math.max(locations, loc + 1);
                ops.add(new Op(word, loc));
            }
            threads.add(ops);
        }
        return new Shared(threads, locations);
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
                if (crossing && i == (len + 1) / 2 && i < len && rnd.nextBoolean()) {
                    ops.add(new Op(FENCES[rnd.nextInt(FENCES.length)], -1)); // a fence between the halves
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

    /** The program's text trace read by {@link TextTraceReader}, as a user's trace would be. */
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

    /** Every SC interleaving of {@code jp} (an enter only when the lock is free), as {@code ev}, to the analyses. */
    static Runs runs(JmmProgram jp, Events ev) {
        Runs r = new Runs();
        JmmRuns.interleavings(jp, order -> {
            Checker c = new Checker(ev.symbols(), CONFIG);
            int[] pc = new int[ev.base().length];
            for (int t : order) {
                int g = ev.base()[t] + pc[t]++;
                c.event(ev.kind()[g], ev.thread()[g], ev.operand()[g], ev.site()[g]);
            }
            List<Violation> tso = new ArrayList<>();
            List<Violation> pso = new ArrayList<>();
            List<Violation> jmm = new ArrayList<>();
            for (Violation v : c.violations()) {
                (v.analysis() == Analysis.TSO ? tso : v.analysis() == Analysis.PSO ? pso : jmm).add(v);
            }
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

    /**
     * The one class of program that PSO finds non-SC and the model does not, under the monitor's other reading of
     * volatile ({@code LEADING_FENCE}, not the default): store buffering whose loads are volatile. PSO (and x86, where
     * a volatile load is a plain {@code mov}) lets each store wait past the other thread's load; the leading SC fence
     * before each volatile load forbids it. With volatile as seq_cst the model allows it, and the analysis (its
     * default reading) reports it.
     */
    @Test
    void storeBufferingBeforeVolatileLoadsIsMissedOnlyByTheLeadingFenceReading() {
        Shared s = parse("T0: store x; volatile-load y | T1: store y; volatile-load x");
        JmmProgram jp = s.toJmm();
        assertTrue(OperationalOracle.findNonSc(s.toProgram(), OperationalOracle.Model.PSO_JAVA) != null, "PSO");
        assertTrue(OperationalOracle.findNonSc(s.toProgram(), OperationalOracle.Model.TSO) != null, "TSO");
        assertTrue(new RaOracle(jp, RaOracle.Volatile.RC11_SC).nonRobust() != null, "seq_cst");
        assertTrue(new RaOracle(jp, RaOracle.Volatile.LEADING_SC_FENCE).nonRobust() == null, "leading fence");
        Runs r = runs(jp, read(s));
        assertTrue(r.tsoSomewhere && r.psoSomewhere && r.jmmSomewhere && r.missed.isEmpty(), "the analyses");
    }

    /** {@code p} with each volatile load an acquire load: under the leading-fence reading, without its SC fence. */
    static JmmProgram withoutFencesBeforeVolatileLoads(JmmProgram p) {
        List<List<JmmProgram.Op>> out = new ArrayList<>();
        for (List<JmmProgram.Op> t : p.threads()) {
            out.add(t.stream().map(op -> op.kind() == JmmProgram.Kind.LOAD && op.mode() == AccessMode.VOLATILE
                    ? new JmmProgram.Op(op.kind(), op.loc(), AccessMode.ACQUIRE, null, 0, 0) : op).toList());
        }
        return new JmmProgram(out, p.locations());
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
        Map<Word, Integer> psoByWord = new java.util.EnumMap<>(Word.class);
        long runs = 0;
        long tsoRuns = 0;
        long psoRuns = 0;
        long jmmRuns = 0;
        long storeBufferRuns = 0;
        long samePair = 0;
        long sameAccess = 0;
        long everyAccess = 0;
        long runExceptions = 0;
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu = bean.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        int done = 0;
        for (int i = 0; i < programs && failures.size() < 5; i++, done++) {
            Shared s = random(rnd, maxInterleavings);
            Program p = s.toProgram();
            JmmProgram jp = s.toJmm();
            boolean pso = OperationalOracle.findNonSc(p, OperationalOracle.Model.PSO_JAVA) != null;
            boolean seqCst = new RaOracle(jp, RaOracle.Volatile.RC11_SC).nonRobust() != null;
            Runs r = runs(jp, read(s));
            // every TSO run is a PSO run: TSO's oracle is asked only when PSO's finds a non-SC run or TSO's monitor
            // reports
            boolean tso = (pso || r.tsoSomewhere)
                    && OperationalOracle.findNonSc(p, OperationalOracle.Model.TSO) != null;
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
            if (pso) {
                s.threads().stream().flatMap(List::stream).map(Op::word).distinct()
                        .forEach(w -> psoByWord.merge(w, 1, Integer::sum));
            }
            String head = "program " + i + ": " + s + "\n";
            if (tso && !pso) {
                failures.add(head + "non-SC under TSO but not under PSO");
            }
            if (tso != r.tsoSomewhere || pso != r.psoSomewhere) {
                failures.add(head + "a store-buffer monitor disagrees with its oracle (oracle/monitor): TSO " + tso
                        + "/" + r.tsoSomewhere + ", PSO " + pso + "/" + r.psoSomewhere);
            }
            if (pso && !seqCst) {
                exception(failures, exceptions, examples, s, head,
                        "program: robust in the model (volatile as seq_cst)");
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
                    if (new RaOracle(withoutFencesBeforeVolatileLoads(jp), RaOracle.Volatile.LEADING_SC_FENCE)
                            .nonRobust() == null) {
                        failures.add(head + "robust with volatile as the leading fence, even without the fences before "
                                + "its volatile loads: not the documented class");
                    }
                    if (leadingExample == null || s.toString().length() < leadingExample.length()) {
                        leadingExample = s.toString();
                    }
                }
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf("special cases: %d programs (seed %d), %d interleavings, in %.1f s (%.1f s of CPU)%n", done,
                seed, runs, secs, (bean.getCurrentThreadCpuTime() - cpu) / 1e9);
        System.out.printf("  programs: non-SC under TSO %d, under PSO %d; not robust in the model (volatile as "
                + "seq_cst) %d, of them non-SC under PSO %d; the analysis reports on some interleaving %d, of the PSO "
                + "ones %d, of the ones robust with volatile as seq_cst %d; PSO non-SC but robust with volatile as the "
                + "leading fence (not failed: each is non-robust without the fences before its volatile loads) %d, "
                + "shortest: %s%n", tsoNonSc, psoNonSc, seqCstNonRobust, psoAndSeqCst,
                reportedSomewhere, psoAndReported, reportedNotSeqCst, leadingMissed, leadingExample);
        System.out.printf("  runs: TSO reports on %d, PSO on %d, JMM on %d; TSO or PSO on %d, of which JMM names one "
                + "of their (store, access) pairs on %d, one of their accesses on %d, every one of their accesses on "
                + "%d, nothing on %d%n", tsoRuns, psoRuns, jmmRuns, storeBufferRuns, samePair, sameAccess, everyAccess,
                runExceptions);
        System.out.println("  non-SC under PSO, by the words they use: " + psoByWord);
        System.out.println("  exceptions by class: " + exceptions
                + (examples.isEmpty() ? "" : ", shortest: " + examples));
        if (!failures.isEmpty()) {
            fail(String.join("\n\n", failures));
        }
        assertTrue(psoNonSc > done / 10 && psoNonSc < done - done / 10, "PSO verdicts too one-sided");
        assertTrue(tsoNonSc > done / 20, "too few programs non-SC under TSO");
        assertTrue(psoNonSc > tsoNonSc, "PSO must find more than TSO");
        assertTrue(psoByWord.size() == Word.values().length, "some word is in no program non-SC under PSO");
        assertTrue(storeBufferRuns > runs / 100, "too few runs on which TSO or PSO reports");
    }

    /** Counts an exception under its documented class, or adds it to the failures when it has none. */
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
