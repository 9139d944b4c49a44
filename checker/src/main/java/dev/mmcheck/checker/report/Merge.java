package dev.mmcheck.checker.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code mmcheck merge}: JSON reports of several JVMs (forks, machines, nightly runs) read back and
 * combined into one result: the same race (store site and access site, each with its caller, and the field or
 * array reached: {@link Finding#race}) or cycle from several reports is one finding whose counts per analysis are added and whose tests are listed together; failures and
 * notes are kept, each note prefixed by the report it came from; the result is complete only when
 * every report was. Written again as JSON, SARIF or HTML by the usual writers.
 */
public final class Merge {

    /** A report that cannot be read: the message names the file and what is wrong. */
    public static final class MergeException extends Exception {
        private static final long serialVersionUID = 1L;

        MergeException(String message) {
            super(message);
        }
    }

    /** The merged result and the findings, with their tests. */
    public record Merged(CheckResult result, List<Finding> findings, boolean complete, int reports) {
    }

    private Merge() {
    }

    /** Reads and merges {@code reports}. */
    public static Merged of(List<Path> reports) throws MergeException {
        ObjectMapper json = new ObjectMapper();
        Set<Analysis> analyses = EnumSet.noneOf(Analysis.class);
        List<Violation> violations = new ArrayList<>();
        List<Note> notes = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        Map<Object, Set<String>> tests = new LinkedHashMap<>();
        Map<Analysis, Long> forced = new EnumMap<>(Analysis.class);
        long events = 0;
        long transactions = 0;
        int threads = 0;
        boolean complete = true;
        for (Path file : reports) {
            JsonNode r;
            try {
                r = json.readTree(file.toFile());
            } catch (IOException e) {
                throw new MergeException(file + ": not a readable JSON report (" + e.getMessage().lines().findFirst()
                        .orElse("") + ")");
            }
            if (r == null || !"mmcheck".equals(r.path("tool").asText()) || !r.has("violations")) {
                throw new MergeException(file + ": not an mmcheck report (no \"tool\": \"mmcheck\" and \"violations\")");
            }
            String from = file.getFileName().toString();
            complete &= r.path("complete").asBoolean(false);
            events += r.path("events").asLong();
            threads += r.path("stats").path("threads").asInt();
            transactions += r.path("stats").path("transactions").asLong();
            r.path("stats").path("forcedCommits").fields().forEachRemaining(e -> {
                Analysis a = Analysis.parse(e.getKey());
                if (a != null) {
                    forced.merge(a, e.getValue().asLong(), Long::sum);
                }
            });
            for (JsonNode a : r.path("analyses")) {
                Analysis parsed = Analysis.parse(a.asText());
                if (parsed != null) {
                    analyses.add(parsed);
                }
            }
            for (JsonNode f : r.path("failures")) {
                List<String> stack = new ArrayList<>();
                f.path("stack").forEach(s -> stack.add(s.asText()));
                failures.add(new Failure(f.path("stage").asText(), f.path("event").asLong(),
                        from + ": " + f.path("exception").asText(), stack));
            }
            for (JsonNode n : r.path("notes")) {
                Note.Severity severity = Note.Severity.valueOf(n.path("severity").asText("info").toUpperCase(Locale.ROOT));
                notes.add(new Note(severity, n.path("kind").asText(), n.path("analysis").asText(""),
                        n.path("count").asLong(), from + ": " + n.path("text").asText()));
            }
            for (JsonNode v : r.path("violations")) {
                List<Violation> read = violations(file, v);
                violations.addAll(read);
                Set<String> named = new LinkedHashSet<>();
                v.path("tests").forEach(t -> named.add(t.asText()));
                tests.computeIfAbsent(key(read.get(0)), k -> new LinkedHashSet<>()).addAll(named);
            }
        }
        CheckResult result = new CheckResult(analyses, events, violations, forced, 0, 0, threads, notes, transactions,
                failures);
        List<Finding> findings = Finding.group(violations);
        for (Finding f : findings) {
            Set<String> t = new LinkedHashSet<>();
            for (Violation v : f.violations()) {
                t.addAll(tests.getOrDefault(key(v), Set.of()));
            }
            f.tests(new ArrayList<>(t));
        }
        return new Merged(result, findings, complete, reports.size());
    }

    /** The key {@link Finding#group} groups by. */
    private static Object key(Violation v) {
        return v.isCycle() ? Finding.group(List.of(v)).get(0).key() : Finding.race(v);
    }

    /** One entry of a report as violations: one per analysis with its count, one more per further prev seen. */
    private static List<Violation> violations(Path file, JsonNode v) throws MergeException {
        List<Violation> out = new ArrayList<>();
        String kind = v.path("kind").asText();
        String advice = v.path("advice").asText();
        JsonNode counts = v.path("counts");
        List<Analysis> analyses = new ArrayList<>();
        v.path("analyses").forEach(a -> {
            Analysis parsed = Analysis.parse(a.asText());
            if (parsed != null) {
                analyses.add(parsed);
            }
        });
        if (analyses.isEmpty()) {
            Analysis one = Analysis.parse(v.path("analysis").asText());
            if (one == null) {
                throw new MergeException(file + ": a violation without a known analysis");
            }
            analyses.add(one);
        }
        for (Analysis a : analyses) {
            long count = counts.has(a.option()) ? counts.get(a.option()).asLong() : v.path("count").asLong(1);
            Violation made;
            if (v.has("transactions")) {
                List<TxInfo> txs = new ArrayList<>();
                v.path("transactions").forEach(x -> txs.add(new TxInfo(x.path("thread").asText(), site(x, ""),
                        x.path("atomic").asBoolean())));
                List<CycleEdge> edges = new ArrayList<>();
                for (JsonNode e : v.path("edges")) {
                    edges.add(new CycleEdge(e.path("from").asInt(), e.path("to").asInt(), e.path("kind").asText(),
                            event(e.path("events").get(0)), event(e.path("events").get(1)), e.path("late").asText("")));
                }
                made = new Violation(kind, a, txs, edges, advice, 0);
            } else {
                List<EventInfo> events = new ArrayList<>();
                v.path("events").forEach(e -> events.add(event(e)));
                if (events.size() != 3) {
                    throw new MergeException(file + ": a store-buffer violation needs store, prev and access events");
                }
                List<EventInfo> path = null;
                if (v.has("path")) {
                    path = new ArrayList<>();
                    for (JsonNode e : v.path("path")) {
                        path.add(event(e));
                    }
                }
                made = new Violation(kind, a, events, path, v.path("pathNote").asText(""), advice, 0);
                // the other prev events it was seen with, as their own violations (counted under the first analysis)
                JsonNode examples = v.path("examples");
                for (int k = 1; k < examples.size() && a == analyses.get(0); k++) {
                    Violation ex = new Violation(kind, a, List.of(events.get(0), event(examples.get(k).path("prev")),
                            events.get(2)), null, "", advice, 0);
                    ex.seenMore(examples.get(k).path("count").asLong(1) - 1);
                    out.add(ex);
                }
            }
            made.seenMore(count - 1);
            out.add(0, made);
        }
        return out;
    }

    private static Site site(JsonNode e, String op) {
        Site caller = null;
        JsonNode c = e.path("caller");
        if (c.isObject()) {
            caller = new Site(c.path("class").asText(""), c.path("method").asText(""), c.path("file").asText(""),
                    c.path("line").asInt(), -1);
        }
        return new Site(e.path("class").asText(""), e.path("method").asText(""), e.path("file").asText(""),
                e.path("line").asInt(), -1, Category.siteMode(op, e.path("mode").asText("")), caller);
    }

    private static EventInfo event(JsonNode e) {
        return new EventInfo(e.path("role").asText(), e.path("thread").asText(), e.path("op").asText(),
                site(e, e.path("op").asText()),
                e.path("field").asText(""));
    }
}
