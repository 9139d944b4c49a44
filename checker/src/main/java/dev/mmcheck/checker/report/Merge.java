package dev.mmcheck.checker.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.CycleEdge;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Failure;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.result.TxInfo;
import dev.mmcheck.checker.result.Violation;

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
 * array reached: {@link Finding#race}) or cycle ({@link Finding#cycle}) from several reports is one finding whose
 * counts per analysis are added, whose tests and calling contexts are listed together, and whose text names
 * objects only as its first report did (object numbers are per JVM: another report's prev events are shown without
 * them); failures and notes are kept, each note prefixed by the report it came from (the forks' own triage notes
 * left out: the merge decides, {@link #decide}); the result is complete only when every report was. The same
 * report given twice (the same file, the same run id) is refused; two reports with identical contents are merged
 * with a warning. Written again as JSON, SARIF or HTML by the usual writers.
 */
public final class Merge {

    /** The notes of a fork's own triage, which the merge's triage replaces. */
    private static final Set<String> TRIAGE_NOTES = Set.of("suppression-unused", "suppression-unused-here", "baseline",
            "baseline-written", "baseline-not-written", "baseline-without-callers");

    /** Caller chains kept per side of a finding, as the agent keeps per site. */
    private static final int CONTEXTS = 3;

    /** A report that cannot be read, or one given twice: the message names the file and what is wrong. */
    public static final class MergeException extends Exception {
        private static final long serialVersionUID = 1L;

        MergeException(String message) {
            super(message);
        }
    }

    /**
     * The merged result and the findings, with their tests.
     *
     * @param warnings what the merge itself has to say loudly (identical reports, rules the forks used that the
     *                 merge was not given), one line each, also among the result's notes
     * @param rules    the suppression rules (as written) the reports were triaged with in their JVMs
     */
    public record Merged(CheckResult result, List<Finding> findings, boolean complete, int reports,
            List<String> warnings, Set<String> rules) {
    }

    /**
     * The decision on merged reports: the findings triaged once, on all of them, and the exit status.
     *
     * @param status 0 nothing new in a failing category and complete, 1 new findings in a failing category, 3
     *               nothing failing but a report was incomplete
     */
    public record Decision(Merged merged, Triage.Outcome outcome, int status) {
    }

    private Merge() {
    }

    /**
     * Merges {@code reports} and decides on the merged findings with {@code triage} (suppression rules, baseline,
     * failOn: {@link Triage#load}, the same parsing and matching as the agent's {@code suppress=}, {@code baseline=},
     * {@code failOn=}), writing the baseline when it does not exist yet. What {@code mmcheck merge} does, and what a
     * build plugin's check goal calls.
     */
    public static Decision decide(List<Path> reports, Triage triage) throws MergeException, IOException {
        return decide(of(reports), triage);
    }

    /** {@link #decide(List, Triage)} on reports already merged ({@link #of}). */
    public static Decision decide(Merged m, Triage triage) throws IOException {
        Triage.Outcome outcome = triage.apply(m.findings());
        if (triage.rules().isEmpty() && !m.rules().isEmpty()) {
            String w = "the reports were triaged in their JVMs with " + m.rules().size() + " suppression rules ("
                    + String.join("; ", m.rules()) + ") but this merge was given none: pass the same file with "
                    + "--suppress, or the findings they accepted fail here";
            List<String> warnings = new ArrayList<>(m.warnings());
            warnings.add(w);
            m = new Merged(m.result().withNotes(List.of(), List.of(Note.info("suppressions-not-given", "", m.rules()
                    .size(), w))), m.findings(), m.complete(), m.reports(), List.copyOf(warnings), m.rules());
        }
        int status = outcome.failing() > 0 ? 1 : m.complete() && m.result().complete() ? 0 : 3;
        return new Decision(m, outcome, status);
    }

    /** Reads and merges {@code reports}. */
    public static Merged of(List<Path> reports) throws MergeException {
        ObjectMapper json = new ObjectMapper();
        Set<Analysis> analyses = EnumSet.noneOf(Analysis.class);
        List<Violation> violations = new ArrayList<>();
        Map<Violation, Integer> origin = new java.util.IdentityHashMap<>();
        List<Note> notes = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Set<String> rules = new LinkedHashSet<>();
        Map<Object, Set<String>> tests = new LinkedHashMap<>();
        Map<Object, List<Set<String>>> contexts = new LinkedHashMap<>();
        Map<Analysis, Long> forced = new EnumMap<>(Analysis.class);
        Map<Path, Path> files = new LinkedHashMap<>();
        Map<String, Path> runIds = new LinkedHashMap<>();
        Map<String, Path> contents = new LinkedHashMap<>();
        long events = 0;
        long transactions = 0;
        int threads = 0;
        boolean complete = true;
        for (int index = 0; index < reports.size(); index++) {
            Path file = reports.get(index);
            Path real;
            byte[] bytes;
            try {
                real = file.toRealPath();
                bytes = java.nio.file.Files.readAllBytes(file);
            } catch (IOException e) {
                throw new MergeException(file + ": cannot be read (" + e + ")");
            }
            Path twice = files.putIfAbsent(real, file);
            if (twice != null) {
                throw new MergeException(file + ": given twice (as " + twice + "): each report is merged once");
            }
            JsonNode r;
            try {
                r = json.readTree(bytes);
            } catch (IOException e) {
                throw new MergeException(file + ": not a readable JSON report (" + e.getMessage().lines().findFirst()
                        .orElse("") + ")");
            }
            if (r == null || !"mmcheck".equals(r.path("tool").asText()) || !r.has("violations")) {
                throw new MergeException(file + ": not an mmcheck report (no \"tool\": \"mmcheck\" and \"violations\")");
            }
            String id = r.path("run").path("id").asText("");
            if (!id.isEmpty() && runIds.containsKey(id)) {
                throw new MergeException(file + ": the same run as " + runIds.get(id) + " (run id " + id + "): a report "
                        + "copied or given twice; each run is merged once");
            }
            runIds.put(id.isEmpty() ? "" + index : id, file);
            String digest = digest(bytes);
            Path same = contents.putIfAbsent(digest, file);
            if (same != null) {
                String w = file + " has the same contents as " + same + ": merged twice, its counts count twice (a "
                        + "stale or copied report?)";
                warnings.add(w);
                notes.add(Note.info("same-report", "", 1, w));
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
                if (TRIAGE_NOTES.contains(n.path("kind").asText())) {
                    continue; // the merge triages again, on every report's findings
                }
                Note.Severity severity = Note.Severity.valueOf(n.path("severity").asText("info").toUpperCase(Locale.ROOT));
                notes.add(new Note(severity, n.path("kind").asText(), n.path("analysis").asText(""),
                        n.path("count").asLong(), from + ": " + n.path("text").asText()));
            }
            r.path("suppressions").forEach(s -> rules.add(s.path("text").asText()));
            for (JsonNode v : r.path("violations")) {
                List<Violation> read = violations(file, v);
                for (Violation x : read) {
                    origin.put(x, index);
                }
                violations.addAll(read);
                Object key = key(read.get(0));
                Set<String> named = new LinkedHashSet<>();
                v.path("tests").forEach(t -> named.add(t.asText()));
                tests.computeIfAbsent(key, k -> new LinkedHashSet<>()).addAll(named);
                List<Set<String>> chains = contexts.computeIfAbsent(key, k -> List.of(new LinkedHashSet<>(),
                        new LinkedHashSet<>()));
                v.path("contexts").path("store").forEach(c -> chains.get(0).add(c.asText()));
                v.path("contexts").path("access").forEach(c -> chains.get(1).add(c.asText()));
            }
        }
        // object numbers are one JVM's: a finding shows them only as its first report named them
        List<Finding> grouped = Finding.group(violations, true);
        Map<Violation, Violation> renamed = new java.util.IdentityHashMap<>();
        for (Finding f : grouped) {
            int first = origin.get(f.first());
            for (Violation v : f.violations()) {
                if (origin.get(v) != first) {
                    renamed.put(v, withoutObjects(v));
                }
            }
        }
        List<Violation> shown = new ArrayList<>();
        for (Violation v : violations) {
            shown.add(renamed.getOrDefault(v, v));
        }
        CheckResult result = new CheckResult(analyses, events, shown, forced, 0, 0, threads, notes, transactions,
                failures);
        List<Finding> findings = Finding.group(shown, true);
        for (Finding f : findings) {
            Set<String> t = new LinkedHashSet<>();
            for (Violation v : f.violations()) {
                t.addAll(tests.getOrDefault(key(v), Set.of()));
            }
            f.tests(new ArrayList<>(t));
            List<Set<String>> chains = contexts.get(key(f.first()));
            if (chains != null) {
                f.contexts(chains.get(0).stream().limit(CONTEXTS).toList(), chains.get(1).stream().limit(CONTEXTS)
                        .toList());
            }
        }
        return new Merged(result, findings, complete, reports.size(), List.copyOf(warnings), rules);
    }

    /** The key {@link Finding#group} groups by across runs. */
    private static Object key(Violation v) {
        return v.isCycle() ? Finding.cycle(v) : Finding.race(v);
    }

    /** {@code v} with every event's field named without its object ({@code Node#3.next} as {@code Node.next}). */
    private static Violation withoutObjects(Violation v) {
        if (v.isCycle()) {
            List<CycleEdge> edges = new ArrayList<>();
            for (CycleEdge e : v.edges()) {
                edges.add(new CycleEdge(e.from(), e.to(), e.kind(), withoutObject(e.source()), withoutObject(e.target()),
                        e.late()));
            }
            Violation w = new Violation(v.kind(), v.analysis(), v.transactions(), edges, v.advice(), v.firstSeq());
            w.seenMore(v.count() - 1);
            return w;
        }
        List<EventInfo> events = new ArrayList<>();
        for (EventInfo e : v.events()) {
            events.add(withoutObject(e));
        }
        List<EventInfo> path = null;
        if (v.path() != null) {
            path = new ArrayList<>();
            for (EventInfo e : v.path()) {
                path.add(withoutObject(e));
            }
        }
        Violation w = new Violation(v.kind(), v.analysis(), events, path, v.pathNote(), v.advice(), v.firstSeq());
        w.seenMore(v.count() - 1);
        return w;
    }

    private static EventInfo withoutObject(EventInfo e) {
        return new EventInfo(e.role(), e.thread(), e.op(), e.site(),
                dev.mmcheck.checker.event.Names.withoutObject(e.field()));
    }

    private static String digest(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
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
