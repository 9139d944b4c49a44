package dev.mmcheck.agent;

import dev.mmcheck.checker.finding.Analysis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's options: defaults, both syntaxes, precedence, and one clear line per mistake. */
class OptionsTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        p.setProperty("java.version", "17"); // unrelated properties are ignored
        return p;
    }

    @Test
    void fixRecordsTheTraceBesideTheReportUnlessTraceIsGiven() throws Exception {
        assertEquals(java.nio.file.Path.of("out/r.fix.mmct"), Options.parse("report=out/r.json,fix=true", props())
                .traceFile());
        assertEquals(java.nio.file.Path.of("t.mmct"), Options.parse("fix=true,trace=t.mmct", props()).traceFile());
        assertEquals(null, Options.parse("report=out/r.json", props()).traceFile());
    }

    @Test
    void defaults() throws Exception {
        Options o = Options.parse(null, props());
        assertEquals(Path.of("mmcheck-report.json"), o.report());
        assertEquals(EnumSet.of(Analysis.TSO, Analysis.PSO), o.analyses());
        assertNull(o.trace());
        assertFalse(o.failOnViolation());
        assertFalse(o.selfCheck());
        assertEquals(Options.DEFAULT_EXCLUDES, o.excludes());
        assertTrue(o.includes().isEmpty());
        assertTrue(o.activeSchedule(), "schedule=active unless told otherwise (docs/schedules.md)");
        assertNull(o.seed(), "a seed is drawn");
    }

    @Test
    void percentPIsTheProcessIdSoThatForksNeverShareAFile() throws Exception {
        Options o = Options.parse("report=target/mmcheck/%p.json,sarif=r-%p.sarif", props());
        String pid = String.valueOf(ProcessHandle.current().pid());
        assertEquals(Path.of("target/mmcheck/" + pid + ".json"), o.report());
        assertEquals(Path.of("r-" + pid + ".sarif"), o.sarif());
    }

    @Test
    void bufferBound() throws Exception {
        assertEquals(Options.DEFAULT_BUFFER_BOUND, Options.parse(null, props()).bufferBound());
        assertEquals(16, Options.parse("bufferBound=16", props()).bufferBound());
        assertEquals(Integer.MAX_VALUE, Options.parse("bufferBound=none", props()).bufferBound(), "none: unbounded");
    }

    @Test
    void scheduleAndSeed() throws Exception {
        Options os = Options.parse("schedule=os", props());
        assertFalse(os.activeSchedule());
        Options seeded = Options.parse("schedule=active,seed=-12", props());
        assertTrue(seeded.activeSchedule());
        assertEquals(-12L, seeded.seed());
        assertEquals(99L, Options.parse("", props("mmcheck.seed", "99")).seed());
    }

    @Test
    void sampleChecksPsoOnly() throws Exception {
        assertEquals(1.0, Options.parse(null, props()).sample(), "everything is logged unless told otherwise");
        Options sampled = Options.parse("sample=0.05", props());
        assertEquals(0.05, sampled.sample());
        assertEquals(EnumSet.of(Analysis.PSO), sampled.analyses(), "docs/sampling.md: only PSO's reports stay genuine");
        assertFalse(sampled.declaresTransactions(), "no serializability check starts with a transaction");
        assertEquals(EnumSet.of(Analysis.PSO), Options.parse("sample=.5,models=pso", props()).analyses());
        assertEquals(7L, Options.parse("schedule=os,sample=0.5,seed=7", props()).seed(), "the seed picks the objects");
        assertEquals(EnumSet.of(Analysis.TSO, Analysis.PSO), Options.parse("sample=1", props()).analyses());
        assertFalse(sampled.syncAsFences(), "synchronization is logged whole unless told otherwise");
        assertTrue(Options.parse("sample=0.05,sync=fences", props()).syncAsFences());
        assertFalse(Options.parse("sample=0.05,sync=addresses", props()).syncAsFences());
        assertTrue(Options.parse(null, props()).solo(), "solo periods are on unless told otherwise");
        assertFalse(Options.parse("solo=off", props()).solo());
    }

    @Test
    void agentArgumentsAndSystemProperties() throws Exception {
        Options o = Options.parse("report=out/r.json,models=tso:sober,includes=com.acme.*:org.x.Y,trace=t.mmct,"
                + "failOnViolation=true,selfCheck=TRUE,atomic=com.acme.Pool#take*", props("mmcheck.models", "pso"));
        assertEquals(Path.of("out/r.json"), o.report());
        assertEquals(EnumSet.of(Analysis.TSO, Analysis.SOBER), o.analyses(), "agent arguments win");
        assertEquals(List.of("com.acme.*", "org.x.Y"), o.includes());
        assertEquals(Path.of("t.mmct"), o.trace());
        assertTrue(o.failOnViolation());
        assertTrue(o.selfCheck());
        assertTrue(o.atomic("com.acme.Pool", "takeHead"));
        assertFalse(o.atomic("com.acme.Pool", "put"));
        Options d = Options.parse("", props("mmcheck.models", "pso", "mmcheck.excludes", "a.*"));
        assertEquals(EnumSet.of(Analysis.PSO), d.analyses());
        assertEquals(List.of("a.*"), d.excludes());
    }

    /** Transactions are declared only when a serializability check will (or, models= not given, can) run. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                                   | false | true",
        "atomic=a.B#c                         | true  | true",
        "atomic=a.B#c,models=tso:pso          | false | false",
        "atomic=a.B#c,models=sober            | false | false",
        "atomic=a.B#c,models=tso:scser        | true  | true",
        "atomic=a.B#c,models=tsoser           | true  | true",
        "models=pso:tsoser                    | true  | true",
        "models=tso                           | false | false",
    })
    void transactionsOnlyWithASerializabilityCheck(String args, boolean declares, boolean checks) throws Exception {
        Options o = Options.parse(args, props());
        assertEquals(declares, o.declaresTransactions(), args);
        assertEquals(checks, o.checksTransactions(), args);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "reprot=x            | unknown option 'reprot' (agent argument); known options: report, models, includes, excludes, trace, failOnViolation, selfCheck, atomic, failOnError, checkerMemory, repeatedLoads, injectFailure, schedule, seed, failOn, suppress, baseline, sarif, html, progress, sample, sync, solo, overhead, bufferBound, jmmAddresses, jmmValidatedReads, jmmWriteLog, sourceRoots, synthetic, fix",
        "schedule=pct        | option schedule=pct must be os or active",
        "progress=0          | option progress=0 must be a number of seconds, at least 1",
        "progress=5s         | option progress=5s must be a number of seconds, at least 1",
        "failOn=race:bugs    | option failOn: unknown category 'bugs' (race, relaxed, atomicity, or all)",
        "suppress=/nonexistent/rules.txt | the suppression file /nonexistent/rules.txt does not exist",
        "seed=x1             | option seed=x1 must be a whole number",
        "schedule=os,seed=3  | option seed=3 has no effect with schedule=os and without sample=",
        "sample=0            | option sample=0 must be a number above 0 and at most 1, such as 0.05",
        "sample=0.1,sync=all | option sync=all must be addresses or fences",
        "solo=yes            | option solo=yes must be on or off",
        "sync=fences         | option sync=fences has no effect without sample= (it says how a sampled run logs the synchronization of the objects it does not sample)",
        "sample=1.5          | option sample=1.5 must be a number above 0 and at most 1, such as 0.05",
        "sample=5%           | option sample=5% must be a number above 0 and at most 1, such as 0.05",
        "sample=0.1,models=tso:pso | option sample=0.1 checks PSO only (TSO's store order, Sober and the serializability checks need every access: docs/sampling.md); give models=pso or leave models= out",
        "sample=0.1,selfCheck=true | option sample=0.1 cannot be combined with selfCheck=true (the self-check needs every access)",
        "sample=0.1,atomic=a.B#c   | option sample=0.1 cannot be combined with atomic= (the serializability checks need every access)",
        "sample=0.1,trace=t.bin    | option sample=0.1 cannot be combined with trace= (a sampled run's events are only sound under PSO, which a trace file cannot say)",
        "overhead=none       | option overhead=none must be rewrite, log, ids or check (check, the default, is a normal run; the others measure mmcheck's own cost and check nothing)",
        "overhead=log,trace=t.bin  | option overhead=log checks nothing, so it cannot be combined with trace= (no event would reach the trace)",
        "sample=0.1,fix=true       | option sample=0.1 cannot be combined with fix=true (the fix is proven by replaying the run's trace, and a sampled run's events are only sound under PSO)",
        "overhead=log,fix=true     | option overhead=log checks nothing, so it cannot be combined with fix=true (there would be no finding to remove)",
        "fix=maybe                 | option fix=maybe must be true or false",
        "trace=t/%t.mmct,fix=true  | option trace=t/%t.mmct writes one trace per test (%t), but fix=true replays the whole run's: leave %t out, or fix=true",
        "trace=%t/a.mmct           | option trace=%t/a.mmct: %t (one trace per test) may only be in the file's name, not in a directory",
        "overhead=ids,selfCheck=true | option overhead=ids checks nothing, so it cannot be combined with selfCheck=true (no read would be checked)",
        "repeatedLoads=all   | option repeatedLoads=all must be skip or log",
        "bufferBound=0       | option bufferBound=0 must be a whole number of stores, at least 1, or none",
        "bufferBound=lots    | option bufferBound=lots must be a whole number of stores, at least 1, or none",
        "checkerMemory=12x   | option checkerMemory=12x must be a size such as 256m or 2g",
        "checkerMemory=100k  | option checkerMemory=100k is below the least of 1m",
        "failOnError=0       | option failOnError=0 must be true or false",
        "injectFailure=tso   | option injectFailure=tso must be STAGE@EVENT, STAGE one of tso, pso, sober, scser, tsoser, jmm, core, names, checker-loop",
        "injectFailure=checker-loop@x | option injectFailure=checker-loop@x: the event must be a number >= 0",
        "models=tso:arm      | option models=tso:arm: unknown model 'arm' (choose from tso, pso, sober, scser, tsoser, jmm, separated by ':', or all)",
        "models=             | option models needs at least one of tso, pso, sober, scser, tsoser, jmm",
        "jmmAddresses=0     | option jmmAddresses=0 must be a whole number of addresses, at least 1",
        "jmmWriteLog=few    | option jmmWriteLog=few must be a whole number of writes, at least 1, or none",
        "sourceRoots=/no/such/dir | option sourceRoots=/no/such/dir: '/no/such/dir' is not a directory (directories separated by ':')",
        "selfCheck=maybe     | option selfCheck=maybe must be true or false",
        "report=             | option report needs a file name",
        "includes=com.a b    | option includes: 'com.a b' is not a valid pattern (a class name with * and ? wildcards)",
        "atomic=com.a.Pool   | option atomic: 'com.a.Pool' is not a valid pattern (expected CLASS#METHOD, e.g. com.example.Pool#take*)",
        "failOnViolation     | agent argument 'failOnViolation' is not KEY=VALUE",
    })
    void mistakesAreOneLine(String args, String message) {
        Options.OptionException e = assertThrows(Options.OptionException.class, () -> Options.parse(args, props()));
        assertEquals(message, e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                  | CHECK   | true  | true",
        "overhead=check      | CHECK   | true  | true",
        "overhead=ids        | IDS     | true  | false",
        "overhead=log        | LOG     | false | false",
        "overhead=rewrite    | REWRITE | false | false",
        "overhead=log,sample=0.05 | LOG | false | false",
    })
    void overheadSaysHowFarEventsGo(String args, Options.Layer layer, boolean identifies, boolean checks) throws Exception {
        Options o = Options.parse(args, props());
        assertEquals(layer, o.overhead(), args);
        assertEquals(identifies, o.overhead().identifies(), args);
        assertEquals(checks, o.overhead() == Options.Layer.CHECK, args);
    }

    @Test
    void unknownSystemPropertiesAreMistakesToo() {
        Options.OptionException e = assertThrows(Options.OptionException.class,
                () -> Options.parse(null, props("mmcheck.selfcheck", "true")));
        assertTrue(e.getMessage().startsWith("unknown option 'selfcheck' (-Dmmcheck.selfcheck)"), e.getMessage());
    }

    @Test
    void whatIsInstrumented() throws Exception {
        Options all = Options.parse(null, props());
        assertTrue(all.instruments("com.acme.Queue"));
        assertTrue(all.instruments("dev.mmcheck.samples.S01_DekkerPlain"), "only the agent's own packages are out");
        assertFalse(all.instruments("dev.mmcheck.agent.Agent"));
        assertFalse(all.instruments("dev.mmcheck.shaded.bytebuddy.ByteBuddy"));
        assertFalse(all.instruments("org.junit.jupiter.api.Test"));
        // mocking and assertion libraries are test infrastructure too (their synchronization is still logged)
        assertFalse(all.instruments("org.mockito.internal.util.concurrent.WeakConcurrentMap"));
        assertFalse(all.instruments("org.assertj.core.api.Assertions"));
        assertFalse(all.instruments("org.hamcrest.Matchers"));
        // ... and what Mockito runs on: Byte Buddy's advice dispatch and Objenesis' instantiators
        assertFalse(all.instruments("net.bytebuddy.TypeCache"));
        assertFalse(all.instruments("org.objenesis.ObjenesisStd"));
        assertTrue(all.instruments("com.acme.Queue$MockitoMock$1234"), "a mock of the code under test is in its package");
        Options some = Options.parse("includes=com.acme.*,excludes=com.acme.gen.*", props());
        assertTrue(some.instruments("com.acme.Queue"));
        assertFalse(some.instruments("com.acme.gen.Parser"));
        assertFalse(some.instruments("org.other.Thing"));
        assertTrue(some.instruments("org.junit.Foo") == false, "includes narrow");
        assertTrue(Options.matches("a.?.C*", "a.b.Class"));
        assertFalse(Options.matches("a.?.C", "a.bb.C"));
    }

    /**
     * A JVM that is one of several whose reports are merged (a %p report, or Surefire's forked booter) triages as one
     * part of the run: no baseline from its own findings, no rule called unused for not matching here.
     */
    @Test
    void aForkOrAPerProcessReportTriagesAsOnePartOfTheRun() throws Exception {
        assertFalse(Options.parse("report=r.json", props()).triage().partial());
        assertTrue(Options.parse("report=target/mmcheck/%p.json", props()).triage().partial());
        assertTrue(Options.parse("report=r.json,sarif=%p.sarif", props()).triage().partial());
        assertTrue(Options.parse("report=r.json", props("sun.java.command",
                "/p/target/surefire/surefirebooter-20261128005022905_3.jar /p/target/surefire "
                        + "2026-11-28T00-50-22_905-jvmRun1 surefire-1tmp surefire_0-2tmp")).triage().partial());
        assertFalse(Options.parse("report=r.json", props("sun.java.command", "org.example.Main --surefirebooter"))
                .triage().partial());
    }
}
