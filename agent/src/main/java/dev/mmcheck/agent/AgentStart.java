package dev.mmcheck.agent;

import dev.mmcheck.agent.check.AgentNames;
import dev.mmcheck.agent.check.CheckerLoop;
import dev.mmcheck.agent.check.CheckerStopped;
import dev.mmcheck.agent.check.FindingsView;
import dev.mmcheck.agent.check.Heap;
import dev.mmcheck.agent.check.TestBridge;
import dev.mmcheck.agent.check.LoopCounts;
import dev.mmcheck.agent.check.TraceTee;
import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.agent.output.AgentOutput;
import dev.mmcheck.agent.output.HtmlFile;
import dev.mmcheck.agent.output.JsonFile;
import dev.mmcheck.agent.output.SarifFile;
import dev.mmcheck.agent.output.SummaryFile;
import dev.mmcheck.agent.output.SummaryLog;
import dev.mmcheck.agent.output.TraceFile;
import dev.mmcheck.agent.rewrite.ClassRewriter;
import dev.mmcheck.agent.rewrite.Transformation;
import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.engine.Fault;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.report.HtmlReport;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Report;
import dev.mmcheck.checker.report.RunFacts;
import dev.mmcheck.checker.report.SarifReport;
import dev.mmcheck.checker.report.SourceRoots;
import dev.mmcheck.checker.report.Triage;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Failure;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.runtime.Contexts;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.TestHooks;
import dev.mmcheck.runtime.Sampling;
import dev.mmcheck.runtime.Schedule;
import dev.mmcheck.runtime.Solo;
import dev.mmcheck.runtime.Targets;
import dev.mmcheck.runtime.Unmodelled;
import org.slf4j.Logger;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Starts checking once the runtime is in the bootstrap class loader: configures the event log, starts
 * the checker thread, installs the transformer and the shutdown hook that drains the log completely
 * and writes the summary and the report.
 */
final class AgentStart {

    /** The stage name of the checker thread's own failures (as opposed to an analysis'). */
    static final String LOOP_STAGE = "checker-loop";

    /**
     * The exit status of a run whose check is incomplete (failOnError=true): EX_SOFTWARE of sysexits.h,
     * an internal error, chosen to stand apart from the statuses applications and test runners use.
     */
    static final int EXIT_INCOMPLETE = 70;

    /** This run's id in its report ({@code run.id}): mmcheck merge refuses two reports of one run. */
    static final String RUN_ID = java.util.UUID.randomUUID().toString();

    /** How long a pause of schedule=active lasts (docs/schedules.md). */
    static final long PAUSE_MICROS = 100;

    /** Events each thread's log holds before its thread waits for the checker. */
    static final int EVENTS_PER_THREAD = 1 << 15;

    private AgentStart() {
    }

    static void start(Options options, Instrumentation inst) throws IOException {
        FieldTable fields = new FieldTable();
        SiteTable sites = new SiteTable();
        EventLog.configure(EVENTS_PER_THREAD, options.selfCheck());
        long seed = options.seed() != null ? options.seed() : new SplittableRandom().nextLong(1L << 40);
        if (options.activeSchedule()) {
            // before any application thread has a log: each log seeds its pause generator from it
            Schedule.activate(seed, PAUSE_MICROS);
            // the access-mode analysis needs another thread's writes between two loads of a thread too: a seqlock's
            // version, then data (S52) (docs/schedules.md, rule 5; tried under PSO too, and not kept)
            Schedule.loadWindows(options.analyses().contains(Analysis.JMM));
        }
        if (options.sample() < 1) {
            Sampling.configure(options.sample(), seed, options.syncAsFences()); // before any application class is instrumented
        }
        if (options.declaresTransactions()) {
            EventLog.declareTransactions();
        }
        if (options.logEveryLoad() || options.analyses().contains(Analysis.SOBER)
                || options.analyses().contains(Analysis.JMM)) {
            // Sober's "last read" knowledge is not monotone in the reads it sees: leaving one out can add a report;
            // the jmm analysis has neither proof (a left-out acquire load would take away its ordering, and a solo
            // period's fences at its start are fences the program did not make): every load, and no solo period
            EventLog.logEveryLoad();
        }
        // after the switches it depends on: no solo period where a check needs every access, nor under sampling
        Solo.configure(options.solo());
        Targets.resolver(fields.resolver());
        // models= is exact; by default the serializability checks start with the first transaction
        // overhead= other than check runs no analysis at all, and the summary's first line says "checked with nothing"
        boolean checks = options.overhead() == Options.Layer.CHECK;
        Checker.Config config = Checker.Config.defaults()
                .withAnalyses(checks ? options.analyses() : java.util.EnumSet.noneOf(Analysis.class))
                .withMonitors(MonitorConfig.defaults().withBufferBound(options.bufferBound())
                        .withJmmAddresses(options.jmmAddresses()).withJmmValidatedReads(options.jmmValidatedReads())
                        .withJmmWriteLog(options.jmmWriteLog()))
                .withAutoSerializability(checks && !options.modelsChosen());
        String inject = options.injectFailure();
        if (inject != null && !inject.startsWith(LOOP_STAGE + "@")) {
            config = config.withFault(Fault.parse(inject));
        }
        // built in the order they depend on each other: names before the checker, which names its findings
        Heap heap = new Heap(fields);
        AgentNames names = new AgentNames(heap, sites);
        Checker checker = new Checker(names, config);
        TraceTee tee = options.traceFile() == null ? null : new TraceTee(options.traceFile(), names);
        CheckerLoop loop = new CheckerLoop(checker, heap, names, options.selfCheck(), tee,
                options.checkerMemory() > 0 ? options.checkerMemory() : Runtime.getRuntime().maxMemory() / 8,
                AgentStart::reportView);
        if (inject != null && inject.startsWith(LOOP_STAGE + "@")) {
            loop.failAt(Long.parseLong(inject.substring(LOOP_STAGE.length() + 1)));
        }
        // overhead=: how far events go (a measurement of mmcheck itself; finish() says nothing was checked)
        loop.layers(options.overhead().identifies(), checks);
        if (options.overhead() == Options.Layer.REWRITE) {
            EventLog.close(); // before any class is rewritten: every probe returns at its first test
        }
        preload(loop); // before the checker thread starts: the checker is not thread-safe
        if (options.progressSeconds() > 0) {
            java.io.PrintStream err = System.err;
            loop.reportProgress(options.progressSeconds(), err::println);
        }
        loop.start();
        TestBridge tests = new TestBridge(loop, options.trace(), options.analyses().stream()
                .map(dev.mmcheck.checker.finding.Analysis::option).collect(java.util.stream.Collectors.joining(",")));
        TestHooks.install(tests);
        Transformation.Stats stats = new Transformation.Stats();
        Transformation.install(inst, options::instruments,
                ClassRewriter.Context.of(fields, sites, options::atomic, options.checksTransactions(), options.synthetic()),
                stats);
        Logger log = AgentLog.create();
        java.io.PrintStream stderr = System.err;
        Thread hook = new Thread(() -> {
            try {
                finish(options, loop, tee, stats, sites, log, tests);
            } catch (Throwable t) {
                // the report itself failed: say so on the process's own standard error, and in the status
                try {
                    stderr.println("mmcheck: INCOMPLETE: the summary and report could not be made: " + t);
                    t.printStackTrace(stderr);
                } catch (Throwable ignored) {
                    // nothing left to print with
                }
                if (options.failOnError()) {
                    halt(EXIT_INCOMPLETE);
                }
            }
        }, "mmcheck-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        dev.mmcheck.runtime.ShutdownHooks.capture();
    }

    /** How long the agent's shutdown hook waits for the others (another agent's) before it halts. */
    static final long OTHER_HOOKS_MILLIS = 60_000;

    /**
     * Ends the JVM with {@code status}, from the agent's shutdown hook: once the application's other hooks have
     * finished ({@code OTHER_HOOKS_MILLIS} at most), since a halt ends them where they stand (JaCoCo's, writing its
     * coverage file, left it cut short).
     */
    private static void halt(int status) {
        dev.mmcheck.runtime.ShutdownHooks.awaitOthers(OTHER_HOOKS_MILLIS);
        Runtime.getRuntime().halt(status);
    }

    private static void finish(Options options, CheckerLoop loop, TraceTee tee, Transformation.Stats stats,
            SiteTable sites, Logger log, TestBridge tests) {
        EventLog.close();
        try {
            loop.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        CheckResult result = loop.checker().result();
        List<Note> stop = new ArrayList<>();
        if (loop.failure() instanceof CheckerStopped stopped) {
            stop.add(Note.incomplete(stopped.kind(), "", 1, stopped.getMessage())); // the run's doing: no stack
        } else if (loop.failure() != null) {
            result = result.withFailure(Failure.of(LOOP_STAGE, loop.failureAt(), loop.failure()));
        }
        Map<String, Long> unmodelled = Unmodelled.counts();
        LoopCounts counts = loop.counts();
        result = result.withNotes(RunEnd.first(stop, options, loop, counts, stats), RunEnd.last(counts, unmodelled));
        RunFacts run = RunEnd.facts(RUN_ID, options, counts, loop.selfCheck(), stats, sites, unmodelled);
        String source = RunName.of(System.getProperty("sun.java.command", ""), tests.testClasses());
        Triage.Outcome outcome;
        List<Finding> findings = Finding.group(result.violations());
        Map<Site, List<String>> contexts = new java.util.HashMap<>();
        for (Map.Entry<Integer, List<String>> e : Contexts.captured().entrySet()) {
            contexts.put(sites.get(e.getKey()), e.getValue());
        }
        for (Finding f : findings) {
            f.contexts(contexts);
            f.tests(loop.testsByKey().getOrDefault(f.key(), List.of()));
        }
        try {
            outcome = options.triage().apply(findings);
        } catch (IOException e) {
            result = result.withNotes(List.of(Note.incomplete("baseline", "", 0, "the baseline "
                    + options.triage().baseline() + " could not be written: " + e)), List.of());
            outcome = Triage.untriaged(result);
        }
        Report report = new Report(source, true, result, outcome, run);
        List<String> summary = new ArrayList<>(Summary.lines(report));
        summary.addAll(RunEnd.lines(run));
        if (options.fix() && tee != null) {
            // the summary's last section, from the run's trace replayed (docs/fix.md)
            RunFix.Outcome fixed = RunFix.of(options, tee);
            summary.addAll(fixed.lines());
            if (fixed.fix() != null) {
                report = report.withFix(fixed.fix());
            }
        }
        boolean written = true;
        try {
            for (AgentOutput output : outputs(options, tee)) {
                String said = output.write(report, summary);
                if (said != null) {
                    summary.add(said);
                }
            }
        } catch (IOException | RuntimeException e) {
            written = false;
            summary.add("mmcheck: INCOMPLETE: cannot write the report: " + e);
        }
        new SummaryLog(log).write(report, summary);
        if ((!result.complete() || !written) && options.failOnError()) {
            log.info("mmcheck: the check is incomplete (see the lines marked INCOMPLETE above): exit status "
                    + EXIT_INCOMPLETE + " "
                    + "(failOnError=false keeps the application's own)");
            halt(EXIT_INCOMPLETE);
        }
        if (options.failOnViolation() && outcome.failing() > 0) {
            // a test runner reports a JVM that exits with a status as a crash ("Error occurred in starting fork"):
            // one plain line on the process's standard error says it is not one
            log.info("mmcheck: failOnViolation=true: this run found " + outcome.failing() + " new findings in the "
                    + "categories of failOn=" + options.triage().failOn().stream().map(Category::label).sorted()
                            .collect(java.util.stream.Collectors.joining(":")) + ": exit status 1, on purpose, not a "
                    + "crash" + (RunName.forkedBooter(System.getProperty("sun.java.command", ""))
                            ? " (in Surefire's forks leave the decision to mmcheck merge or the plugin's check goal: "
                            + "docs/build.md, \"Forks\")" : ""));
            halt(1);
        }
    }

    /** The findings so far as the report groups and words them, for the loop's test boundaries and progress lines. */
    private static List<FindingsView.Shown> reportView(Checker checker) {
        List<FindingsView.Shown> shown = new ArrayList<>();
        // reported(), not result(): mid-run, the analyses keep what they hold back (jmm's reads awaiting a validation)
        for (Finding f : Finding.group(checker.reported())) {
            shown.add(new FindingsView.Shown() {
                @Override
                public String key() {
                    return f.key();
                }

                @Override
                public String describe(int n, String test) {
                    f.tests(List.of(test));
                    return String.join("\n", Summary.describe(f, n));
                }
            });
        }
        return shown;
    }

    /**
     * The outputs the options ask for, in the order they are written: the summary's text file first (the one a
     * test runner's user finds when the others fail), the trace, the JSON report, SARIF, HTML.
     */
    private static List<AgentOutput> outputs(Options options, TraceTee tee) {
        SummaryFile text = SummaryFile.beside(options.report());
        List<AgentOutput> outputs = new ArrayList<>(List.of(text));
        if (tee != null) {
            outputs.add(new TraceFile(tee, options.traceFile()));
        }
        outputs.add(new JsonFile(options.report(), text.file()));
        if (options.sarif() != null) {
            outputs.add(new SarifFile(options.sarif(),
                    options.sourceRoots() != null ? options.sourceRoots() : SourceRoots.conventional()));
        }
        if (options.html() != null) {
            outputs.add(new HtmlFile(options.html()));
        }
        return outputs;
    }

    /**
     * Loads what the shutdown hook needs (the run's facts, the summary, the writers, the outputs and their
     * libraries) now, by rendering the empty result once: a class that can no longer be loaded at exit (the agent
     * jar replaced under a running JVM) must not cost the report.
     */
    private static void preload(CheckerLoop loop) throws IOException {
        CheckResult empty = loop.checker().result().withFailure(Failure.of("preload", -1, new Exception()))
                .withNotes(List.of(RunEnd.unmodelledNote(Map.of("preload", 0L))), List.of());
        RunFacts facts = RunEnd.preloadFacts();
        loop.counts(); // loads the counts' record (the loop has not started: every count is 0)
        Report report = new Report("", true, empty, Triage.untriaged(empty), facts);
        Summary.lines(report);
        RunEnd.lines(facts);
        JsonReport.write(java.io.OutputStream.nullOutputStream(), report);
        JsonReport.write(java.io.OutputStream.nullOutputStream(), new Report("", true, empty, report.outcome(),
                new Report.Merged(0)));
        SarifReport.write(java.io.OutputStream.nullOutputStream(), "", true, empty, report.outcome(),
                SourceRoots.conventional());
        HtmlReport.page("", true, empty, report.outcome());
        AgentOutput[] loaded = {SummaryFile.beside(Path.of("preload.json")), new TraceFile(null, null),
            new JsonFile(null, null), new SarifFile(null, null), new HtmlFile(null), new SummaryLog(null)};
        assert loaded.length > 0; // constructed only to load their classes
    }
}
