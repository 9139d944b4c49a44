package dev.mmcheck.agent;

import dev.mmcheck.agent.check.TraceTee;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.fix.FixSearch;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.checker.trace.TraceFiles;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code fix=true} at exit: the run's trace, closed, read back and handed to {@link FixSearch} under the run's
 * store-buffer and access-mode analyses (docs/fix.md). Runs on the shutdown hook's thread, after the checker loop
 * finished; a failure costs the section, never the report.
 */
final class RunFix {

    /** The fix found, or null, and the summary lines that say it (or why there is none). */
    record Outcome(FixResult fix, List<String> lines) {
    }

    private RunFix() {
    }

    /** The fix of the run {@code tee} recorded, under the analyses {@code options} ran. */
    static Outcome of(Options options, TraceTee tee) {
        Set<Analysis> analyses = EnumSet.noneOf(Analysis.class);
        for (Analysis a : options.analyses()) {
            if (!a.serializability()) {
                analyses.add(a);
            }
        }
        List<String> lines = new ArrayList<>();
        try {
            tee.close();
            Symbols symbols = new Symbols();
            EventBuffer run = new EventBuffer();
            TraceFiles.Summary read = TraceFiles.read(options.traceFile(), symbols, run);
            if (analyses.isEmpty()) {
                lines.add("");
                lines.add("mmcheck: fix=true: models=" + options.analyses() + " has no store-buffer or access-mode "
                        + "analysis: nothing to fix");
                return new Outcome(null, lines);
            }
            FixResult fix = FixSearch.search(run, symbols, analyses, FixSearch.Config.defaults());
            lines.addAll(Summary.fix(fix));
            lines.add("  (replayed from " + options.traceFile() + ", " + read.events() + " events" + (read.complete()
                    ? "" : ", cut short: " + read.note()) + "; the proof covers the events the run logged, "
                    + "docs/agent.md says which accesses a run leaves out and why no finding is lost by it)");
            return new Outcome(fix, lines);
        } catch (Exception | LinkageError | OutOfMemoryError e) {
            lines.add("");
            lines.add("mmcheck: fix=true: the fix could not be found: " + e);
            return new Outcome(null, lines);
        }
    }
}
