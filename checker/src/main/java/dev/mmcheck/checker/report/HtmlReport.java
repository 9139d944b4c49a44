package dev.mmcheck.checker.report;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes the findings as one self-contained HTML page (no scripts, no external files): whether the
 * check is complete, the counts per category, a table of the findings and, for each, its events, the
 * happens-before path, the other prev events seen, the fix and what its category means; then the
 * accepted ones (suppressed or in the baseline) and the notes.
 */
public final class HtmlReport {

    private HtmlReport() {
    }

    /** Writes the page of {@code report} to {@code file}. */
    public static void write(Path file, Report report) throws IOException {
        write(file, report.source(), report.complete(), report.result(), report.outcome());
    }

    /** Writes the page for {@code result} of checking {@code source} to {@code file}. */
    public static void write(Path file, String source, boolean complete, CheckResult result, Triage.Outcome outcome)
            throws IOException {
        JsonReport.createParent(file);
        Files.writeString(file, page(source, complete, result, outcome), StandardCharsets.UTF_8);
    }

    /** The page's text. */
    public static String page(String source, boolean complete, CheckResult result, Triage.Outcome outcome) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>mmcheck: ")
                .append(esc(source)).append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:2em;max-width:72em}code,td.ev{font-family:monospace}\n")
                .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;"
                        + "text-align:left;vertical-align:top}\n")
                .append(".race{background:#fdd}.relaxed{background:#ffd}.atomicity{background:#fdd}"
                        + ".incomplete{background:#f88;padding:.5em;font-weight:bold}.ok{background:#dfd;padding:.5em}\n")
                .append("table.timeline td{min-width:22em;font-family:monospace}table.timeline td.n{min-width:0;"
                        + "color:#666}td.st{background:#fcc;font-weight:bold}td.buf{background:#fee;color:#a44;"
                        + "border-left:4px solid #e88}td.stale{background:#fdb;font-weight:bold}td.pv{background:#eef}"
                        + "td.step{color:#333}\n")
                .append("</style></head><body>\n");
        b.append("<h1>mmcheck ").append(esc(Version.get())).append("</h1>\n<p><code>").append(esc(source))
                .append("</code>: ").append(result.events()).append(" events, ").append(result.threads())
                .append(" threads, checked with ").append(result.analyses().isEmpty() ? "nothing"
                        : esc(result.analyses().stream().map(Analysis::option).collect(Collectors.joining(", "))))
                .append("</p>\n");
        boolean whole = complete && result.complete();
        if (!whole) {
            b.append("<p class=\"incomplete\">INCOMPLETE: part of the run was not checked; a clean table below is "
                    + "not a clean result.</p>\n<ul>\n");
            for (Failure f : result.failures()) {
                b.append("<li>").append(esc(f.describe())).append("</li>\n");
            }
            for (Note n : result.notes()) {
                if (n.isIncomplete()) {
                    b.append("<li>").append(esc(n.text())).append("</li>\n");
                }
            }
            b.append("</ul>\n");
        }
        List<Finding> findings = outcome.findings();
        List<Finding> fresh = outcome.fresh();
        if (findings.isEmpty() && whole) {
            b.append("<p class=\"ok\">No violations: every ").append(Summary.models(result))
                    .append(" execution these runs predict is sequentially consistent.</p>\n");
        }
        if (!findings.isEmpty()) {
            b.append("<h2>").append(findings.size()).append(findings.size() == 1 ? " finding" : " findings")
                    .append("</h2>\n<p>");
            for (Category c : Category.values()) {
                long n = findings.stream().filter(f -> f.category() == c).count();
                if (n > 0) {
                    b.append("<span class=\"").append(c.label()).append("\">").append(n).append(' ')
                            .append(c.label()).append("</span> ");
                }
            }
            b.append("; ").append(findings.size() - fresh.size()).append(" accepted (suppressed or in the baseline), ")
                    .append(outcome.failing()).append(" failing the run.</p>\n");
            b.append("<table>\n<tr><th>#</th><th>category</th><th>models</th><th>store / transactions</th>"
                    + "<th>access</th><th>seen</th><th>status</th></tr>\n");
            int i = 1;
            for (Finding f : findings) {
                Violation v = f.first();
                b.append("<tr class=\"").append(f.category().label()).append("\"><td><a href=\"#f").append(i)
                        .append("\">").append(i).append("</a></td><td>").append(f.category().label()).append("</td><td>")
                        .append(esc(String.join(", ", f.models()))).append("</td><td class=\"ev\">");
                if (f.isCycle()) {
                    b.append(esc(v.transactions().stream().map(TxInfo::describe).collect(Collectors.joining("; "))))
                            .append("</td><td></td>");
                } else {
                    b.append(esc(v.store().describe())).append("</td><td class=\"ev\">")
                            .append(esc(v.access().describe())).append("</td>");
                }
                b.append("<td>").append(f.count()).append("</td><td>").append(f.suppressed() ? "suppressed"
                        : f.baselined() ? "baseline" : "new").append("</td></tr>\n");
                i++;
            }
            b.append("</table>\n");
            i = 1;
            for (Finding f : findings) {
                details(b, i++, f);
            }
        }
        List<Note> notes = new java.util.ArrayList<>(result.notes());
        notes.addAll(outcome.notes());
        if (!notes.isEmpty()) {
            b.append("<h2>Notes</h2>\n<ul>\n");
            for (Note n : notes) {
                b.append("<li>").append(n.isIncomplete() ? "<b>INCOMPLETE</b>: " : "").append(esc(n.text()))
                        .append("</li>\n");
            }
            b.append("</ul>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    private static void details(StringBuilder b, int i, Finding f) {
        Violation v = f.first();
        b.append("<h3 id=\"f").append(i).append("\">").append(i).append(". ").append(f.category().label())
                .append(" under ").append(esc(String.join(", ", f.models()))).append(", seen ").append(f.count())
                .append(f.count() == 1 ? " time" : " times").append("</h3>\n<ul>\n");
        if (f.suppressed()) {
            b.append("<li>suppressed by ").append(esc(f.suppressedBy())).append("</li>\n");
        } else if (f.baselined()) {
            b.append("<li>in the baseline</li>\n");
        }
        if (f.isCycle()) {
            for (TxInfo x : v.transactions()) {
                b.append("<li>transaction: <code>").append(esc(x.describe())).append("</code></li>\n");
            }
            for (CycleEdge e : v.edges()) {
                b.append("<li>").append((char) ('A' + e.from() % 26)).append(" &rarr; ")
                        .append((char) ('A' + e.to() % 26)).append(": <code>").append(esc(e.source().describe()))
                        .append("</code> before <code>").append(esc(e.target().describe())).append("</code> (")
                        .append(esc(e.kind())).append(")</li>\n");
            }
        } else {
            boolean jmm = f.analyses().equals(List.of(dev.mmcheck.checker.finding.Analysis.JMM));
            b.append("<li>store: <code>").append(esc(v.store().describe())).append("</code> (")
                    .append(esc(Category.mode(v.store()))).append(jmm ? ") is ordered before the access by this run"
                            : ") can still be in " + esc(v.store().thread()) + "'s store buffer").append("</li>\n");
            b.append("<li>access: <code>").append(esc(v.access().describe())).append("</code> (")
                    .append(esc(Category.mode(v.access()))).append(jmm ? ") can miss it under Java's access modes"
                            : ") would not see it").append("</li>\n");
            b.append("<li>prev: ").append(jmm ? "the run's order reaches the access through" : "although the store "
                    + "happens before").append(" <code>").append(esc(v.prev().describe())).append("</code></li>\n");
            timeline(b, f, jmm);
            for (String c : f.storeContexts()) {
                b.append("<li>the store's line ran again (after the report, any thread) from <code>").append(esc(c)).append("</code></li>\n");
            }
            for (String c : f.accessContexts()) {
                b.append("<li>the access's line ran again (after the report, any thread) from <code>").append(esc(c)).append("</code></li>\n");
            }
            if (v.path() != null) {
                b.append("<li>path: <code>").append(esc(v.path().stream().map(e -> e.op() + (e.field().isEmpty()
                        ? "" : " " + e.field()) + " (" + e.thread() + ", " + e.site().location() + ")")
                        .collect(Collectors.joining(" → ")))).append("</code></li>\n");
            } else {
                b.append("<li>path: ").append(esc(v.pathNote())).append("</li>\n");
            }
            List<Finding.Example> ex = f.examples();
            for (int k = 1; k < ex.size(); k++) {
                b.append("<li>also with prev <code>").append(esc(ex.get(k).prev().describe())).append("</code> (seen ")
                        .append(ex.get(k).count()).append(")</li>\n");
            }
        }
        b.append("<li>fix: ").append(esc(v.advice())).append("</li>\n<li>what: ").append(esc(f.category()
                .explanation())).append("</li>\n</ul>\n");
    }

    /**
     * The run as a table with one column per thread, as Lincheck's interleaving table shows it: the path from the
     * store to prev, then the access, one event per row in the run's order; in the store's column, the rows
     * between the store and the access are its buffered window (the store is not yet visible to the others), and
     * the access is the stale read (or the write ordered before the store).
     */
    static void timeline(StringBuilder b, Finding f, boolean jmm) {
        Violation v = f.first();
        List<EventInfo> order = v.runOrder();
        List<String> threads = order.stream().map(EventInfo::thread).distinct().toList();
        int storeColumn = threads.indexOf(v.store().thread());
        int last = order.size() - 1;
        b.append("<li>timeline (one column per thread, the run's order downwards):\n<table class=\"timeline\">\n"
                + "<tr><th></th>");
        for (String t : threads) {
            b.append("<th>").append(esc(t)).append("</th>");
        }
        b.append("</tr>\n");
        for (int i = 0; i < order.size(); i++) {
            EventInfo e = order.get(i);
            int column = threads.indexOf(e.thread());
            b.append("<tr><td class=\"n\">").append(i + 1).append("</td>");
            for (int c = 0; c < threads.size(); c++) {
                if (c == column) {
                    String role = i == 0 ? "store" : i == last ? "access" : i == last - 1 ? "prev" : "step";
                    String css = switch (role) {
                        case "store" -> "st";
                        case "access" -> "stale";
                        case "prev" -> "pv";
                        default -> "step";
                    };
                    b.append("<td class=\"").append(css).append("\">").append(esc(e.op()))
                            .append(e.field().isEmpty() ? "" : " " + esc(e.field())).append("<br>")
                            .append(esc(e.site().describe())).append("<br><small>").append(switch (role) {
                                case "store" -> jmm ? "the store (ordered before the access by this run)"
                                        : "the store enters " + esc(e.thread()) + "'s store buffer";
                                case "access" -> jmm ? "can miss the store under Java's access modes"
                                        : "reads memory without the store: stale";
                                case "prev" -> jmm ? "prev: the run's order reaches the access through this"
                                        : "prev: the store happens before this";
                                default -> "on the happens-before path";
                            }).append("</small></td>");
                } else if (c == storeColumn && i > 0) {
                    b.append("<td class=\"buf\">").append(jmm ? "the store: not yet visible to "
                            + esc(v.access().thread()) : "the store: still buffered").append("</td>");
                } else {
                    b.append("<td></td>");
                }
            }
            b.append("</tr>\n");
        }
        b.append("</table></li>\n");
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
