package dev.mmcheck.checker.report;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.report.CheckResult;

import java.util.ArrayList;
import java.util.List;

/** The human summary of a check: one paragraph per distinct violation, in plain sentences. */
public final class Summary {

    /** Stack frames of a failure the summary prints (the JSON report has them all). */
    private static final int STACK_LINES = 8;

    private Summary() {
    }

    /** The summary lines for {@code result} of checking {@code source}. */
    public static List<String> lines(String source, CheckResult result) {
        List<String> out = new ArrayList<>();
        StringBuilder models = new StringBuilder();
        for (Analysis a : result.analyses()) {
            models.append(models.length() == 0 ? "" : ",").append(a.option());
        }
        out.add("mmcheck " + Version.get() + ": " + source + ": " + result.events() + " events, " + result.threads()
                + " threads, checked with " + models);
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
        if (result.violations().isEmpty()) {
            if (!result.complete()) {
                out.add("no violations in what was checked, but the check is INCOMPLETE (above): this is not a "
                        + "clean result");
                return out;
            }
            boolean serial = result.analyses().contains(Analysis.SCSER) || result.analyses().contains(Analysis.TSOSER);
            boolean cut = result.hasNote("search-cut");
            out.add("no violations: every TSO/PSO execution these runs predict is sequentially consistent"
                    + (!serial ? "" : cut ? "; the serializability searches were cut short (see the notes), so the "
                    + result.transactions() + " transactions may still not be serializable"
                    : ", and the " + result.transactions() + " transactions are serializable"));
            return out;
        }
        out.add(result.violations().size() + " distinct violation" + (result.violations().size() == 1 ? "" : "s")
                + ":");
        int i = 1;
        for (Violation v : result.violations()) {
            if (v.isCycle()) {
                out.add("");
                cycle(out, i++, v);
                continue;
            }
            EventInfo st = v.store();
            EventInfo pr = v.prev();
            EventInfo ac = v.access();
            out.add("");
            out.add("[" + i++ + "] " + v.model() + " violation (" + v.analysis().option() + "), seen " + v.count()
                    + (v.count() == 1 ? " time" : " times"));
            out.add("    store : " + st.describe() + " can still be in " + st.thread() + "'s store buffer");
            out.add("    access: " + ac.describe() + " would not see it,");
            out.add("    prev  : although the store happens before " + pr.describe());
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
            out.add("    fix   : " + v.advice());
        }
        return out;
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
}
