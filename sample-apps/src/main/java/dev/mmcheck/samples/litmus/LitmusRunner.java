package dev.mmcheck.samples.litmus;

import dev.mmcheck.checker.history.History;
import dev.mmcheck.checker.history.HistoryChecker;
import dev.mmcheck.checker.history.HistoryFormatException;
import dev.mmcheck.checker.history.HistoryResult;
import dev.mmcheck.checker.history.HistoryText;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Runs the classic litmus tests natively on real threads of this JVM (no agent), in each access mode,
 * records every run as a history — the value each read returned and {@code System.nanoTime()} just
 * before and after each operation — and checks every history with the history checker: does the run
 * have an SC explanation, only a TSO one, or none?
 *
 * <p>These are real executions of this machine and JIT, so the counts are a demonstration, not a test:
 * on x86, plain store buffering must sometimes come out TSO but not SC, and the volatile variants never
 * outside SC (the JMM promises SC to programs whose shared accesses are all volatile).
 *
 * <pre>
 *   java -cp sample-apps/target/sample-apps.jar:checker/target/mmcheck-checker.jar \
 *        dev.mmcheck.samples.Samples litmus [--runs N] [--tests SB,MP,...] [--variants plain,...] [--save DIR]
 * </pre>
 */
public final class LitmusRunner {

    private static final int BATCH = 5000;

    private LitmusRunner() {
    }

    /**
     * What the runs of one test in one variant came to. By the values read: {@code sc} runs had an SC
     * explanation, {@code tsoOnly} only a TSO one, {@code outsideTso} none. {@code timesDisagree} runs are
     * explained by their values but not once the recorded times are taken into account (for SC or TSO).
     */
    public record Counts(LitmusTest test, Variant variant, int runs, int sc, int tsoOnly, int outsideTso,
            int timesDisagree) {
    }

    /** Receives each run's history (text format) and its classification, for saving or inspection. */
    public interface Sink {
        /** Called once per run with the history and its class: "SC", "TSO-only" or "outside TSO". */
        void accept(LitmusTest test, Variant variant, int run, String history, String verdict);
    }

    /** Runs {@code test} in {@code variant} {@code runs} times and checks every run. */
    public static Counts run(LitmusTest test, Variant variant, int runs, Sink sink) {
        int sc = 0;
        int tsoOnly = 0;
        int outside = 0;
        int disagree = 0;
        int done = 0;
        while (done < runs) {
            int b = Math.min(BATCH, runs - done);
            for (History h : batch(test, variant, b, done)) {
                String text = HistoryText.toString(h);
                History parsed;
                try {
                    parsed = HistoryText.read(h.source(), new StringReader(text));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (HistoryFormatException e) {
                    throw new IllegalStateException("a recorded history does not parse: " + e.getMessage(), e);
                }
                HistoryResult values = HistoryChecker.check(parsed, HistoryChecker.Options.defaults()
                        .withTimes(false).withAllCriteria(false));
                HistoryResult timed = HistoryChecker.check(parsed, HistoryChecker.Options.defaults()
                        .withAllCriteria(false));
                String verdict;
                if (values.sc().consistent()) {
                    sc++;
                    verdict = "SC";
                } else if (values.tso().consistent()) {
                    tsoOnly++;
                    verdict = "TSO-only";
                } else {
                    outside++;
                    verdict = "outside TSO";
                }
                if (values.sc().consistent() != timed.sc().consistent()
                        || values.tso().consistent() != timed.tso().consistent()) {
                    disagree++;
                }
                if (sink != null) {
                    sink.accept(test, variant, done, text, verdict);
                }
                done++;
            }
        }
        return new Counts(test, variant, runs, sc, tsoOnly, outside, disagree);
    }

    /** Runs one batch: {@code n} instances of the test, the threads kept loosely in step instance by instance. */
    static List<History> batch(LitmusTest test, Variant variant, int n, int firstRun) {
        List<List<LitmusTest.Step>> programs = test.threads();
        int k = programs.size();
        int vars = test.vars();
        long[][] memory = new long[n][vars];
        long[][] values = new long[k][];
        long[][] issue = new long[k][];
        long[][] complete = new long[k][];
        for (int i = 0; i < k; i++) {
            int len = programs.get(i).size() * n;
            values[i] = new long[len];
            issue[i] = new long[len];
            complete[i] = new long[len];
        }
        AtomicIntegerArray progress = new AtomicIntegerArray(k);
        AtomicIntegerArray ready = new AtomicIntegerArray(1);
        Thread[] threads = new Thread[k];
        for (int i = 0; i < k; i++) {
            final int me = i;
            threads[i] = new Thread(() -> {
                List<LitmusTest.Step> steps = programs.get(me);
                int len = steps.size();
                ready.incrementAndGet(0);
                while (ready.get(0) < k) {
                    Thread.onSpinWait();
                }
                for (int b = 0; b < n; b++) {
                    progress.set(me, b);
                    waitForOthers(progress, k, me, b);
                    long[] mem = memory[b];
                    // one clock reading between two operations serves as the completion time of the first
                    // and the issue time of the second: every operation still lies inside its interval, and
                    // the operations stay close enough together for store buffering to show
                    long t0 = System.nanoTime();
                    for (int j = 0; j < len; j++) {
                        LitmusTest.Step s = steps.get(j);
                        int at = b * len + j;
                        if (s.write()) {
                            variant.write(mem, s.var(), s.value());
                        } else {
                            values[me][at] = variant.read(mem, s.var());
                        }
                        long t1 = System.nanoTime();
                        issue[me][at] = t0;
                        complete[me][at] = t1;
                        t0 = t1;
                    }
                }
                progress.set(me, n);
            }, "litmus-" + test.label() + "-" + me);
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        // the final thread reads each thread's end marker first, then x and y (see LitmusTest)
        int[] finalOrder = new int[vars];
        for (int i = 0; i < vars; i++) {
            finalOrder[i] = (i + 2) % vars;
        }
        long[][] finals = test.finalReads() ? new long[n][3 * vars] : null;
        if (finals != null) {
            for (int b = 0; b < n; b++) {
                long t0 = System.nanoTime();
                for (int j = 0; j < vars; j++) {
                    long v = Variant.VOLATILE.read(memory[b], finalOrder[j]);
                    long t1 = System.nanoTime();
                    finals[b][3 * j] = v;
                    finals[b][3 * j + 1] = t0;
                    finals[b][3 * j + 2] = t1;
                    t0 = t1;
                }
            }
        }
        List<History> out = new ArrayList<>(n);
        for (int b = 0; b < n; b++) {
            History.Builder h = History.builder(test.label() + "-" + variant.label() + "-" + (firstRun + b));
            for (int i = 0; i < k; i++) {
                h.thread("t" + i);
            }
            int fin = finals != null ? h.thread("final") : -1;
            int[] ids = new int[vars];
            for (int v = 0; v < vars; v++) {
                ids[v] = h.variable(LitmusTest.variableName(v));
            }
            for (int i = 0; i < k; i++) {
                List<LitmusTest.Step> steps = programs.get(i);
                for (int j = 0; j < steps.size(); j++) {
                    LitmusTest.Step s = steps.get(j);
                    int at = b * steps.size() + j;
                    int var = ids[s.var()];
                    if (s.write()) {
                        h.write(i, var, s.value(), issue[i][at], complete[i][at], 0);
                    } else {
                        h.read(i, var, values[i][at], issue[i][at], complete[i][at], 0);
                    }
                }
            }
            if (finals != null) {
                for (int j = 0; j < vars; j++) {
                    h.read(fin, ids[finalOrder[j]], finals[b][3 * j], finals[b][3 * j + 1], finals[b][3 * j + 2], 0);
                }
            }
            try {
                out.add(h.build());
            } catch (HistoryFormatException e) {
                throw new IllegalStateException("a recorded run is not a valid history: " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * Spins until every other thread has reached instance {@code b} too (a barrier per instance, so that
     * the threads' operations on one instance overlap in time as much as this machine lets them), yielding
     * now and then so that a test with more threads than cores still makes progress.
     */
    private static void waitForOthers(AtomicIntegerArray progress, int k, int me, int b) {
        int spins = 0;
        for (int j = 0; j < k; j++) {
            if (j == me) {
                continue;
            }
            while (progress.get(j) < b) {
                if (++spins % 256 == 0) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** The table the runner prints, one line per test and variant. */
    public static List<String> table(List<Counts> all) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "%-6s %-9s %7s %7s %9s %12s %16s", "test", "variant", "runs", "SC",
                "TSO-only", "outside TSO", "times disagree"));
        for (Counts c : all) {
            out.add(String.format(Locale.ROOT, "%-6s %-9s %7d %7d %9d %12d %16d", c.test().label(),
                    c.variant().label(), c.runs(), c.sc(), c.tsoOnly(), c.outsideTso(), c.timesDisagree()));
        }
        return out;
    }

    /** Runs the tests and prints the table; exit status 2 on a bad argument. */
    public static void main(String[] args) throws IOException {
        int runs = 10_000;
        Set<LitmusTest> tests = EnumSet.allOf(LitmusTest.class);
        Set<Variant> variants = EnumSet.allOf(Variant.class);
        Path save = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (a.equals("--runs") && v != null) {
                try {
                    runs = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    runs = -1;
                }
                if (runs <= 0) {
                    fail("--runs needs a positive number, got '" + v + "'");
                }
                i++;
            } else if (a.equals("--tests") && v != null) {
                tests = EnumSet.noneOf(LitmusTest.class);
                for (String name : v.split(",")) {
                    LitmusTest t = LitmusTest.parse(name.trim());
                    if (t == null) {
                        fail("unknown test '" + name + "' (choose from SB, MP, LB, IRIW, 2+2W, R, S, WRC)");
                    }
                    tests.add(t);
                }
                i++;
            } else if (a.equals("--variants") && v != null) {
                variants = EnumSet.noneOf(Variant.class);
                for (String name : v.split(",")) {
                    Variant var = Variant.parse(name.trim());
                    if (var == null) {
                        fail("unknown variant '" + name + "' (choose from plain, opaque, rel-acq, volatile)");
                    }
                    variants.add(var);
                }
                i++;
            } else if (a.equals("--save") && v != null) {
                try {
                    save = Path.of(v);
                    Files.createDirectories(save);
                } catch (IOException | java.nio.file.InvalidPathException e) {
                    fail("--save: cannot create directory '" + v + "': " + e.getMessage());
                }
                i++;
            } else {
                fail("usage: litmus [--runs N] [--tests SB,MP,...] [--variants plain,opaque,rel-acq,volatile] "
                        + "[--save DIR]");
            }
        }
        System.out.println("litmus tests on this JVM: Java " + System.getProperty("java.version") + ", "
                + System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
                + runs + " runs each");
        System.out.println("SC / TSO-only / outside TSO: what the values read allow; times disagree: runs the "
                + "recorded nanoTime intervals rule out for a model the values allow");
        List<Counts> all = new ArrayList<>();
        Path dir = save;
        Set<String> saved = new java.util.HashSet<>();
        for (LitmusTest t : tests) {
            for (Variant v : variants) {
                Counts c = run(t, v, runs, dir == null ? null : (test, variant, run, history, verdict) -> {
                    String key = test.label() + "-" + variant.label() + "-" + verdict.replace(' ', '-');
                    if (saved.add(key)) {
                        try {
                            Files.writeString(dir.resolve(key.replace('+', 'p') + ".hist"), "# " + verdict
                                    + " by its values\n" + history);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                });
                all.add(c);
                System.out.println(table(List.of(c)).get(1));
            }
        }
        System.out.println();
        for (String line : table(all)) {
            System.out.println(line);
        }
    }

    private static void fail(String message) {
        System.err.println("litmus: " + message);
        System.exit(2);
    }
}
