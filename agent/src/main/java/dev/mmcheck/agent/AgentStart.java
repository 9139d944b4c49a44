package dev.mmcheck.agent;

import dev.mmcheck.checker.engine.CheckResult;
import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Targets;
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

/**
 * Starts checking once the runtime is on the bootstrap class path: configures the event log, starts
 * the checker thread, installs the transformer and the shutdown hook that drains the log completely
 * and writes the summary and the report.
 */
final class AgentStart {

    /** Events each thread's log holds before its thread waits for the checker. */
    static final int EVENTS_PER_THREAD = 1 << 15;

    private AgentStart() {
    }

    static void start(Options options, Instrumentation inst) throws IOException {
        FieldTable fields = new FieldTable();
        SiteTable sites = new SiteTable();
        EventLog.configure(EVENTS_PER_THREAD, options.selfCheck());
        if (options.declaresTransactions()) {
            EventLog.declareTransactions();
        }
        Targets.resolver(fields::resolve);
        // models= is exact; by default the serializability checks start with the first transaction
        Checker.Config config = Checker.Config.defaults().withAnalyses(options.analyses())
                .withMonitors(MonitorConfig.defaults()).withAutoSerializability(!options.modelsChosen());
        TraceTee[] tee = new TraceTee[1];
        EventSink traceSink = options.trace() == null ? null : (k, t, o, s) -> tee[0].event(k, t, o, s);
        CheckerLoop loop = new CheckerLoop(config, fields, sites, options.selfCheck(), traceSink, Checker::new);
        if (options.trace() != null) {
            tee[0] = new TraceTee(options.trace(), loop);
        }
        loop.start();
        Transformation.Stats stats = new Transformation.Stats();
        Transformation.install(inst, options, new ClassRewriter.Context() {
            @Override
            public FieldTable fields() {
                return fields;
            }

            @Override
            public SiteTable sites() {
                return sites;
            }

            @Override
            public boolean atomicByOption(String className, String method) {
                return options.atomic(className, method);
            }

            @Override
            public boolean transactions() {
                return options.checksTransactions();
            }
        }, stats);
        Logger log = AgentLog.create();
        Thread hook = new Thread(() -> finish(options, loop, tee[0], stats, sites, log), "mmcheck-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private static void finish(Options options, CheckerLoop loop, TraceTee tee, Transformation.Stats stats,
            SiteTable sites, Logger log) {
        EventLog.close();
        try {
            loop.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        CheckResult r = loop.checker().result();
        List<String> notes = new ArrayList<>(r.notes());
        long produced = loop.produced();
        long consumed = loop.consumed();
        if (loop.failure() != null) {
            notes.add(0, "the checker thread failed and checking stopped there: " + loop.failure());
        }
        if (produced != consumed) {
            notes.add(0, "events produced (" + produced + ") and consumed (" + consumed + ") differ");
        }
        if (stats.failed.get() > 0) {
            notes.add(stats.failed.get() + " classes could not be instrumented and ran unchecked: "
                    + String.join("; ", stats.failures()));
        }
        if (loop.stripesHeldAtExit() > 0) {
            notes.add(loop.stripesHeldAtExit() + " address stripes were still held by running threads 2 s after the "
                    + "log closed at exit: the accesses they bracket may be unlogged");
        }
        if (loop.nestedAccesses() > 0) {
            notes.add(loop.nestedAccesses() + " accesses ran inside another access's probes (unforeseen code between "
                    + "a lock probe and its log probe) and were not logged");
        }
        if (Targets.unresolved() > 0) {
            notes.add(Targets.unresolved() + " accesses through field updaters, VarHandles or Unsafe offsets whose "
                    + "creation was not seen were checked under an address of their own");
        }
        SelfCheck self = loop.selfCheck();
        if (self != null && self.mismatches() > 0) {
            notes.add(0, "self-check: " + self.mismatches() + " of " + self.reads() + " reads returned a value other "
                    + "than the checker's order implies; first: " + String.join("; ", self.examples()));
        }
        CheckResult result = r.withNotes(notes);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("eventsProduced", produced);
        run.put("eventsConsumed", consumed);
        run.put("backPressureWaits", loop.backPressureWaits());
        run.put("classesInstrumented", stats.instrumented.get());
        run.put("classesFailed", stats.failed.get());
        run.put("sites", sites.size());
        run.put("unresolvedAccessors", Targets.unresolved());
        run.put("nestedAccesses", loop.nestedAccesses());
        if (self != null) {
            run.put("selfCheckReads", self.reads());
            run.put("selfCheckMismatches", self.mismatches());
        }
        String source = System.getProperty("sun.java.command", "the JVM");
        List<String> summary = new ArrayList<>(Summary.lines(source, result));
        summary.add("mmcheck: events produced " + produced + ", consumed " + consumed
                + (self == null ? "" : ", self-check " + self.reads() + " reads, " + self.mismatches() + " mismatches"));
        for (String line : summary) {
            log.info(line);
        }
        try {
            // the summary as a file too: a test runner may not show what a JVM prints as it exits
            Path text = summaryPath(options.report());
            Files.write(text, summary, StandardCharsets.UTF_8);
            if (tee != null) {
                tee.close();
                log.info("mmcheck: trace written to {}", options.trace());
            }
            JsonReport.write(options.report(), source, true, result, run);
            log.info("mmcheck: report written to {} (summary: {})", options.report(), text);
        } catch (IOException e) {
            log.error("mmcheck: cannot write the report: {}", e.toString());
        }
        if (options.failOnViolation() && !result.violations().isEmpty()) {
            log.info("mmcheck: failOnViolation=true: exit status 1");
            Runtime.getRuntime().halt(1);
        }
    }

    /** Where the text summary goes: beside the JSON report, {@code .json} replaced by {@code .txt}. */
    static Path summaryPath(Path report) {
        String name = report.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return report.resolveSibling(base + ".txt");
    }
}
