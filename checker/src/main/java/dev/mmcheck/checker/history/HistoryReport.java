package dev.mmcheck.checker.history;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link HistoryResult}: the text summary {@code mmcheck check-history} prints, and the JSON
 * report (docs/history.md, "The JSON report").
 */
public final class HistoryReport {

    private static final int SHOW_PER_VARIABLE = 8;
    private static final int SHOW_TOTAL = 24;

    private HistoryReport() {
    }

    /** The text summary, one line per element. */
    public static List<String> lines(HistoryResult r) {
        History h = r.history();
        List<String> out = new ArrayList<>();
        int reads = h.size() - h.writeCount();
        out.add("history " + h.source() + ": " + h.threads() + " thread" + plural(h.threads()) + ", " + h.size()
                + " operation" + plural(h.size()) + " (" + h.writeCount() + " write" + plural(h.writeCount()) + ", "
                + reads + " read" + plural(reads) + "), " + h.vars() + " variable" + plural(h.vars())
                + (h.timed() ? ", with times" : ", no times"));
        if (!r.criteria().isEmpty()) {
            StringBuilder c = new StringBuilder("criteria:");
            for (Map.Entry<Criterion, Boolean> e : r.criteria().entrySet()) {
                c.append(' ').append(e.getKey().label()).append(e.getValue() ? " yes," : " no,");
            }
            c.setLength(c.length() - 1);
            out.add(c.toString());
        }
        for (Verdict v : new Verdict[] {r.sc(), r.tso()}) {
            if (v != null) {
                verdict(out, h, v);
            }
        }
        HistoryResult.Stats s = r.stats();
        StringBuilder st = new StringBuilder("stages: " + s.writePairs() + " same-variable write pair"
                + plural(s.writePairs()));
        if (s.pwwUnordered() >= 0 && s.writePairs() > 0) {
            st.append(String.format(Locale.ROOT, ", pww leaves %d unordered (%.1f%%)", s.pwwUnordered(),
                    s.pwwUnorderedPercent()));
        }
        if (s.wpwwUnordered() >= 0 && s.writePairs() > 0) {
            st.append(String.format(Locale.ROOT, ", wpww leaves %d unordered (%.1f%%)", s.wpwwUnordered(),
                    s.wpwwUnorderedPercent()));
        }
        if (s.hbRounds() > 0) {
            st.append(String.format(Locale.ROOT, "; fixpoint rounds %d (hb) and %d (wCCM); polynomial stages %.1f ms",
                    s.hbRounds(), s.whbRounds(), (s.ccmNanos() + s.wccmNanos()) / 1e6));
        }
        out.add(st.toString());
        return out;
    }

    private static void verdict(List<String> out, History h, Verdict v) {
        String what = v.outcome() == Verdict.Outcome.CONSISTENT ? "consistent"
                : v.outcome() == Verdict.Outcome.INCONSISTENT ? "inconsistent" : "undecided (search budget spent)";
        StringBuilder line = new StringBuilder(v.model() + (v.timed() ? " (with times): " : ": ") + what
                + " (decided by " + v.stage());
        SearchStats s = v.search();
        if (s != null) {
            line.append(String.format(Locale.ROOT, ": %d frontier%s explored, %d choice point%s, %d backtrack%s, "
                    + "pruned %d by cycles, %d by time, %d inactive; %s%.1f ms", s.placements(), plural(s.placements()),
                    s.decisions(), plural(s.decisions()), s.backtracks(), plural(s.backtracks()), s.prunedCycle(),
                    s.prunedTime(), s.prunedInactive(), s.restarts() == 0 ? "" : s.restarts() + " restart"
                    + plural(s.restarts()) + "; ", s.nanos() / 1e6));
        }
        line.append(')');
        out.add(line.toString());
        if (v.storeOrder() != null) {
            out.add("  store order (a witness):");
            for (int x = 0; x < v.storeOrder().size(); x++) {
                int[] seq = v.storeOrder().get(x);
                StringBuilder b = new StringBuilder("    " + h.varName(x) + ": " + h.initName(x));
                for (int i = 0; i < seq.length && i < SHOW_PER_VARIABLE; i++) {
                    b.append(", ").append(h.name(seq[i]));
                }
                if (seq.length > SHOW_PER_VARIABLE) {
                    b.append(", ... (").append(seq.length - SHOW_PER_VARIABLE).append(" more)");
                }
                out.add(b.toString());
            }
        }
        if (v.totalOrder() != null) {
            StringBuilder b = new StringBuilder("  total order (an SC execution):");
            int[] t = v.totalOrder();
            for (int i = 0; i < t.length && i < SHOW_TOTAL; i++) {
                b.append(i == 0 ? " " : ", ").append(h.name(t[i]));
            }
            if (t.length > SHOW_TOTAL) {
                b.append(", ... (").append(t.length - SHOW_TOTAL).append(" more; all in --report)");
            }
            out.add(b.toString());
        }
        if (v.explanation() != null) {
            long[] rc = v.timed() ? TimeOrder.relaxedCommit(h, v.model() == Model.TSO) : null;
            explanation(out, h, v.explanation(), "  ", rc);
        }
    }

    private static void explanation(List<String> out, History h, Explanation e, String indent, long[] rc) {
        explanation(out, h, e, indent, indent, rc);
    }

    private static void explanation(List<String> out, History h, Explanation e, String first, String indent,
            long[] rc) {
        out.add(first + e.claim() + (e.cycle() != null || !e.cases().isEmpty() ? ":" : ""));
        if (e.cycle() != null) {
            for (Edge ed : e.cycle()) {
                out.add(indent + "    " + h.name(ed.from()) + " --" + ed.kind().label() + "--> " + h.name(ed.to())
                        + note(h, ed, rc) + lines(h, ed));
            }
        }
        for (Explanation c : e.cases()) {
            explanation(out, h, c, indent + "  - ", indent + "    ", rc);
        }
    }

    private static String lines(History h, Edge e) {
        int a = h.op(e.from()).line();
        int b = h.op(e.to()).line();
        return a > 0 && b > 0 ? "   [lines " + a + " -> " + b + "]" : "";
    }

    /** What justifies an edge, in words (empty for plain program order and write-read edges). */
    static String note(History h, Edge e, long[] rc) {
        switch (e.kind()) {
            case RW:
                if (e.via() == History.INIT) {
                    return "   (reads the initial value of " + h.varName(h.op(e.from()).var()) + ")";
                }
                return "   (reads " + h.name(e.via()) + ", which the store order puts before " + h.name(e.to()) + ")";
            case WW_FORCED:
                if (e.via() >= 0) {
                    return "   (forced: the first happens before " + h.name(e.via()) + ", which reads the second)";
                }
                return "   (forced: the first happens before the second)";
            case WW:
                return "   (in the store order being tried)";
            case WW_TIME:
                if (rc == null) {
                    return "   (forced by the times)";
                }
                if (e.via() >= 0) {
                    return "   (forced by the times: the first ends at " + rc[e.from()] + " (relaxed), before "
                            + h.name(e.via()) + ", which reads the second, is issued at " + h.op(e.via()).issue() + ")";
                }
                return "   (forced by the times: the first ends at " + rc[e.from()] + " (relaxed), before the second "
                        + "is issued at " + h.op(e.to()).issue() + ")";
            case RT:
                if (rc != null) {
                    return "   (relaxed commit " + rc[e.from()] + " <= issue " + h.op(e.to()).issue() + ")";
                }
                return "   (relaxed time order)";
            default:
                return "";
        }
    }

    /** Writes the JSON report of {@code r} to {@code file}. */
    public static void write(Path file, HistoryResult r) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream o = Files.newOutputStream(file)) {
            write(o, r);
        }
    }

    /** Writes the JSON report of {@code r} to {@code out} (left open). */
    public static void write(OutputStream out, HistoryResult r) throws IOException {
        History h = r.history();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("tool", "mmcheck");
            g.writeStringField("version", dev.mmcheck.checker.report.Version.get());
            g.writeStringField("command", "check-history");
            g.writeStringField("source", h.source());
            g.writeNumberField("threads", h.threads());
            g.writeNumberField("operations", h.size());
            g.writeNumberField("writes", h.writeCount());
            g.writeNumberField("variables", h.vars());
            g.writeBooleanField("timed", h.timed());
            g.writeObjectFieldStart("criteria");
            for (Map.Entry<Criterion, Boolean> e : r.criteria().entrySet()) {
                g.writeObjectFieldStart(e.getKey().label());
                g.writeBooleanField("holds", e.getValue());
                Explanation why = r.whyNot().get(e.getKey());
                if (why != null) {
                    g.writeFieldName("explanation");
                    explanation(g, h, why, null);
                }
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeObjectFieldStart("models");
            for (Verdict v : new Verdict[] {r.sc(), r.tso()}) {
                if (v != null) {
                    g.writeFieldName(v.model().name());
                    verdict(g, h, v);
                }
            }
            g.writeEndObject();
            HistoryResult.Stats s = r.stats();
            g.writeObjectFieldStart("stats");
            g.writeNumberField("writePairs", s.writePairs());
            g.writeNumberField("pwwUnordered", s.pwwUnordered());
            g.writeNumberField("wpwwUnordered", s.wpwwUnordered());
            g.writeNumberField("hbRounds", s.hbRounds());
            g.writeNumberField("wccmRounds", s.whbRounds());
            g.writeNumberField("ccmMillis", s.ccmNanos() / 1e6);
            g.writeNumberField("wccmMillis", s.wccmNanos() / 1e6);
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    private static void verdict(JsonGenerator g, History h, Verdict v) throws IOException {
        g.writeStartObject();
        g.writeBooleanField("consistent", v.consistent());
        g.writeStringField("outcome", v.outcome().name().toLowerCase(Locale.ROOT));
        g.writeBooleanField("timed", v.timed());
        g.writeStringField("stage", v.stage());
        if (v.storeOrder() != null) {
            g.writeObjectFieldStart("storeOrder");
            for (int x = 0; x < v.storeOrder().size(); x++) {
                g.writeArrayFieldStart(h.varName(x));
                for (int w : v.storeOrder().get(x)) {
                    g.writeString(ref(h, w));
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        if (v.totalOrder() != null) {
            g.writeArrayFieldStart("totalOrder");
            for (int id : v.totalOrder()) {
                g.writeString(ref(h, id));
            }
            g.writeEndArray();
        }
        if (v.explanation() != null) {
            g.writeFieldName("explanation");
            explanation(g, h, v.explanation(), v.timed() ? TimeOrder.relaxedCommit(h, v.model() == Model.TSO) : null);
        }
        SearchStats s = v.search();
        if (s != null) {
            g.writeObjectFieldStart("search");
            g.writeNumberField("frontiers", s.placements());
            g.writeNumberField("candidates", s.tried());
            g.writeNumberField("choicePoints", s.decisions());
            g.writeNumberField("backtracks", s.backtracks());
            g.writeNumberField("prunedByCycle", s.prunedCycle());
            g.writeNumberField("prunedByTime", s.prunedTime());
            g.writeNumberField("prunedInactive", s.prunedInactive());
            g.writeNumberField("maxDepth", s.maxDepth());
            g.writeNumberField("restarts", s.restarts());
            g.writeNumberField("millis", s.nanos() / 1e6);
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void explanation(JsonGenerator g, History h, Explanation e, long[] rc) throws IOException {
        g.writeStartObject();
        g.writeStringField("claim", e.claim());
        if (e.cycle() != null) {
            g.writeArrayFieldStart("cycle");
            for (Edge ed : e.cycle()) {
                g.writeStartObject();
                g.writeFieldName("from");
                op(g, h, ed.from());
                g.writeFieldName("to");
                op(g, h, ed.to());
                g.writeStringField("kind", ed.kind() == EdgeKind.WW_FORCED ? "ww-forced"
                        : ed.kind() == EdgeKind.WW_TIME ? "ww-time" : ed.kind().label());
                String note = note(h, ed, rc).strip();
                if (!note.isEmpty()) {
                    g.writeStringField("why", note.substring(1, note.length() - 1));
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (!e.cases().isEmpty()) {
            g.writeArrayFieldStart("cases");
            for (Explanation c : e.cases()) {
                explanation(g, h, c, rc);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void op(JsonGenerator g, History h, int id) throws IOException {
        Op o = h.op(id);
        g.writeStartObject();
        g.writeStringField("op", h.name(id));
        g.writeStringField("thread", h.threadName(o.thread()));
        g.writeNumberField("index", o.index() + 1);
        if (o.line() > 0) {
            g.writeNumberField("line", o.line());
        }
        g.writeEndObject();
    }

    private static String ref(History h, int id) {
        Op o = h.op(id);
        return h.threadName(o.thread()) + "#" + (o.index() + 1);
    }

    private static String plural(long n) {
        return n == 1 ? "" : "s";
    }
}
