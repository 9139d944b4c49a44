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
 * Throughput of the checker thread with the serializability checks: a {@link SerialStream} (2
 * threads, W02-like: shared coefficients reread, array elements written) replayed through the chosen
 * analyses, with no atomic method (every event a transaction, W02's case) or a share of the events in
 * atomic blocks. One operation is one event. Run with
 * {@code BENCH=SerializabilityBenchmark bench/checker-throughput.sh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class SerializabilityBenchmark {

    private static final int EVENTS = 1 << 17;

    /** Which analyses run. */
    @Param({"tso+pso+tsoser", "tso+pso+scser"})
    public String models;

    /** Percent of the events inside atomic blocks (0: every event is a transaction of its own). */
    @Param({"0", "60"})
    public int atomic;

    private EventBuffer events;
    private Checker checker;

    /** Builds the stream once. */
    @Setup(Level.Trial)
    public void setUp() {
        Symbols symbols = new Symbols();
        events = SerialStream.generate(symbols, 2, 4096, EVENTS, atomic, 11);
        Set<Analysis> chosen = EnumSet.noneOf(Analysis.class);
        for (String m : models.split("\\+")) {
            chosen.add(Analysis.parse(m));
        }
        checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(chosen).withAutoSerializability(false));
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
