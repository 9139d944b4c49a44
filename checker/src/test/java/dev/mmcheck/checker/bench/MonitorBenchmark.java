package dev.mmcheck.checker.bench;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
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

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of the checker thread: a synthetic stream (4 threads, 70% loads, many addresses, some
 * fences) replayed through monitor_TSO and monitor_PSO together, as the agent runs them. One
 * operation is one event, so the score is events per second. Run with bench/checker-throughput.sh.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class MonitorBenchmark {

    private static final int EVENTS = 1 << 20;

    /** Which analyses run: the default pair, or each alone, or all three. */
    @Param({"tso+pso", "tso", "pso", "tso+pso+sober"})
    public String models;

    /** Distinct addresses in the stream. */
    @Param({"4096", "65536"})
    public int addresses;

    private EventBuffer events;
    private Checker checker;

    /** Builds the stream once. */
    @Setup(Level.Trial)
    public void setUp() {
        Symbols symbols = new Symbols();
        events = SyntheticStream.generate(symbols, 4, addresses, EVENTS, 7);
        Set<Analysis> chosen = EnumSet.noneOf(Analysis.class);
        for (String m : models.split("\\+")) {
            chosen.add(Analysis.parse(m));
        }
        checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(chosen));
        events.replay(checker); // steady state: arrays sized, violations known
    }

    /** Replays the whole stream into the same checker: the steady state of a long run. */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long replay() {
        events.replay(checker);
        return checker.events();
    }
}
