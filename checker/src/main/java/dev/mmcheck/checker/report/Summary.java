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

import java.util.ArrayList;
import java.util.List;

/** The human summary of a check: one paragraph per distinct violation, in plain sentences. */
public final class Summary {

    /** Stack frames of a failure the summary prints (the JSON report has them all). */
    private static final int STACK_LINES = 8;

    private Summary() {
    }

    /** The summary lines of {@code report}. */
    public static List<String> lines(Report report) {
        List<String> out = lines(report.source(), report.result(), report.outcome());
        if (report.fix() != null) {
            out = new ArrayList<>(out);
            out.addAll(fix(report.fix()));
        }
        return out;
    }

    /** The summary's last section: what to change (docs/fix.md), after a blank line. */
    public static List<String> fix(dev.mmcheck.checker.fix.FixResult fix) {
        List<String> out = new ArrayList<>();
        out.add("");
        for (String line : fix.lines()) {
            out.add("mmcheck fix: " + line);
        }
        return out;
    }

    /** The summary lines for {@code result} of checking {@code source}, untriaged. */
    public static List<String> lines(String source, CheckResult result) {
        return lines(source, result, Triage.untriaged(result));
    }

    /** The summary lines for {@code result} of checking {@code source}, its findings triaged as {@code outcome} says. */
    public static List<String> lines(String source, CheckResult result, Triage.Outcome outcome) {
        List<String> out = new ArrayList<>();
        StringBuilder models = new StringBuilder();
        for (Analysis a : result.analyses()) {
            models.append(models.length() == 0 ? "" : ",").append(a.option());
        }
        out.add("mmcheck " + Version.get() + ": " + source + ": " + result.events() + " events, " + result.threads()
                + " threads, checked with " + (models.length() == 0 ? "nothing" : models));
        // what went unchecked first: a user who reads only the top must not take this for a clean run
        for (Failure f : result.failures()) {
            out.add("mmcheck: INCOMPLETE: " + f.describe());
            for (int k = 0; k < f.stack().size() && k < STACK_LINES; k++) {
                out.add("        at " + f.stack().get(k));
            }
        }
        for (Note n : result.notes()) {
            if (n.isIncomplete()) {
                out.add("mmcheck: INCOMPLETE: " + n.text());
            }
        }
        for (Note n : result.notes()) {
            if (!n.isIncomplete()) {
                out.add("note: " + n.text());
            }
        }
        for (Note n : outcome.notes()) {
            out.add("note: " + n.text());
        }
        List<Finding> findings = outcome.findings();
        if (findings.isEmpty()) {
            if (!result.complete()) {
                out.add("no violations in what was checked, but the check is INCOMPLETE (above): this is not a "
                        + "clean result");
                return out;
            }
            boolean serial = result.analyses().contains(Analysis.SCSER) || result.analyses().contains(Analysis.TSOSER);
            boolean cut = result.hasNote("search-cut");
            if (result.hasNote("sampled")) {
                out.add("no violations in what was sampled: every execution these runs predict from the logged "
                        + "accesses is sequentially consistent; the objects not drawn were not checked");
                return out;
            }
            out.add("no violations: every " + models(result) + " execution these runs predict is sequentially consistent"
                    + (!serial ? "" : cut ? "; the serializability searches were cut short (see the notes), so the "
                    + result.transactions() + " transactions may still not be serializable"
                    : ", and the " + result.transactions() + " transactions are serializable"));
            return out;
        }
        out.add(headline(findings));
        long fresh = findings.stream().filter(Finding::isNew).count();
        if (outcome.failing() < fresh) {
            // failOn= leaves some new findings out: say so, or a reader takes "3 findings" for a failed run
            String cats = outcome.failOn().stream().map(Category::label).sorted()
                    .collect(java.util.stream.Collectors.joining(":"));
            out.add("failOn=" + (cats.isEmpty() ? "(none)" : cats) + ": " + (outcome.failing() == 0
                    ? (fresh == 1 ? "it does not fail" : "none of them fails") + " the run"
                    : outcome.failing() + " of the " + fresh + " new findings fail the run") + " (only new findings in "
                    + (cats.isEmpty() ? "no category" : "the categories " + cats.replace(":", ", ")) + " do)");
        }
        int i = 1;
        for (Finding f : findings) {
            if (!f.isNew()) {
                continue;
            }
            out.add("");
            out.addAll(describe(f, i++));
        }
        List<Finding> known = findings.stream().filter(f -> !f.isNew()).toList();
        if (!known.isEmpty()) {
            out.add("");
            out.add("accepted (not failing the run):");
            for (Finding f : known) {
                out.add("  - " + f.category().label() + " " + oneLine(f) + (f.suppressed()
                        ? ": suppressed by " + f.suppressedBy() : ": in the baseline"));
            }
        }
        return out;
    }

    /** The paragraph of finding number {@code i}, as the summary prints it. */
    public static List<String> describe(Finding f, int i) {
        List<String> out = new ArrayList<>();
        if (f.isCycle()) {
            cycle(out, i, f.first());
        } else {
            race(out, i, f);
        }
        if (!f.tests().isEmpty()) {
            out.add("    tests : " + String.join(", ", f.tests()));
        }
        out.add("    what  : " + f.category().label() + ": " + f.category().explanation());
        return out;
    }

    /** {@code 3 findings: 2 race, 1 relaxed (1 suppressed)}. */
    private static String headline(List<Finding> findings) {
        StringBuilder b = new StringBuilder();
        b.append(findings.size()).append(findings.size() == 1 ? " finding: " : " findings: ");
        boolean first = true;
        for (Category c : Category.values()) {
            long n = findings.stream().filter(f -> f.category() == c).count();
            if (n > 0) {
                b.append(first ? "" : ", ").append(n).append(' ').append(c.label());
                first = false;
            }
        }
        long suppressed = findings.stream().filter(Finding::suppressed).count();
        long baselined = findings.stream().filter(f -> !f.suppressed() && f.baselined()).count();
        if (suppressed + baselined > 0) {
            b.append(" (");
            b.append(suppressed > 0 ? suppressed + " suppressed" : "");
            b.append(suppressed > 0 && baselined > 0 ? ", " : "");
            b.append(baselined > 0 ? baselined + " in the baseline" : "");
            b.append(')');
        }
        return b.append(':').toString();
    }

    /** A finding in one line: store and access, or the cycle's transactions. */
    static String oneLine(Finding f) {
        Violation v = f.first();
        if (f.isCycle()) {
            StringBuilder b = new StringBuilder(v.analysis().option() + " cycle of");
            for (TxInfo x : v.transactions()) {
                b.append(' ').append(x.site().describe());
            }
            return b.toString();
        }
        return "store at " + v.store().site().describe() + " / access at " + v.access().site().describe() + " ("
                + String.join(", ", f.models()) + ")";
    }

    private static void race(List<String> out, int i, Finding f) {
        Violation v = f.first();
        EventInfo st = v.store();
        EventInfo pr = v.prev();
        EventInfo ac = v.access();
        out.add("[" + i + "] " + f.category().label() + " under " + String.join(", ", f.models()) + " ("
                + f.analyses().stream().map(Analysis::option).collect(java.util.stream.Collectors.joining(", "))
                + "), seen " + f.count() + (f.count() == 1 ? " time" : " times"));
        if (f.analyses().equals(List.of(Analysis.JMM))) {
            // the access-mode analysis: no store buffer, an access whose mode lets it miss a write (docs/jmm-model.md)
            boolean write = ac.op().contains("store") || ac.op().equals("cas") && !ac.site().mode().endsWith("failed");
            out.add("    store : " + st.describe() + ", which this run orders before the access");
            out.add("    access: " + ac.describe() + (write ? " can be ordered before it" : " can read an older value")
                    + " under Java's access modes,");
            out.add("    prev  : the run's order reaches the access through " + pr.describe());
        } else {
            out.add("    store : " + st.describe() + " can still be in " + st.thread() + "'s store buffer");
            out.add("    access: " + ac.describe() + " would not see it,");
            out.add("    prev  : although the store happens before " + pr.describe());
        }
        if (!f.storeContexts().isEmpty()) {
            // recorded after the first report, from whichever thread ran the line: not the example's own stack
            out.add("    called: the store's line ran again from " + String.join(" | ", f.storeContexts())
                    + " (after the report, any thread)");
        }
        if (!f.accessContexts().isEmpty()) {
            out.add("    called: the access's line ran again from " + String.join(" | ", f.accessContexts())
                    + " (after the report, any thread)");
        }
        if (v.path() != null && v.path().size() > 2) {
            StringBuilder p = new StringBuilder("    path  : ");
            for (int k = 0; k < v.path().size(); k++) {
                EventInfo e = v.path().get(k);
                p.append(k == 0 ? "" : " -> ").append(e.op()).append(e.field().isEmpty() ? "" : " " + e.field())
                        .append(" (").append(e.thread()).append(", ").append(e.site().location()).append(')');
            }
            out.add(p.toString());
        } else if (v.path() == null) {
            out.add("    path  : " + v.pathNote());
        }
        List<Finding.Example> examples = f.examples();
        for (int k = 1; k < examples.size() && k <= 2; k++) {
            Finding.Example e = examples.get(k);
            out.add("    also  : with prev " + e.prev().describe() + " (seen " + e.count() + ")");
        }
        if (examples.size() > 3) {
            out.add("    also  : " + (examples.size() - 3) + " more prev events (the JSON report lists them)");
        }
        out.add("    fix   : " + v.advice());
    }

    private static void cycle(List<String> out, int i, Violation v) {
        String what = v.analysis() == Analysis.SCSER ? "SC-serializability" : "TSO-serializability";
        out.add("[" + i + "] " + what + " violation (" + v.analysis().option() + "), seen " + v.count()
                + (v.count() == 1 ? " time" : " times") + ": a cycle of " + v.transactions().size() + " transactions");
        for (int k = 0; k < v.transactions().size(); k++) {
            out.add("    tx " + (char) ('A' + k % 26) + "  : " + v.transactions().get(k).describe());
        }
        for (CycleEdge e : v.edges()) {
            char from = (char) ('A' + e.from() % 26);
            char to = (char) ('A' + e.to() % 26);
            String why = switch (e.kind()) {
                case "program-order" -> "program order";
                case "conflict" -> "conflict, in every execution";
                case "conflict-observed" -> "conflict, as observed";
                default -> "conflict, the " + (e.late().equals("source") ? "first" : "second") + " committing late";
            };
            out.add("    " + from + " -> " + to + " : " + e.source().describe() + "  before  " + e.target().describe()
                    + " (" + why + ")");
        }
        out.add("    fix   : " + v.advice());
    }

    /** The models a clean run's executions were predicted under, as the summary names them: "TSO/PSO", "TSO/PSO/JMM". */
    static String models(CheckResult result) {
        List<String> m = new ArrayList<>();
        for (Analysis a : List.of(Analysis.TSO, Analysis.PSO, Analysis.JMM)) {
            if (result.analyses().contains(a)) {
                m.add(a.option().toUpperCase(java.util.Locale.ROOT));
            }
        }
        return m.isEmpty() ? "TSO/PSO" : String.join("/", m);
    }
}
