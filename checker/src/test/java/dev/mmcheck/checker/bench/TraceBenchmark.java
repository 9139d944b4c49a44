package dev.mmcheck.checker.bench;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.trace.TraceFiles;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The checker's analyses on a recorded run: the first {@link #EVENTS} events of a trace ({@code trace=} of a workload
 * run with {@code solo=off,repeatedLoads=log}, as jmm logs), fed to a fresh checker per invocation with the analyses
 * {@code models} names. The score is nanoseconds per event, without the agent's side (identities, the merge): the
 * cost of the analyses alone, so the jmm analysis's share is not hidden by the rest. bench/jmm-cost.sh records the
 * traces and runs it (docs/performance.md, "The jmm analysis").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class TraceBenchmark {

    /** Events fed per invocation (every workload's trace at {@code SCALE=2} has more: W04, the shortest, about 1M). */
    static final int EVENTS = 800_000;

    /** The trace file (required). */
    @Param({""})
    public String trace;

    /** Which analyses run. */
    @Param({"tso+pso", "tso+pso+jmm"})
    public String models;

    private Symbols symbols;
    private EventBuffer events;
    private Set<Analysis> chosen;
    private Checker checker;

    /** Reads the trace's first events once. */
    @Setup(Level.Trial)
    public void read() throws Exception {
        if (trace.isEmpty()) {
            throw new IllegalArgumentException("give the trace: -p trace=FILE");
        }
        symbols = new Symbols();
        events = new EventBuffer();
        TraceFiles.read(Path.of(trace), symbols, (kind, thread, operand, site) -> {
            if (events.size() < EVENTS) {
                events.event(kind, thread, operand, site);
            }
        });
        if (events.size() < EVENTS) {
            throw new IllegalArgumentException(trace + " has " + events.size() + " events, fewer than " + EVENTS);
        }
        chosen = EnumSet.noneOf(Analysis.class);
        for (String m : models.split("\\+")) {
            chosen.add(Analysis.parse(m));
        }
    }

    /** A fresh checker for each pass: every pass is the run's start. */
    @Setup(Level.Invocation)
    public void fresh() {
        checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(chosen));
    }

    /** Feeds the events. */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long feed() {
        events.replay(checker);
        return checker.events();
    }
}
