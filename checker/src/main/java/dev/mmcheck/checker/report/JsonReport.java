package dev.mmcheck.checker.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.fix.Change;
import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.CycleEdge;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Failure;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.result.TxInfo;
import dev.mmcheck.checker.result.Violation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the JSON report (docs/report-format.md):
 *
 * <pre>
 * {"tool":"mmcheck","version":..,"source":..,"events":N,"complete":true,"analyses":["tso","pso"],
 *  "notes":[..],"stats":{..},
 *  "violations":[{"kind":"sc-violation","model":"TSO","analysis":"tso","count":N,
 *     "events":[{"role":"store"|"prev"|"access","thread":..,"op":..,"class":..,"method":..,
 *                "file":..,"line":..,"field":..}, ..],
 *     "path":[..same fields, role "step"..],"advice":".."},
 *   {"kind":"sc-serializability"|"tso-serializability","model":"SC"|"TSO","analysis":"scser"|"tsoser","count":N,
 *     "transactions":[{"index":0,"thread":..,"atomic":true,"class":..,"method":..,"file":..,"line":..}, ..],
 *     "edges":[{"from":0,"to":1,"kind":"program-order"|"conflict"|"conflict-observed"|"conflict-late",
 *               "late":"source"|"target" (conflict-late only),"events":[{"role":"source",..},{"role":"target",..}]}, ..],
 *     "advice":".."}]}
 * </pre>
 */
public final class JsonReport {

    private JsonReport() {
    }

    /** Writes the report for {@code result} of reading {@code source} to {@code file}, untriaged, no run object. */
    public static void write(Path file, String source, boolean complete, CheckResult result) throws IOException {
        write(file, Report.untriaged(source, complete, result));
    }

    /** Writes {@code report} to {@code file}, creating its directory. */
    public static void write(Path file, Report report) throws IOException {
        createParent(file);
        try (OutputStream out = Files.newOutputStream(file)) {
            write(out, report);
        }
    }

    /** Creates the directory {@code file} goes in, if it does not exist yet (report=target/mmcheck/%p.json). */
    static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    /** Writes the report to {@code out} (left open), untriaged, no run object. */
    public static void write(OutputStream out, String source, boolean complete, CheckResult result) throws IOException {
        write(out, Report.untriaged(source, complete, result));
    }

    /** Writes {@code report} to {@code out} (left open). */
    public static void write(OutputStream out, Report report) throws IOException {
        String source = report.source();
        CheckResult result = report.result();
        Triage.Outcome outcome = report.outcome();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("tool", "mmcheck");
            g.writeStringField("version", Version.get());
            g.writeStringField("source", source);
            g.writeNumberField("events", result.events());
            g.writeBooleanField("complete", report.completeCheck());
            g.writeArrayFieldStart("analyses");
            for (Analysis a : result.analyses()) {
                g.writeString(a.option());
            }
            g.writeEndArray();
            g.writeArrayFieldStart("failures");
            for (Failure f : result.failures()) {
                g.writeStartObject();
                g.writeStringField("stage", f.stage());
                g.writeNumberField("event", f.event());
                g.writeStringField("exception", f.exception());
                g.writeArrayFieldStart("stack");
                for (String frame : f.stack()) {
                    g.writeString(frame);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("notes");
            List<Note> notes = new ArrayList<>(result.notes());
            notes.addAll(outcome.notes());
            for (Note n : notes) {
                g.writeStartObject();
                g.writeStringField("severity", n.severity().name().toLowerCase(java.util.Locale.ROOT));
                g.writeStringField("kind", n.kind());
                if (!n.analysis().isEmpty()) {
                    g.writeStringField("analysis", n.analysis());
                }
                g.writeNumberField("count", n.count());
                g.writeStringField("text", n.text());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeObjectFieldStart("stats");
            g.writeNumberField("threads", result.threads());
            g.writeNumberField("clockResets", result.clockResets());
            g.writeObjectFieldStart("forcedCommits");
            for (Map.Entry<Analysis, Long> e : result.forcedCommits().entrySet()) {
                g.writeNumberField(e.getKey().option(), e.getValue());
            }
            g.writeEndObject();
            g.writeNumberField("soberTruncatedScans", result.soberTruncatedScans());
            g.writeNumberField("transactions", result.transactions());
            g.writeEndObject();
            if (report.run() != null) {
                g.writeObjectFieldStart("run");
                run(g, report.run());
                g.writeEndObject();
            }
            if (report.fix() != null) {
                g.writeObjectFieldStart("fix");
                fix(g, report.fix());
                g.writeEndObject();
            }
            g.writeObjectFieldStart("findings");
            g.writeNumberField("total", outcome.findings().size());
            for (Category c : Category.values()) {
                g.writeNumberField(c.label(), outcome.findings().stream().filter(f -> f.category() == c).count());
            }
            g.writeNumberField("suppressed", outcome.findings().stream().filter(Finding::suppressed).count());
            g.writeNumberField("baselined", outcome.findings().stream().filter(f -> !f.suppressed() && f.baselined())
                    .count());
            g.writeNumberField("failing", outcome.failing());
            g.writeEndObject();
            if (!outcome.used().isEmpty()) {
                g.writeArrayFieldStart("suppressions");
                for (Map.Entry<Triage.Rule, Integer> e : outcome.used().entrySet()) {
                    g.writeStartObject();
                    g.writeStringField("rule", e.getKey().where());
                    g.writeStringField("text", e.getKey().text());
                    g.writeStringField("reason", e.getKey().reason());
                    g.writeNumberField("matched", e.getValue());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeArrayFieldStart("violations");
            for (Finding f : outcome.findings()) {
                Violation v = f.first();
                g.writeStartObject();
                g.writeStringField("kind", v.kind());
                g.writeStringField("category", f.category().label());
                g.writeArrayFieldStart("models");
                for (String m : f.models()) {
                    g.writeString(m);
                }
                g.writeEndArray();
                g.writeArrayFieldStart("analyses");
                for (Analysis a : f.analyses()) {
                    g.writeString(a.option());
                }
                g.writeEndArray();
                g.writeStringField("model", v.model());
                g.writeStringField("analysis", v.analysis().option());
                g.writeNumberField("count", f.count());
                g.writeObjectFieldStart("counts");
                for (Map.Entry<Analysis, Long> e : f.counts().entrySet()) {
                    g.writeNumberField(e.getKey().option(), e.getValue());
                }
                g.writeEndObject();
                g.writeStringField("key", f.key());
                if (f.suppressed()) {
                    g.writeStringField("suppressedBy", f.suppressedBy());
                }
                g.writeBooleanField("baselined", f.baselined());
                if (!f.tests().isEmpty()) {
                    g.writeArrayFieldStart("tests");
                    for (String t : f.tests()) {
                        g.writeString(t);
                    }
                    g.writeEndArray();
                }
                if (v.isCycle()) {
                    cycle(g, v);
                    g.writeStringField("advice", v.advice());
                    g.writeEndObject();
                    continue;
                }
                g.writeArrayFieldStart("events");
                for (EventInfo e : v.events()) {
                    event(g, e);
                }
                g.writeEndArray();
                if (v.path() != null) {
                    g.writeArrayFieldStart("path");
                    for (EventInfo e : v.path()) {
                        event(g, e);
                    }
                    g.writeEndArray();
                } else {
                    g.writeStringField("pathNote", v.pathNote());
                }
                if (!f.storeContexts().isEmpty() || !f.accessContexts().isEmpty()) {
                    g.writeObjectFieldStart("contexts");
                    g.writeArrayFieldStart("store");
                    for (String c : f.storeContexts()) {
                        g.writeString(c);
                    }
                    g.writeEndArray();
                    g.writeArrayFieldStart("access");
                    for (String c : f.accessContexts()) {
                        g.writeString(c);
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                }
                g.writeArrayFieldStart("examples");
                for (Finding.Example e : f.examples()) {
                    g.writeStartObject();
                    g.writeNumberField("count", e.count());
                    g.writeFieldName("prev");
                    event(g, e.prev());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeStringField("advice", v.advice());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    /** Writes the fields of the {@code run} object, in the order docs/report-format.md lists them. */
    /**
     * The lines of the {@code fix} object of the report in {@code file} (the agent's fix=true), none when it has none
     * or cannot be read: the Maven plugin's check goal prints each fork's (fixes are not merged).
     */
    public static List<String> fixLines(Path file) {
        List<String> out = new ArrayList<>();
        try {
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile()).path("fix").path("lines")
                    .forEach(l -> out.add(l.asText()));
        } catch (IOException e) {
            // a report Merge accepted but whose fix cannot be read has no fix to print
        }
        return out;
    }

    /** The fix's fields (docs/report-format.md, "fix"). */
    private static void fix(JsonGenerator g, FixResult fix) throws IOException {
        g.writeNumberField("runs", fix.runs());
        g.writeArrayFieldStart("models");
        for (Analysis a : fix.models()) {
            g.writeString(a.option());
        }
        g.writeEndArray();
        g.writeNumberField("findings", fix.findings().size());
        g.writeBooleanField("proven", fix.findings().isEmpty() || fix.proven());
        g.writeBooleanField("exact", fix.exact());
        g.writeNumberField("cost", fix.cost());
        g.writeNumberField("candidates", fix.candidates());
        g.writeNumberField("rounds", fix.rounds());
        g.writeNumberField("replays", fix.replays());
        g.writeArrayFieldStart("changes");
        for (FixResult.Planned p : fix.changes()) {
            Change c = p.change();
            Site at = c.site().caller() != null && c.kind().insertsFence() ? c.site().caller() : c.site();
            g.writeStartObject();
            g.writeStringField("file", at.file());
            g.writeNumberField("line", at.line());
            g.writeStringField("kind", c.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            g.writeStringField("field", c.field());
            g.writeStringField("text", c.what());
            g.writeNumberField("executions", p.executions());
            g.writeNumberField("cost", p.cost());
            g.writeArrayFieldStart("removes");
            for (String key : p.removes()) {
                g.writeString(key);
            }
            g.writeEndArray();
            g.writeNumberField("back", p.back());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("remaining");
        for (Finding f : fix.remaining()) {
            g.writeString(f.key());
        }
        g.writeEndArray();
        g.writeArrayFieldStart("lines");
        for (String line : fix.lines()) {
            g.writeString(line);
        }
        g.writeEndArray();
    }

    private static void run(JsonGenerator g, Report.Run run) throws IOException {
        if (run instanceof Report.Merged m) {
            g.writeNumberField("reports", m.reports());
        } else {
            facts(g, (RunFacts) run);
        }
    }

    private static void facts(JsonGenerator g, RunFacts r) throws IOException {
        g.writeStringField("id", r.id());
        RunFacts.Events e = r.events();
        g.writeNumberField("eventsProduced", e.produced());
        g.writeNumberField("eventsConsumed", e.consumed());
        g.writeNumberField("eventsUnchecked", e.unchecked());
        g.writeNumberField("eventsAdded", e.added());
        g.writeNumberField("threadBegins", e.threadBegins());
        RunFacts.CheckerThread c = r.checker();
        g.writeNumberField("checkerCpuMillis", c.cpuMillis());
        g.writeNumberField("objectsTracked", c.objectsTracked());
        g.writeNumberField("addressesTracked", c.addressesTracked());
        g.writeNumberField("backPressureWaits", c.backPressureWaits());
        RunFacts.Classes k = r.classes();
        g.writeNumberField("classesInstrumented", k.instrumented());
        g.writeNumberField("classesFailed", k.failed());
        g.writeNumberField("sites", k.sites());
        RunFacts.Accesses a = r.accesses();
        g.writeNumberField("unresolvedAccessors", a.unresolvedAccessors());
        g.writeNumberField("unloggedHandleAccesses", a.unloggedHandleAccesses());
        g.writeNumberField("nestedAccesses", a.nested());
        counts(g, "unmodelledCalls", a.unmodelledCalls());
        g.writeNumberField("repeatedLoadsLeftOut", a.repeatedLoadsLeftOut());
        g.writeNumberField("storeStoreFencesLeftOut", a.storeStoreFencesLeftOut());
        RunFacts.Solo s = r.solo();
        g.writeStringField("solo", s.state());
        g.writeNumberField("soloPeriods", s.periods());
        g.writeNumberField("soloAccessesLeftOut", s.accessesLeftOut());
        counts(g, "soloEndedBy", s.endedBy());
        g.writeNumberField("soloClaimMillis", s.claimMillis());
        g.writeNumberField("soloRingFed", s.ringFed());
        g.writeNumberField("soloRingDropped", s.ringDropped());
        g.writeNumberField("soloRingDroppedAlone", s.ringDroppedAlone());
        g.writeNumberField("soloUnseenStarts", s.unseenStarts());
        g.writeNumberField("soloClaimsUnfenced", s.claimsUnfenced());
        counts(g, "soloBusyTogether", s.busyTogether());
        g.writeStringField("overhead", r.overhead());
        g.writeStringField("schedule", r.schedule());
        RunFacts.Sampling p = r.sampling();
        g.writeNumberField("sample", p.sample()); // a fraction, not a count
        g.writeStringField("sampleSync", p.sync());
        g.writeNumberField("syncAccessesAsFences", p.syncAccessesAsFences());
        if (p.seed() != null) {
            g.writeNumberField("sampleSeed", p.seed());
        }
        if (r.active() != null) {
            RunFacts.ActiveSchedule x = r.active();
            g.writeNumberField("seed", x.seed());
            g.writeNumberField("pauses", x.pauses());
            g.writeNumberField("pausedMillis", x.pausedMillis());
            g.writeNumberField("pausesOverBudget", x.pausesOverBudget());
            g.writeNumberField("pausesAlone", x.pausesAlone());
            g.writeNumberField("pausesTogether", x.pausesTogether());
        }
        if (r.selfCheck() != null) {
            g.writeNumberField("selfCheckReads", r.selfCheck().reads());
            g.writeNumberField("selfCheckMismatches", r.selfCheck().mismatches());
        }
    }

    /** Writes {@code counts} as an object, keys in the map's order (run.soloEndedBy: most first). */
    private static void counts(JsonGenerator g, String name, Map<String, Long> counts) throws IOException {
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    private static void cycle(JsonGenerator g, Violation v) throws IOException {
        g.writeArrayFieldStart("transactions");
        int i = 0;
        for (TxInfo x : v.transactions()) {
            g.writeStartObject();
            g.writeNumberField("index", i++);
            g.writeStringField("thread", x.thread());
            g.writeBooleanField("atomic", x.atomic());
            g.writeStringField("class", x.site().className());
            g.writeStringField("method", x.site().method());
            g.writeStringField("file", x.site().file());
            g.writeNumberField("line", x.site().line());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("edges");
        for (CycleEdge e : v.edges()) {
            g.writeStartObject();
            g.writeNumberField("from", e.from());
            g.writeNumberField("to", e.to());
            g.writeStringField("kind", e.kind());
            if (!e.late().isEmpty()) {
                g.writeStringField("late", e.late());
            }
            g.writeArrayFieldStart("events");
            event(g, e.source());
            event(g, e.target());
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void event(JsonGenerator g, EventInfo e) throws IOException {
        g.writeStartObject();
        g.writeStringField("role", e.role());
        g.writeStringField("thread", e.thread());
        g.writeStringField("op", e.op());
        g.writeStringField("class", e.site().className());
        g.writeStringField("method", e.site().method());
        g.writeStringField("file", e.site().file());
        g.writeNumberField("line", e.site().line());
        g.writeStringField("field", e.field());
        g.writeStringField("mode", Category.mode(e));
        Site caller = e.site().caller();
        if (caller != null) {
            g.writeObjectFieldStart("caller");
            g.writeStringField("class", caller.className());
            g.writeStringField("method", caller.method());
            g.writeStringField("file", caller.file());
            g.writeNumberField("line", caller.line());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** The text of {@link #write(OutputStream, String, boolean, CheckResult)}, for tests. */
    public static String toString(String source, boolean complete, CheckResult result) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        write(b, source, complete, result);
        return b.toString(StandardCharsets.UTF_8);
    }
}
