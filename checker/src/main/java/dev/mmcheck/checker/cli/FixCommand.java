package dev.mmcheck.checker.cli;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.fix.Applied;
import dev.mmcheck.checker.fix.Change;
import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.fix.FixSearch;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.trace.TraceFiles;
import dev.mmcheck.checker.trace.TraceFormatException;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Report;
import dev.mmcheck.checker.report.SarifReport;
import dev.mmcheck.checker.report.SourceRoots;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Failure;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.result.Violation;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mmcheck fix TRACE}: the fewest access-mode changes that remove every finding of a recorded run, one per line
 * as {@code File.java:LINE: what to write}, then the replay that proves them (docs/fix.md). Exit status: 0 the proof
 * holds (or there was nothing to remove), 1 some finding could not be removed, 2 bad input, 3 the trace was cut short
 * (what was read is fixed, the rest unknown).
 */
@Command(name = "fix", mixinStandardHelpOptions = true, description = {"Finds the cheapest set of access-mode changes "
        + "(a fence, a stronger mode for one access, a field made volatile) that removes every finding of a recorded "
        + "or hand-written trace, priced by how often the run executed what each change touches, and proves it by "
        + "replaying the trace with the changes made: no finding left, and each change needed (docs/fix.md).",
        "Exit status: 0 proven (or nothing to fix), 1 not every finding could be removed, 2 bad input, 3 the trace was "
        + "cut short."})
final class FixCommand implements Callable<Integer> {

    private final PrintStream out;

    @Parameters(index = "0..*", arity = "1..*", paramLabel = "TRACE", description = "the trace file (written by the "
            + "agent's trace= option, or by hand); several runs of one program are fixed together")
    List<Path> traces = new ArrayList<>();
    @Option(names = "--models", paramLabel = "LIST", description = "the models whose findings to remove: tso,pso,sober,"
            + "jmm or all (default tso,pso, as replay's)")
    String models;

    @Option(names = "--also", paramLabel = "TRACE", description = "another run of the same program (repeatable): the "
            + "changes found are made to it too, and its findings left are counted; exit 1 if any is left")
    List<Path> others = new ArrayList<>();

    @Option(names = "--report", paramLabel = "FILE.json", description = "write the JSON report: the runs' findings "
            + "and the fix with its proof")
    Path report;

    @Option(names = "--sarif", paramLabel = "FILE.sarif", description = "write the runs' findings as SARIF 2.1.0, each "
            + "with the changes of the fix that remove it as SARIF fixes (edits of the source, where they can be written)")
    Path sarif;

    @Option(names = "--source-root", paramLabel = "DIR", description = "where the SARIF file finds source files "
            + "(repeatable; default src/main/java, src/test/java and the working directory)")
    List<Path> sourceRoots = new ArrayList<>();

    FixCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        Set<Analysis> analyses = models == null ? EnumSet.of(Analysis.TSO, Analysis.PSO) : Main.analyses(models);
        for (Path r : sourceRoots) {
            if (!Files.isDirectory(r)) {
                throw new UsageException("--source-root " + r + ": not a directory");
            }
        }
        List<FixSearch.Run> runs = new ArrayList<>();
        boolean complete = true;
        for (Path trace : traces) {
            Symbols symbols = new Symbols();
            EventBuffer run = new EventBuffer();
            TraceFiles.Summary read;
            try {
                read = TraceFiles.read(trace, symbols, run);
            } catch (IllegalArgumentException e) {
                throw new TraceFormatException(trace.toString(), e.getMessage());
            }
            if (!read.complete()) {
                complete = false;
                out.println("mmcheck: WARNING: " + trace + " is cut short (" + read.note() + "): only the "
                        + read.events() + " events read are fixed");
            }
            runs.add(new FixSearch.Run(run, symbols));
        }
        FixResult fix;
        try {
            fix = FixSearch.search(runs, analyses, FixSearch.Config.defaults());
        } catch (RuntimeException | OutOfMemoryError e) {
            // a failure inside the search, not the user's mistake: one line, and the check is incomplete
            out.println("mmcheck: INCOMPLETE: the fix search failed: " + e);
            return Main.INCOMPLETE;
        }
        for (String line : fix.lines()) {
            out.println(line);
        }
        if (report != null || sarif != null) {
            Report r = report(runs, analyses, complete).withFix(fix);
            if (report != null) {
                JsonReport.write(report, r);
                out.println("report written to " + report);
            }
            if (sarif != null) {
                SarifReport.write(sarif, r, sourceRoots.isEmpty() ? SourceRoots.conventional() : SourceRoots.of(sourceRoots));
                out.println("SARIF written to " + sarif);
            }
        }
        boolean othersClean = true;
        List<Change> changes = fix.changes().stream().map(FixResult.Planned::change).toList();
        for (Path other : others) {
            Symbols names = new Symbols();
            EventBuffer events = new EventBuffer();
            TraceFiles.Summary r;
            try {
                r = TraceFiles.read(other, names, events);
            } catch (IllegalArgumentException e) {
                throw new TraceFormatException(other.toString(), e.getMessage());
            }
            int before = Applied.findings(events, names, analyses, List.of()).size();
            List<Finding> left = Applied.findings(events, names, analyses, changes);
            othersClean &= left.isEmpty();
            out.println("made to " + other + " (" + r.events() + " events" + (r.complete() ? "" : ", cut short") + "): "
                    + before + " finding" + (before == 1 ? "" : "s") + " before, " + left.size() + " after"
                    + (left.isEmpty() ? "" : ": " + String.join(", ", left.stream().map(Finding::key).toList())));
        }
        if (!fix.findings().isEmpty() && !fix.proven() || !othersClean) {
            return Main.VIOLATIONS;
        }
        return complete ? Main.OK : Main.INCOMPLETE;
    }

    /**
     * The runs' findings as one report, as {@code mmcheck replay} gives each run's (the serializability checks only
     * when named): the violations of every run, a race several runs show grouped into one finding.
     */
    private Report report(List<FixSearch.Run> runs, Set<Analysis> analyses, boolean complete) {
        List<Violation> violations = new ArrayList<>();
        Map<Analysis, Long> forced = new EnumMap<>(Analysis.class);
        List<Note> notes = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        long events = 0;
        long truncated = 0;
        long resets = 0;
        long transactions = 0;
        int threads = 0;
        for (FixSearch.Run run : runs) {
            Checker checker = new Checker(run.symbols(), Checker.Config.defaults().withAnalyses(analyses)
                    .withAutoSerializability(false));
            run.events().replay(checker);
            CheckResult r = checker.result();
            violations.addAll(r.violations());
            r.forcedCommits().forEach((a, n) -> forced.merge(a, n, Long::sum));
            notes.addAll(r.notes());
            failures.addAll(r.failures());
            events += r.events();
            truncated += r.soberTruncatedScans();
            resets += r.clockResets();
            transactions += r.transactions();
            threads = Math.max(threads, r.threads());
        }
        CheckResult all = new CheckResult(EnumSet.copyOf(analyses), events, List.copyOf(violations), forced, truncated,
                resets, threads, List.copyOf(notes), transactions, List.copyOf(failures));
        String source = traces.size() == 1 ? traces.get(0).toString() : "fix of " + traces.size() + " traces";
        return Report.untriaged(source, complete, all);
    }
}
