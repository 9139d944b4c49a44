package dev.mmcheck.agent;

import dev.mmcheck.agent.check.AgentNames;
import dev.mmcheck.agent.check.CheckerLoop;
import dev.mmcheck.agent.check.FindingsView;
import dev.mmcheck.agent.check.Heap;
import dev.mmcheck.agent.check.SelfCheck;
import dev.mmcheck.agent.check.TestBridge;
import dev.mmcheck.agent.check.TraceTee;
import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.agent.rewrite.ClassRewriter;
import dev.mmcheck.agent.rewrite.Transformation;
import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.engine.Fault;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.report.HtmlReport;
import dev.mmcheck.checker.report.JsonReport;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    private static String plain(double r) {
        return new java.math.BigDecimal(Double.toString(r)).stripTrailingZeros().toPlainString();
    }

    private static String percent(double r) {
        return new java.math.BigDecimal(r * 100).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString() + "%";
    }

    static void start(Options options, Instrumentation inst) throws IOException {
        FieldTable fields = new FieldTable();
        SiteTable sites = new SiteTable();
        EventLog.configure(EVENTS_PER_THREAD, options.selfCheck());
        long seed = options.seed() != null ? options.seed() : new SplittableRandom().nextLong(1L << 40);
        if (options.activeSchedule()) {
            // before any application thread has a log: each log seeds its pause generator from it
            Schedule.activate(seed, PAUSE_MICROS);
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
                        .withJmmAddresses(options.jmmAddresses())).withAutoSerializability(checks && !options.modelsChosen());
        String inject = options.injectFailure();
        if (inject != null && !inject.startsWith(LOOP_STAGE + "@")) {
            config = config.withFault(Fault.parse(inject));
        }
        // built in the order they depend on each other: names before the checker, which names its findings
        Heap heap = new Heap(fields);
        AgentNames names = new AgentNames(heap, sites);
        Checker checker = new Checker(names, config);
        TraceTee tee = options.trace() == null ? null : new TraceTee(options.trace(), names);
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
        TestBridge tests = new TestBridge(loop, options.trace() == null ? null : "mmcheck replay "
                + options.trace().toAbsolutePath() + " --models " + options.analyses().stream()
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
        long produced = loop.produced();
        long consumed = loop.consumed();
        SelfCheck self = loop.selfCheck();
        CheckResult result = loop.checker().result();
        List<Note> first = new ArrayList<>();
        if (loop.failure() instanceof CheckerLoop.Stopped stopped) {
            first.add(Note.incomplete(stopped.kind(), "", 1, stopped.getMessage())); // the run's doing: no stack
        } else if (loop.failure() != null) {
            result = result.withFailure(Failure.of(LOOP_STAGE, loop.failureAt(), loop.failure()));
        }
        if (loop.failure() != null) {
            first.add(Note.incomplete("checker-stopped", "", loop.unchecked(), "checking stopped after "
                    + loop.failureAt() + " events: the " + loop.unchecked() + " events after them were drained "
                    + "(the application did not wait) but not checked"));
        }
        if (produced != consumed) {
            first.add(Note.incomplete("events-lost", "", Math.abs(produced - consumed), "events produced ("
                    + produced + ") and consumed (" + consumed + ") differ: some events were not checked"));
        }
        if (self != null && self.mismatches() > 0) {
            first.add(Note.incomplete("self-check", "", self.mismatches(), "self-check: " + self.mismatches()
                    + " of " + self.reads() + " reads returned a value other than the checker's order implies, "
                    + "so the order the checker saw is not the run's; first: " + String.join("; ", self.examples())));
        }
        if (stats.failed.get() > 0) {
            first.add(Note.incomplete("classes-failed", "", stats.failed.get(), stats.failed.get()
                    + " classes could not be instrumented and ran unchecked (exclude them with excludes= to "
                    + "accept that): " + String.join("; ", stats.failures())));
        }
        if (loop.stripesHeldAtExit() > 0) {
            first.add(Note.incomplete("unlogged-at-exit", "", loop.stripesHeldAtExit(), loop.stripesHeldAtExit()
                    + " address stripes were still held by running threads 2 s after the log closed at exit: "
                    + "the accesses they bracket may be unlogged"));
        }
        if (loop.nestedAccesses() > 0) {
            first.add(Note.incomplete("nested-accesses", "", loop.nestedAccesses(), loop.nestedAccesses()
                    + " accesses ran inside another access's probes (unforeseen code between a lock probe and "
                    + "its log probe) and were not logged"));
        }
        if (Targets.unloggedHandles() > 0) {
            first.add(Note.incomplete("unlogged-handles", "", Targets.unloggedHandles(), Targets.unloggedHandles()
                    + " accesses through VarHandles whose target could not be determined (a handle with adapted "
                    + "coordinates or that the JDK cannot describe, a call shape the probes do not model, a buffer "
                    + "view whose memory could not be told) were not logged, so not checked (exclude the classes "
                    + "that use them with "
                    + "excludes= to accept that: docs/agent.md)"));
        }
        if (options.overhead() != Options.Layer.CHECK) {
            first.add(Note.incomplete("overhead", "", 0, "NOTHING CHECKED: overhead=" + options.overhead().value
                    + " measures mmcheck's own cost " + switch (options.overhead()) {
                        case REWRITE -> "of running the rewritten classes, with every probe returning at its first test "
                                + "(nothing logged)";
                        case LOG -> "of logging every event and taking the events in order on the checker thread "
                                + "(no address ids, no analysis)";
                        default -> "up to giving each accessed address its id on the checker thread (no analysis)";
                    } + "; leave overhead= out to check (docs/performance.md)"));
        }
        if (options.sample() < 1) {
            // a reduced check the user asked for: said in the first lines, as a bound reached is
            first.add(Note.degraded("sampled", "pso", 0, "SAMPLED run (sample=" + plain(options.sample()) + "): plain "
                    + "accesses logged on about " + percent(options.sample()) + " of the objects (seed "
                    + Sampling.seed() + "), " + (options.syncAsFences()
                            ? "static fields on all, synchronization whole on the objects drawn and on the others only as "
                            + "the fences it makes (sync=fences)"
                            : "synchronization and static fields on all") + ", checked under PSO only; "
                    + "races on the objects not drawn are not seen (docs/sampling.md)"));
        }
        List<Note> last = new ArrayList<>();
        Map<String, Long> unmodelled = Unmodelled.counts();
        if (!unmodelled.isEmpty()) {
            last.add(unmodelledNote(unmodelled));
        }
        if (Targets.unresolved() > 0) {
            last.add(Note.degraded("unresolved-accessors", "", Targets.unresolved(), Targets.unresolved()
                    + " accesses through field updaters or Unsafe offsets that could not be resolved to a field "
                    + "were checked under an address of their own: conflicts between them and direct accesses to "
                    + "the same field are not seen"));
        }
        long dropped = loop.total(CheckerLoop.Count.RING_DROPPED);
        if (dropped > 0) {
            last.add(Note.degraded("solo-ring", "", dropped, dropped + " accesses left out in solo periods were not kept "
                    + "for their period's hand-over: a thread kept only its newest " + dev.mmcheck.runtime.ThreadLog.RING + " since its "
                    + "last fence, so a violation whose store came before those, with no fence after it, may be missed "
                    + "(solo=off checks every access: docs/agent.md, \"What a period keeps\")"));
        }
        if (Solo.stoppedByVirtualThreads()) {
            last.add(Note.info("solo-virtual-threads", "", 0, "solo periods stopped at the first virtual thread (their "
                    + "hand-over could wait on a parked virtual thread; docs/agent.md, \"Virtual threads\"): every "
                    + "access from then on was logged"));
        }
        if (Solo.unseenStarts() > 0) {
            last.add(Note.degraded("solo-unseen-start", "", Solo.unseenStarts(), Solo.unseenStarts() + " threads that no "
                    + "probe saw start (the JDK's or the JVM's: a cleaner's, a finalizer's, a timer's) began while another "
                    + "thread ran alone as the only thread with a log and had left out more than its hand-over ring holds: "
                    + "a violation of such a thread against a store the other made before its ring's entries, with no "
                    + "fence after it, may be missed (solo=off checks it: docs/agent.md, \"What a period keeps\")"));
        }
        result = result.withNotes(first, last);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("id", RUN_ID); // mmcheck merge refuses two reports of one run
        run.put("eventsProduced", produced);
        run.put("eventsConsumed", consumed);
        run.put("eventsUnchecked", loop.unchecked());
        run.put("eventsAdded", loop.added());
        run.put("threadBegins", loop.begins());
        run.put("checkerCpuMillis", loop.cpuMillis());
        run.put("objectsTracked", loop.objectsTracked());
        run.put("addressesTracked", loop.addressesTracked());
        run.put("backPressureWaits", loop.backPressureWaits());
        run.put("classesInstrumented", stats.instrumented.get());
        run.put("classesFailed", stats.failed.get());
        run.put("sites", sites.size());
        run.put("unresolvedAccessors", Targets.unresolved());
        run.put("unloggedHandleAccesses", Targets.unloggedHandles());
        run.put("nestedAccesses", loop.nestedAccesses());
        run.put("unmodelledCalls", unmodelled);
        run.put("repeatedLoadsLeftOut", loop.loadsLeftOut());
        run.put("storeStoreFencesLeftOut", loop.total(CheckerLoop.Count.FENCES_LEFT_OUT));
        run.put("solo", options.solo() && (Solo.enabled() || loop.soloGrants() > 0) ? "on" : "off");
        run.put("soloPeriods", loop.soloGrants());
        run.put("soloAccessesLeftOut", loop.total(CheckerLoop.Count.SOLO_LEFT_OUT));
        run.put("soloEndedBy", loop.soloEndedBy(10));
        run.put("soloClaimMillis", loop.soloClaimMillis());
        run.put("soloRingFed", loop.soloRingFed());
        run.put("soloRingDropped", loop.total(CheckerLoop.Count.RING_DROPPED));
        run.put("soloRingDroppedAlone", loop.total(CheckerLoop.Count.RING_DROPPED_ALONE));
        run.put("soloUnseenStarts", Solo.unseenStarts());
        run.put("soloClaimsUnfenced", loop.soloClaimsUnfenced());
        run.put("soloBusyTogether", loop.soloBusyTogether(10));
        run.put("overhead", options.overhead().value);
        run.put("schedule", options.activeSchedule() ? "active" : "os");
        run.put("sample", options.sample());
        run.put("sampleSync", options.sample() < 1 && options.syncAsFences() ? "fences" : "addresses");
        run.put("syncAccessesAsFences", loop.syncAsFences());
        if (options.sample() < 1) {
            run.put("sampleSeed", Sampling.seed());
        }
        if (options.activeSchedule()) {
            run.put("seed", Schedule.seed());
            run.put("pauses", loop.total(CheckerLoop.Count.PAUSES));
            run.put("pausedMillis", loop.total(CheckerLoop.Count.PAUSED_NANOS) / 1_000_000);
            run.put("pausesOverBudget", loop.total(CheckerLoop.Count.PAUSES_OVER_BUDGET));
            run.put("pausesAlone", loop.total(CheckerLoop.Count.PAUSES_ALONE));
        }
        if (self != null) {
            run.put("selfCheckReads", self.reads());
            run.put("selfCheckMismatches", self.mismatches());
        }
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
        List<String> summary = new ArrayList<>(Summary.lines(source, result, outcome));
        summary.add(options.activeSchedule()
                ? "mmcheck: schedule active, seed " + Schedule.seed() + " (seed=" + Schedule.seed() + " repeats its "
                        + "choices), " + loop.total(CheckerLoop.Count.PAUSES) + " pauses, "
                        + loop.total(CheckerLoop.Count.PAUSED_NANOS) / 1_000_000 + " ms paused"
                : "mmcheck: schedule os (no pauses)");
        summary.add("mmcheck: events produced " + produced + ", consumed " + consumed + ", repeated loads left out "
                + loop.loadsLeftOut()
                + (options.solo() && (Solo.enabled() || loop.soloGrants() > 0) ? ", accesses of threads running alone left out "
                        + loop.total(CheckerLoop.Count.SOLO_LEFT_OUT) + " (" + loop.soloGrants() + " solo periods)" : "")
                + (self == null ? "" : ", self-check " + self.reads() + " reads, " + self.mismatches() + " mismatches"));
        boolean written = true;
        try {
            // the summary as a file too: a test runner may not show what a JVM prints as it exits
            Path text = summaryPath(options.report());
            Path parent = text.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent); // report=target/mmcheck/%p.json: the directory may not exist yet
            }
            Files.write(text, summary, StandardCharsets.UTF_8);
            if (tee != null) {
                tee.close();
                summary.add("mmcheck: trace written to " + options.trace());
            }
            JsonReport.write(options.report(), source, true, result, run, outcome);
            summary.add("mmcheck: report written to " + options.report() + " (summary: " + text + ")");
            if (options.sarif() != null) {
                SarifReport.write(options.sarif(), source, true, result, outcome,
                        options.sourceRoots() != null ? options.sourceRoots() : SourceRoots.conventional());
                summary.add("mmcheck: SARIF written to " + options.sarif());
            }
            if (options.html() != null) {
                HtmlReport.write(options.html(), source, true, result, outcome);
                summary.add("mmcheck: HTML written to " + options.html());
            }
        } catch (IOException | RuntimeException e) {
            written = false;
            summary.add("mmcheck: INCOMPLETE: cannot write the report: " + e);
        }
        for (String line : summary) {
            log.info(line);
        }
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

    /**
     * Loads what the shutdown hook needs (the summary, the JSON writer and their libraries) now, by
     * rendering the empty result once: a class that can no longer be loaded at exit (the agent jar
     * replaced under a running JVM) must not cost the report.
     */
    /** The findings so far as the report groups and words them, for the loop's test boundaries and progress lines. */
    private static List<FindingsView.Shown> reportView(Checker checker) {
        List<FindingsView.Shown> shown = new ArrayList<>();
        for (Finding f : Finding.group(checker.result().violations())) {
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

    private static void preload(CheckerLoop loop) throws IOException {
        CheckResult empty = loop.checker().result().withFailure(Failure.of("preload", -1, new Exception()))
                .withNotes(List.of(Note.info("preload", "", 0, "")), List.of());
        Triage.Outcome outcome = Triage.untriaged(empty);
        Summary.lines("", empty, outcome);
        JsonReport.write(java.io.OutputStream.nullOutputStream(), "", true, empty, Map.of("preload", 0), outcome);
        SarifReport.write(java.io.OutputStream.nullOutputStream(), "", true, empty, outcome, SourceRoots.conventional());
        HtmlReport.page("", true, empty, outcome);
    }

    /**
     * The note naming the calls into JDK methods that may synchronize and that mmcheck does not model, each treated
     * as a full fence of its thread (docs/mapping.md): a fence can only hide a finding, so a user who sees a
     * method here that matters to the code under test knows which model to ask for.
     */
    static Note unmodelledNote(Map<String, Long> counts) {
        long total = 0;
        List<String> named = new ArrayList<>();
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            total += e.getValue();
            if (named.size() < 10) {
                named.add(e.getKey() + " x " + String.format(java.util.Locale.ROOT, "%,d", e.getValue()));
            }
        }
        String more = counts.size() > named.size() ? " and " + (counts.size() - named.size()) + " more" : "";
        return Note.degraded("unmodelled-calls", "", total, "calls into JDK methods mmcheck does not model, treated as "
                + "full fences: " + String.join(", ", named) + more + " (a fence can only hide a finding around the "
                + "call, never make one; docs/mapping.md, \"The JDK's memory-relevant methods\")");
    }

    /** Where the text summary goes: beside the JSON report, {@code .json} replaced by {@code .txt}. */
    static Path summaryPath(Path report) {
        String name = report.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return report.resolveSibling(base + ".txt");
    }
}
