package dev.mmcheck.checker.history.bench;

import dev.mmcheck.checker.history.History;
import dev.mmcheck.checker.history.HistoryChecker;
import dev.mmcheck.checker.history.HistoryResult;
import dev.mmcheck.checker.history.Model;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * JMH: checking a generated consistent history (see {@link Workloads}) against one model, gradually or
 * by plain enumeration of store orders, with or without times. Run (after {@code mvn -q -pl checker -am
 * test-compile}) with {@code bench/history-bench.sh --jmh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class HistoryBench {

    /** Operations in the history. */
    @Param({"1000", "10000", "100000"})
    public int ops;

    /** Whether the history has times (and the checker uses them). */
    @Param({"false", "true"})
    public boolean timed;

    /** The model checked: SC on SC runs, TSO on TSO runs. */
    @Param({"SC", "TSO"})
    public String model;

    /** "gradual" (the paper's algorithms) or "plain" (store orders extending program order only). */
    @Param({"gradual", "plain"})
    public String algorithm;

    private History history;
    private HistoryChecker.Options options;

    /** Generates the history once per trial. */
    @Setup(Level.Trial)
    public void setUp() {
        Model m = Model.valueOf(model);
        history = Workloads.consistent(ops, timed, m, 20261127L);
        options = HistoryChecker.Options.defaults().withModels(m == Model.SC, m == Model.TSO)
                .withGradual(algorithm.equals("gradual")).withAllCriteria(false);
    }

    /** One check; fails loudly if the generated history is not found consistent. */
    @Benchmark
    public HistoryResult check() {
        HistoryResult r = HistoryChecker.check(history, options);
        if (!r.consistent()) {
            throw new IllegalStateException("generated history found inconsistent");
        }
        return r;
    }
}
