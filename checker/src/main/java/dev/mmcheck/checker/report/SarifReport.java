package dev.mmcheck.checker.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Note;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the findings as SARIF 2.1.0, the format code-scanning services read (GitHub's
 * {@code upload-sarif}): one rule per {@link Category}, one result per finding located at its store
 * (where the fix goes) with the access and prev as related locations, a fingerprint from
 * {@link Finding#key()} so that a finding keeps its identity across edits, suppressed findings with
 * their rule's reason and baselined ones as {@code unchanged}. An incomplete check is an unsuccessful
 * invocation with its notes (docs/report-format.md, "SARIF").
 */
public final class SarifReport {

    private SarifReport() {
    }

    /** Writes the SARIF log of {@code result} of checking {@code source} to {@code file}. */
    public static void write(Path file, String source, boolean complete, CheckResult result, Triage.Outcome outcome)
            throws IOException {
        JsonReport.createParent(file);
        try (OutputStream out = Files.newOutputStream(file)) {
            write(out, source, complete, result, outcome);
        }
    }

    /** Writes the SARIF log to {@code out} (left open). */
    public static void write(OutputStream out, String source, boolean complete, CheckResult result,
            Triage.Outcome outcome) throws IOException {
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
            g.writeStringField("version", "2.1.0");
            g.writeArrayFieldStart("runs");
            g.writeStartObject();
            g.writeObjectFieldStart("tool");
            g.writeObjectFieldStart("driver");
            g.writeStringField("name", "mmcheck");
            g.writeStringField("version", Version.get());
            g.writeStringField("informationUri", "https://github.com/mmcheck/mmcheck");
            g.writeArrayFieldStart("rules");
            for (Category c : Category.values()) {
                g.writeStartObject();
                g.writeStringField("id", c.label());
                g.writeStringField("name", c.label());
                g.writeObjectFieldStart("shortDescription");
                g.writeStringField("text", shortText(c));
                g.writeEndObject();
                g.writeObjectFieldStart("fullDescription");
                g.writeStringField("text", c.explanation());
                g.writeEndObject();
                g.writeObjectFieldStart("defaultConfiguration");
                g.writeStringField("level", c.sarifLevel());
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
            invocation(g, source, complete && result.complete(), result, outcome);
            g.writeArrayFieldStart("results");
            for (Finding f : outcome.findings()) {
                result(g, f);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static String shortText(Category c) {
        return switch (c) {
            case RACE -> "A plain access that a TSO/PSO machine can reorder: the run is not sequentially consistent";
            case RELAXED -> "A release/acquire/opaque access pair the hardware may reorder, as the code allowed";
            case ATOMICITY -> "Methods declared atomic are not serializable";
        };
    }

    private static void invocation(JsonGenerator g, String source, boolean complete, CheckResult result,
            Triage.Outcome outcome) throws IOException {
        g.writeArrayFieldStart("invocations");
        g.writeStartObject();
        g.writeBooleanField("executionSuccessful", complete);
        g.writeStringField("commandLine", source);
        g.writeArrayFieldStart("toolExecutionNotifications");
        for (Failure f : result.failures()) {
            g.writeStartObject();
            g.writeStringField("level", "error");
            g.writeObjectFieldStart("message");
            g.writeStringField("text", "INCOMPLETE: " + f.describe());
            g.writeEndObject();
            g.writeEndObject();
        }
        for (Note n : result.notes()) {
            note(g, n);
        }
        for (Note n : outcome.notes()) {
            note(g, n);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
    }

    private static void note(JsonGenerator g, Note n) throws IOException {
        g.writeStartObject();
        g.writeStringField("level", n.isIncomplete() ? "error" : n.severity() == Note.Severity.DEGRADED ? "warning"
                : "note");
        g.writeObjectFieldStart("message");
        g.writeStringField("text", (n.isIncomplete() ? "INCOMPLETE: " : "") + n.text());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void result(JsonGenerator g, Finding f) throws IOException {
        Violation v = f.first();
        g.writeStartObject();
        g.writeStringField("ruleId", f.category().label());
        g.writeStringField("level", f.category().sarifLevel());
        g.writeObjectFieldStart("message");
        g.writeStringField("text", message(f));
        g.writeEndObject();
        g.writeArrayFieldStart("locations");
        if (f.isCycle()) {
            location(g, v.transactions().get(0).site(), -1, "transaction of " + v.transactions().get(0).thread());
        } else {
            location(g, v.store().site(), -1, v.store().describe());
        }
        g.writeEndArray();
        g.writeArrayFieldStart("relatedLocations");
        if (f.isCycle()) {
            for (int i = 1; i < v.transactions().size(); i++) {
                location(g, v.transactions().get(i).site(), i, "transaction of " + v.transactions().get(i).thread());
            }
        } else {
            location(g, v.access().site(), 1, "access: " + v.access().describe());
            location(g, v.prev().site(), 2, "prev: " + v.prev().describe());
            // a helper's access: the calls that reached it, where its race is the caller's
            if (v.store().site().caller() != null) {
                location(g, v.store().site().caller(), 3, "the store's helper called here");
            }
            if (v.access().site().caller() != null) {
                location(g, v.access().site().caller(), 4, "the access's helper called here");
            }
        }
        g.writeEndArray();
        g.writeObjectFieldStart("partialFingerprints");
        g.writeStringField("mmcheck/v1", f.key());
        g.writeEndObject();
        g.writeObjectFieldStart("properties");
        g.writeStringField("models", String.join(",", f.models()));
        g.writeNumberField("count", f.count());
        g.writeEndObject();
        if (f.suppressed()) {
            g.writeArrayFieldStart("suppressions");
            g.writeStartObject();
            g.writeStringField("kind", "external");
            g.writeStringField("justification", f.suppressedBy());
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeStringField("baselineState", f.baselined() ? "unchanged" : "new");
        g.writeEndObject();
    }

    private static String message(Finding f) {
        Violation v = f.first();
        if (f.isCycle()) {
            return Summary.oneLine(f) + ". " + v.advice();
        }
        return f.category().label() + " under " + String.join(", ", f.models()) + ": " + v.store().describe()
                + " can still be buffered when " + v.access().describe() + " runs, although it happens before "
                + v.prev().describe() + ". Fix: " + v.advice();
    }

    private static void location(JsonGenerator g, Site s, int id, String text) throws IOException {
        g.writeStartObject();
        if (id >= 0) {
            g.writeNumberField("id", id);
        }
        g.writeObjectFieldStart("physicalLocation");
        g.writeObjectFieldStart("artifactLocation");
        g.writeStringField("uri", uri(s));
        g.writeEndObject();
        if (s.line() > 0) {
            g.writeObjectFieldStart("region");
            g.writeNumberField("startLine", s.line());
            g.writeEndObject();
        }
        g.writeEndObject();
        if (!s.method().isEmpty()) {
            g.writeArrayFieldStart("logicalLocations");
            g.writeStartObject();
            g.writeStringField("fullyQualifiedName", s.className() + "." + s.method());
            g.writeStringField("kind", "function");
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeObjectFieldStart("message");
        g.writeStringField("text", text);
        g.writeEndObject();
        g.writeEndObject();
    }

    /** The source file's path from its package ({@code org/jctools/queues/SpscArrayQueue.java}), or its name. */
    static String uri(Site s) {
        int dot = s.className().lastIndexOf('.');
        return dot < 0 ? s.file() : s.className().substring(0, dot).replace('.', '/') + "/" + s.file();
    }
}
