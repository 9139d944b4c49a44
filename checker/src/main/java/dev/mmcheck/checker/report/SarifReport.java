package dev.mmcheck.checker.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.CycleEdge;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Failure;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.result.Violation;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Writes the findings as SARIF 2.1.0 in the subset GitHub code scanning reads ({@code upload-sarif}): one rule per
 * {@link Category} with its help and GitHub's {@code precision}, {@code problem.severity} and {@code tags}; one
 * result per new finding, located at its store (where the fix goes) under a path relative to the repository's root
 * ({@link SourceRoots}), with the access and prev as related locations its message links to, the happens-before
 * path as a code flow with one thread flow per thread, and {@link Finding#key()} as a fingerprint of our own.
 *
 * <p>Suppressed and baselined findings are left out (GitHub cannot show them as dismissed; it would open an alert
 * for each): the run's properties count them and a notification says so. GitHub's own fingerprint,
 * {@code primaryLocationLineHash}, is left to the upload action, which computes it from the file once the path
 * resolves. An incomplete check is an unsuccessful invocation with its notes (docs/report-format.md, "SARIF";
 * docs/build.md, "SARIF on GitHub").
 */
public final class SarifReport {

    /** The category part of {@code automationDetails.id}: one run of this tool per upload (GitHub, since 2025). */
    public static final String CATEGORY = "mmcheck/";

    private SarifReport() {
    }

    /** Writes the SARIF log of {@code report} to {@code file}, paths found under {@code roots}. */
    public static void write(Path file, Report report, SourceRoots roots) throws IOException {
        JsonReport.createParent(file);
        try (OutputStream out = Files.newOutputStream(file)) {
            write(out, report.source(), report.complete(), report.result(), report.outcome(), roots, report.fix());
        }
    }

    /** Writes the SARIF log of {@code result} of checking {@code source} to {@code file}, paths found under {@code roots}. */
    public static void write(Path file, String source, boolean complete, CheckResult result, Triage.Outcome outcome,
            SourceRoots roots) throws IOException {
        JsonReport.createParent(file);
        try (OutputStream out = Files.newOutputStream(file)) {
            write(out, source, complete, result, outcome, roots);
        }
    }

    /** Writes the SARIF log to {@code out} (left open). */
    public static void write(OutputStream out, String source, boolean complete, CheckResult result,
            Triage.Outcome outcome, SourceRoots roots) throws IOException {
        write(out, source, complete, result, outcome, roots, null);
    }

    /**
     * Writes the SARIF log to {@code out} (left open); each result a change of {@code fix} (null for none) removes gets
     * that change as a SARIF {@code fix} where it can be written as edits of its file ({@link FixEdits}).
     */
    public static void write(OutputStream out, String source, boolean complete, CheckResult result,
            Triage.Outcome outcome, SourceRoots roots, FixResult fix) throws IOException {
        List<Finding> shown = outcome.findings().stream().filter(Finding::isNew).toList();
        long suppressed = outcome.findings().stream().filter(Finding::suppressed).count();
        long baselined = outcome.findings().stream().filter(f -> !f.suppressed() && f.baselined()).count();
        Set<String> missing = new LinkedHashSet<>();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
            g.writeStringField("version", "2.1.0");
            g.writeArrayFieldStart("runs");
            g.writeStartObject();
            tool(g);
            g.writeObjectFieldStart("automationDetails");
            g.writeStringField("id", CATEGORY + Instant.now().truncatedTo(ChronoUnit.SECONDS));
            g.writeEndObject();
            g.writeArrayFieldStart("results");
            for (Finding f : shown) {
                new Result(g, f, roots, missing, fix).write();
            }
            g.writeEndArray();
            invocation(g, source, complete && result.complete(), result, outcome, suppressed, baselined, missing,
                    roots);
            g.writeObjectFieldStart("properties");
            g.writeNumberField("findings", outcome.findings().size());
            g.writeNumberField("suppressed", suppressed);
            g.writeNumberField("baselined", baselined);
            g.writeStringField("sourceBase", roots.base().toString());
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void tool(JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("tool");
        g.writeObjectFieldStart("driver");
        g.writeStringField("name", "mmcheck");
        g.writeStringField("version", Version.get());
        g.writeStringField("informationUri", "https://github.com/mmcheck/mmcheck");
        g.writeArrayFieldStart("rules");
        for (Category c : Category.values()) {
            g.writeStartObject();
            g.writeStringField("id", c.label());
            g.writeStringField("name", ruleName(c));
            text(g, "shortDescription", shortText(c));
            text(g, "fullDescription", c.explanation());
            g.writeObjectFieldStart("help");
            g.writeStringField("text", helpText(c));
            g.writeStringField("markdown", helpMarkdown(c));
            g.writeEndObject();
            g.writeObjectFieldStart("defaultConfiguration");
            g.writeStringField("level", c.sarifLevel());
            g.writeEndObject();
            g.writeObjectFieldStart("properties");
            // GitHub: precision orders alerts and problem.severity labels them; a race is as sure as the run
            g.writeStringField("precision", c == Category.RELAXED ? "medium" : "high");
            g.writeStringField("problem.severity", c.sarifLevel().equals("error") ? "error" : "warning");
            g.writeArrayFieldStart("tags");
            for (String t : tags(c)) {
                g.writeString(t);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void text(JsonGenerator g, String field, String text) throws IOException {
        g.writeObjectFieldStart(field);
        g.writeStringField("text", text);
        g.writeEndObject();
    }

    private static String ruleName(Category c) {
        return switch (c) {
            case RACE -> "MemoryOrderingRace";
            case RELAXED -> "RelaxedAccessReordering";
            case ATOMICITY -> "AtomicityViolation";
        };
    }

    private static List<String> tags(Category c) {
        return switch (c) {
            case RACE -> List.of("concurrency", "memory-model", "data-race", "correctness");
            case RELAXED -> List.of("concurrency", "memory-model", "access-modes");
            case ATOMICITY -> List.of("concurrency", "atomicity", "correctness");
        };
    }

    private static String shortText(Category c) {
        return switch (c) {
            case RACE -> "A plain access that a TSO/PSO machine can reorder: the run is not sequentially consistent";
            case RELAXED -> "A release/acquire/opaque access pair the hardware may reorder, as the code allowed";
            case ATOMICITY -> "Methods declared atomic are not serializable";
        };
    }

    private static String helpText(Category c) {
        return switch (c) {
            case RACE -> "The store at this line can still wait in its thread's store buffer (or be reordered by the "
                    + "compiler) when another access reads or writes memory that the program ordered after it: some "
                    + "execution on real hardware is not sequentially consistent. One side is a plain access, so it is "
                    + "also a data race under the Java memory model. Fix: make the access the message names volatile, "
                    + "use VarHandle setRelease/getAcquire, or put VarHandle.fullFence() where the message says.";
            case RELAXED -> "Both accesses use modes weaker than volatile (release, acquire, opaque), so the hardware "
                    + "may reorder them as the code allowed. Decide whether the algorithm tolerates the stale value "
                    + "(a stale index read and retried is fine; a lost wake-up is not); if not, strengthen the mode "
                    + "the message names or add the fence it names.";
            case ATOMICITY -> "Methods declared atomic interleaved in a way no serial order of them explains: the "
                    + "cycle's transactions see each other's effects in an order no one-at-a-time run gives.";
        };
    }

    private static String helpMarkdown(Category c) {
        return "**" + shortText(c) + ".**\n\n" + helpText(c)
                + "\n\nSee [categories](https://github.com/mmcheck/mmcheck/blob/main/docs/report-format.md#categories).";
    }

    private static void invocation(JsonGenerator g, String source, boolean complete, CheckResult result,
            Triage.Outcome outcome, long suppressed, long baselined, Set<String> missing, SourceRoots roots)
            throws IOException {
        g.writeArrayFieldStart("invocations");
        g.writeStartObject();
        g.writeBooleanField("executionSuccessful", complete);
        g.writeStringField("commandLine", source);
        g.writeArrayFieldStart("toolExecutionNotifications");
        for (Failure f : result.failures()) {
            notification(g, "error", "INCOMPLETE: " + f.describe());
        }
        for (Note n : result.notes()) {
            note(g, n);
        }
        for (Note n : outcome.notes()) {
            note(g, n);
        }
        if (suppressed + baselined > 0) {
            notification(g, "note", (suppressed + baselined) + " findings left out of this file (" + suppressed
                    + " suppressed, " + baselined + " baselined): code scanning would show them as open alerts; the "
                    + "JSON report lists them");
        }
        if (!missing.isEmpty()) {
            List<String> some = new ArrayList<>(missing).subList(0, Math.min(5, missing.size()));
            notification(g, "warning", missing.size() + " source files not found under the source roots " + roots.roots()
                    + " (" + String.join(", ", some) + (missing.size() > 5 ? ", ..." : "") + "): their results carry "
                    + "the package path, which code scanning cannot open; name the roots with sourceRoots= "
                    + "(agent) or --source-root (merge, replay)");
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
    }

    private static void note(JsonGenerator g, Note n) throws IOException {
        notification(g, n.isIncomplete() ? "error" : n.severity() == Note.Severity.DEGRADED ? "warning" : "note",
                (n.isIncomplete() ? "INCOMPLETE: " : "") + n.text());
    }

    private static void notification(JsonGenerator g, String level, String text) throws IOException {
        g.writeStartObject();
        g.writeStringField("level", level);
        text(g, "message", text);
        g.writeEndObject();
    }

    /** Escapes what SARIF's embedded links give a meaning in a message's plain text (§3.11.6). */
    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]");
    }

    /** {@code [text](id)}: a link from a message to the related location {@code id}. */
    private static String link(String text, int id) {
        return "[" + escape(text) + "](" + id + ")";
    }

    /** One result: its locations, message, code flow and fingerprint. */
    private static final class Result {
        private final JsonGenerator g;
        private final Finding f;
        private final SourceRoots roots;
        private final Set<String> missing;
        private final Violation v;
        private final List<String> unresolved = new ArrayList<>();
        private final FixResult fix;

        Result(JsonGenerator g, Finding f, SourceRoots roots, Set<String> missing, FixResult fix) {
            this.g = g;
            this.f = f;
            this.roots = roots;
            this.missing = missing;
            this.v = f.first();
            this.fix = fix;
        }

        /**
         * The changes of the fix chosen to remove this finding, as SARIF fixes, each where it can be written as edits
         * of its file (a line inserted or one call replaced; a VarHandle declared and the access written through it).
         */
        private void fixes() throws IOException {
            if (fix == null) {
                return;
            }
            List<List<FixEdits.Edit>> changes = new ArrayList<>();
            for (FixResult.Planned p : fix.changes()) {
                if (p.removes().contains(f.key())) {
                    List<FixEdits.Edit> edits = FixEdits.all(p.change(), roots);
                    if (!edits.isEmpty()) {
                        changes.add(edits);
                    }
                }
            }
            if (changes.isEmpty()) {
                return;
            }
            g.writeArrayFieldStart("fixes");
            for (List<FixEdits.Edit> edits : changes) {
                FixEdits.Edit first = edits.get(0);
                g.writeStartObject();
                g.writeObjectFieldStart("description");
                g.writeStringField("text", first.description());
                g.writeEndObject();
                g.writeArrayFieldStart("artifactChanges");
                Map<String, List<FixEdits.Edit>> byFile = new LinkedHashMap<>();
                for (FixEdits.Edit e : edits) {
                    byFile.computeIfAbsent(e.uri(), u -> new ArrayList<>()).add(e);
                }
                for (Map.Entry<String, List<FixEdits.Edit>> file : byFile.entrySet()) {
                    g.writeStartObject();
                    g.writeObjectFieldStart("artifactLocation");
                    g.writeStringField("uri", file.getKey());
                    g.writeEndObject();
                    g.writeArrayFieldStart("replacements");
                    for (FixEdits.Edit e : file.getValue()) {
                        g.writeStartObject();
                        g.writeObjectFieldStart("deletedRegion");
                        g.writeNumberField("startLine", e.line());
                        g.writeNumberField("startColumn", e.startColumn());
                        g.writeNumberField("endLine", e.line());
                        g.writeNumberField("endColumn", e.endColumn());
                        g.writeEndObject();
                        g.writeObjectFieldStart("insertedContent");
                        g.writeStringField("text", e.inserted());
                        g.writeEndObject();
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
        }

        void write() throws IOException {
            g.writeStartObject();
            g.writeStringField("ruleId", f.category().label());
            g.writeNumberField("ruleIndex", f.category().ordinal());
            g.writeStringField("level", f.category().sarifLevel());
            // locations are written first into a list so that the message can say which files were not found
            Site primary = f.isCycle() ? v.transactions().get(0).site() : v.store().site();
            String primaryText = f.isCycle() ? "transaction of " + v.transactions().get(0).thread() : v.store().describe();
            Map<Integer, Object[]> related = new LinkedHashMap<>();
            if (f.isCycle()) {
                for (int i = 1; i < v.transactions().size(); i++) {
                    related.put(i, new Object[] {v.transactions().get(i).site(), "transaction of "
                            + v.transactions().get(i).thread()});
                }
            } else {
                related.put(1, new Object[] {v.access().site(), "access: " + v.access().describe()});
                related.put(2, new Object[] {v.prev().site(), "prev: " + v.prev().describe()});
                // a helper's access: the calls that reached it, where its race is the caller's
                if (v.store().site().caller() != null) {
                    related.put(3, new Object[] {v.store().site().caller(), "the store's helper called here"});
                }
                if (v.access().site().caller() != null) {
                    related.put(4, new Object[] {v.access().site().caller(), "the access's helper called here"});
                }
            }
            String primaryUri = uri(primary);
            List<String> relatedUris = new ArrayList<>();
            for (Object[] r : related.values()) {
                relatedUris.add(uri((Site) r[0]));
            }
            g.writeObjectFieldStart("message");
            g.writeStringField("text", message());
            g.writeEndObject();
            g.writeArrayFieldStart("locations");
            location(primary, primaryUri, -1, primaryText);
            g.writeEndArray();
            g.writeArrayFieldStart("relatedLocations");
            int k = 0;
            for (Map.Entry<Integer, Object[]> r : related.entrySet()) {
                location((Site) r.getValue()[0], relatedUris.get(k++), r.getKey(), (String) r.getValue()[1]);
            }
            g.writeEndArray();
            codeFlows();
            fixes();
            g.writeObjectFieldStart("partialFingerprints");
            // ours, stable across edits; GitHub's primaryLocationLineHash is the upload action's to compute
            g.writeStringField("mmcheck/v1", f.key());
            g.writeEndObject();
            g.writeObjectFieldStart("properties");
            g.writeStringField("models", String.join(",", f.models()));
            g.writeNumberField("count", f.count());
            g.writeBooleanField("sourceFound", unresolved.isEmpty());
            g.writeEndObject();
            g.writeStringField("baselineState", "new");
            g.writeEndObject();
        }

        private String message() {
            String text;
            if (f.isCycle()) {
                StringBuilder b = new StringBuilder(escape(Summary.oneLine(f)) + ": the cycle runs through ");
                for (int i = 1; i < v.transactions().size(); i++) {
                    b.append(i == 1 ? "" : ", ").append(link("the transaction of " + v.transactions().get(i).thread(), i));
                }
                text = b + ". " + escape(v.advice());
            } else if (f.analyses().equals(List.of(dev.mmcheck.checker.finding.Analysis.JMM))) {
                text = escape(f.category().label() + " under " + String.join(", ", f.models()) + ": " + v.store().describe()
                        + ", which this run orders before ") + link(v.access().describe(), 1)
                        + escape(", can be missed by it under Java's access modes; the run's order reaches the access "
                        + "through ") + link(v.prev().describe(), 2) + escape(". Fix: " + v.advice());
            } else {
                text = escape(f.category().label() + " under " + String.join(", ", f.models()) + ": "
                        + v.store().describe() + " can still be buffered when ") + link(v.access().describe(), 1)
                        + escape(" runs, although it happens before ") + link(v.prev().describe(), 2)
                        + escape(". Fix: " + v.advice());
            }
            if (!unresolved.isEmpty()) {
                text += escape(" (source not found under the source roots: " + String.join(", ", unresolved)
                        + "; the path given is the package path)");
            }
            return text;
        }

        private String uri(Site s) {
            Optional<String> found = roots.find(s);
            if (found.isPresent()) {
                return found.get();
            }
            String p = SourceRoots.packagePath(s);
            if (!unresolved.contains(p)) {
                unresolved.add(p);
            }
            missing.add(p);
            return p;
        }

        private void location(Site s, String uri, int id, String text) throws IOException {
            g.writeStartObject();
            if (id >= 0) {
                g.writeNumberField("id", id);
            }
            physical(s, uri);
            if (!s.method().isEmpty()) {
                g.writeArrayFieldStart("logicalLocations");
                g.writeStartObject();
                g.writeStringField("fullyQualifiedName", s.className() + "." + s.method());
                g.writeStringField("kind", "function");
                g.writeEndObject();
                g.writeEndArray();
            }
            text(g, "message", text);
            g.writeEndObject();
        }

        private void physical(Site s, String uri) throws IOException {
            g.writeObjectFieldStart("physicalLocation");
            g.writeObjectFieldStart("artifactLocation");
            g.writeStringField("uri", uri);
            g.writeEndObject();
            if (s.line() > 0) {
                g.writeObjectFieldStart("region");
                g.writeNumberField("startLine", s.line());
                g.writeEndObject();
            }
            g.writeEndObject();
        }

        /** The events in the run's order, one thread flow per thread: the path from the store to prev, then the access; a cycle's edges. */
        private void codeFlows() throws IOException {
            List<EventInfo> order = new ArrayList<>();
            if (f.isCycle()) {
                for (CycleEdge e : v.edges()) {
                    order.add(e.source());
                    order.add(e.target());
                }
            } else {
                order.addAll(v.runOrder());
            }
            Map<String, List<Integer>> byThread = new LinkedHashMap<>();
            for (int i = 0; i < order.size(); i++) {
                byThread.computeIfAbsent(order.get(i).thread(), t -> new ArrayList<>()).add(i);
            }
            g.writeArrayFieldStart("codeFlows");
            g.writeStartObject();
            text(g, "message", f.isCycle() ? "the conflicting events of the cycle's edges, by thread"
                    : v.path() != null ? "the happens-before path from the store to prev, then the access, by thread"
                    : "the store, prev and the access, by thread (" + v.pathNote() + ")");
            g.writeArrayFieldStart("threadFlows");
            for (Map.Entry<String, List<Integer>> t : byThread.entrySet()) {
                g.writeStartObject();
                g.writeStringField("id", t.getKey());
                text(g, "message", "thread " + t.getKey());
                g.writeArrayFieldStart("locations");
                for (int i : t.getValue()) {
                    EventInfo e = order.get(i);
                    g.writeStartObject();
                    g.writeObjectFieldStart("location");
                    physical(e.site(), uri(e.site()));
                    String role = role(order, i);
                    text(g, "message", role + ": " + e.describe());
                    g.writeEndObject();
                    g.writeNumberField("executionOrder", i);
                    g.writeStringField("importance", role.equals("step") ? "important" : "essential");
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
        }

        /** What the {@code i}th event of the flow is: store, step, prev, access; a cycle's source or target. */
        private String role(List<EventInfo> order, int i) {
            if (f.isCycle()) {
                return order.get(i).role();
            }
            return i == 0 ? "store" : i == order.size() - 1 ? "access" : i == order.size() - 2 ? "prev" : "step";
        }
    }
}
