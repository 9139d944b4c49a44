package dev.mmcheck.checker.cli;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.report.HtmlReport;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Report;
import dev.mmcheck.checker.report.Merge;
import dev.mmcheck.checker.report.SarifReport;
import dev.mmcheck.checker.report.SourceRoots;
import dev.mmcheck.checker.report.Triage;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.checker.report.Version;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.trace.BinaryTraceWriter;
import dev.mmcheck.checker.trace.TextTraceWriter;
import dev.mmcheck.checker.trace.TraceFiles;
import dev.mmcheck.checker.trace.TraceFormatException;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code mmcheck} command line, parsed with picocli: {@code replay}, {@code convert}, {@code merge},
 * {@code check-history}; {@code --help} on each prints its usage and exits 0.
 *
 * <pre>
 *   mmcheck replay TRACE [--models tso,pso,sober,scser,tsoser,jmm|all] [--report FILE.json] [--sarif FILE.sarif]
 *                  [--html FILE.html] [--suppress FILE] [--baseline FILE] [--fail-on race,relaxed,atomicity] [--quiet]
 *   mmcheck fix TRACE [--models ...] [--also TRACE]...   (the fewest changes that remove every finding, docs/fix.md)
 *   mmcheck convert IN OUT        (OUT ending in .trace is text, anything else binary)
 *   mmcheck merge REPORT.json... [--report OUT.json] [--sarif OUT.sarif] [--html OUT.html] [--suppress FILE]
 *                 [--baseline FILE] [--fail-on race,relaxed,atomicity] [--quiet]
 * </pre>
 *
 * Exit status: 0 no violation (or none new in a failing category), 1 violations found, 2 bad input or
 * usage (one line on stderr, no stack trace), 3 no violation but not everything was checked (a trace
 * cut short, a failure inside the checker: the summary's first lines say which).
 */
public final class Main {

    static final int OK = 0;
    static final int VIOLATIONS = 1;
    static final int BAD_INPUT = 2;
    /** No violation, but not everything was checked (a trace cut short, a failure inside the checker). */
    static final int INCOMPLETE = 3;

    private final PrintStream out;
    private final PrintStream err;

    Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** A mistake in the command line: the message is the one line printed. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        System.exit(new Main(System.out, System.err).run(args));
    }

    /** Runs the command line; returns the exit status. */
    int run(String[] args) {
        if (args.length == 0) {
            err.println("mmcheck: no command given (try 'mmcheck --help')");
            return BAD_INPUT;
        }
        CommandLine cl = new CommandLine(new Root())
                .addSubcommand(new Replay())
                .addSubcommand(new Convert())
                .addSubcommand(new MergeCommand())
                .addSubcommand(new HistoryCommand(out, err))
                .addSubcommand(new FixCommand(out))
                .addSubcommand(new CommandLine.HelpCommand());
        return HistoryCommand.oneLineErrors(cl, out, err).execute(args);
    }

    @Command(name = "mmcheck", mixinStandardHelpOptions = true, versionProvider = VersionOf.class,
            description = {"Finds sequential-consistency bugs in lock-free Java code: replays recorded or hand-written "
                    + "traces, finds the fewest changes that remove a run's findings, converts traces, merges the "
                    + "agent's reports, checks recorded histories (docs/user-guide.md).",
                    "Exit status: 0 no violation, 1 violations found, 2 bad input, 3 no violation but the check is "
                    + "incomplete."})
    static final class Root implements Runnable {
        @Override
        public void run() {
            // no subcommand: picocli printed the usage for --help; otherwise one is required
        }
    }

    /** {@code mmcheck --version}. */
    static final class VersionOf implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"mmcheck " + Version.get()};
        }
    }

    @Command(name = "replay", mixinStandardHelpOptions = true, description = {"Runs the store-buffer monitors on a "
            + "recorded (.mmct) or hand-written (.trace) trace and reports every sequential-consistency violation a "
            + "TSO or PSO machine could produce, and, when the trace declares transactions, every cycle that makes "
            + "them not serializable under SC or TSO."})
    final class Replay implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "TRACE", description = "the trace file")
        Path trace;
        @Option(names = "--models", paramLabel = "LIST", description = "tso,pso,sober,scser,tsoser,jmm or all (default "
                + "tso,pso; scser and tsoser start at the first transaction; jmm: Java's access modes as ARM runs them, "
                + "docs/jmm-model.md)")
        String models;
        @Mixin
        Outputs outputs = new Outputs();
        @Mixin
        TriageOptions triageOptions = new TriageOptions();

        @Override
        public Integer call() throws Exception {
            Set<Analysis> analyses = models == null ? EnumSet.of(Analysis.TSO, Analysis.PSO) : analyses(models);
            boolean chosen = models != null;
            Triage triage = triageOptions.load();
            Symbols symbols = new Symbols();
            // by default the serializability checks start at the trace's first transaction; --models is exact
            Checker checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(analyses)
                    .withAutoSerializability(!chosen));
            TraceFiles.Summary read;
            try {
                read = TraceFiles.read(trace, symbols, checker);
            } catch (IllegalArgumentException e) {
                throw new TraceFormatException(trace.toString(), e.getMessage());
            }
            CheckResult result = checker.result();
            if (!read.complete()) {
                result = result.withNotes(List.of(Note.incomplete("trace-cut", "", read.events(), read.note())), List.of());
            }
            Triage.Outcome outcome = triage.apply(Finding.group(result.violations()));
            outputs.write(new Report(trace.toString(), read.complete(), result, outcome, null));
            return outcome.failing() > 0 ? VIOLATIONS : result.complete() ? OK : INCOMPLETE;
        }
    }

    @Command(name = "convert", mixinStandardHelpOptions = true, description = "Converts a trace between the text "
            + "and the binary format (OUT ending in .trace is written as text).")
    final class Convert implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "IN", description = "the trace to read")
        Path in;
        @Parameters(index = "1", paramLabel = "OUT", description = "the trace to write")
        Path target;

        @Override
        public Integer call() throws Exception {
            Symbols symbols = new Symbols();
            EventBuffer events = new EventBuffer();
            TraceFiles.Summary read = TraceFiles.read(in, symbols, events);
            if (target.toString().endsWith(".trace")) {
                try (Writer w = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
                    w.write("# converted by mmcheck " + Version.get() + " from " + in + "\n");
                    events.replay(new TextTraceWriter(w, symbols));
                }
            } else {
                try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(target));
                        BinaryTraceWriter w = new BinaryTraceWriter(o, symbols)) {
                    events.replay(w);
                }
            }
            out.println("converted " + read.events() + " events from " + in + " (" + read.format() + ") to " + target);
            if (!read.complete()) {
                out.println("note: " + read.note());
            }
            return OK;
        }
    }

    @Command(name = "merge", mixinStandardHelpOptions = true, description = {"Combines the JSON reports of several "
            + "JVMs (forks, machines, nightly runs): the same finding's counts are added and its tests and calling "
            + "contexts listed together; then decides once, on the merged findings, with the same suppression rules, "
            + "baseline and failing categories as the agent's suppress=, baseline=, failOn= (the forks' own decisions "
            + "are not kept). The same report given twice is refused.",
            "Exit status: 0 nothing new in a failing category, 1 new findings in a failing category, 2 bad input, 3 "
            + "nothing failing but a report was incomplete."})
    final class MergeCommand implements Callable<Integer> {
        @Parameters(index = "0..*", arity = "1..*", paramLabel = "REPORT.json", description = "the reports")
        List<Path> inputs = new ArrayList<>();
        @Mixin
        Outputs outputs = new Outputs();
        @Mixin
        TriageOptions triageOptions = new TriageOptions();

        @Override
        public Integer call() throws Exception {
            for (Path p : inputs) {
                if (!java.nio.file.Files.isRegularFile(p)) {
                    throw new UsageException(p + ": no such file");
                }
            }
            Triage triage = triageOptions.load();
            Merge.Decision d;
            try {
                d = Merge.decide(inputs, triage);
            } catch (Merge.MergeException e) {
                throw new UsageException(e.getMessage());
            }
            for (String w : d.merged().warnings()) {
                err.println("mmcheck: WARNING: " + w);
            }
            Merge.Merged m = d.merged();
            outputs.write(new Report("merge of " + m.reports() + " reports", m.complete(), m.result(), d.outcome(),
                    new Report.Merged(m.reports())));
            return d.status();
        }
    }

    /**
     * The triage options replay and merge share, with the agent's syntax and rules ({@code suppress=},
     * {@code baseline=}, {@code failOn=}): parsed by {@link Triage#load} and {@link Triage#categories}.
     */
    static final class TriageOptions {
        @Option(names = "--suppress", paramLabel = "FILE", description = "suppression rules of reviewed findings")
        Path suppress;
        @Option(names = "--baseline", paramLabel = "FILE", description = "known findings (written when absent)")
        Path baseline;
        @Option(names = "--fail-on", paramLabel = "LIST", description = "categories that count: race,relaxed,"
                + "atomicity or all (default all)")
        String failOnList;

        /** The triage these options say; a mistake is a one-line {@link UsageException}. */
        Triage load() throws UsageException {
            Set<Category> failOn;
            try {
                failOn = failOnList == null ? EnumSet.allOf(Category.class) : Triage.categories(failOnList);
            } catch (Triage.TriageException e) {
                throw new UsageException("--fail-on: " + e.getMessage());
            }
            try {
                return Triage.load(suppress, baseline, failOn);
            } catch (Triage.TriageException e) {
                throw new UsageException(e.getMessage());
            }
        }
    }

    /** The outputs replay and merge share: the summary on standard output, and the report files asked for. */
    final class Outputs {
        @Option(names = "--report", paramLabel = "FILE.json", description = "write the JSON report")
        Path report;
        @Option(names = "--sarif", paramLabel = "FILE.sarif", description = "write the findings as SARIF 2.1.0")
        Path sarif;
        @Option(names = "--html", paramLabel = "FILE.html", description = "write the findings as an HTML page")
        Path html;
        @Option(names = "--quiet", description = "print nothing but errors")
        boolean quiet;
        @Option(names = "--source-root", paramLabel = "DIR", description = "where the SARIF file finds source files "
                + "(repeatable; default src/main/java, src/test/java and the working directory): paths are written "
                + "relative to the repository's root, as GitHub code scanning needs")
        List<Path> sourceRoots = new ArrayList<>();

        /** Prints the summary of {@code result} and writes the files asked for. */
        void write(Report r) throws IOException, UsageException {
            if (!quiet) {
                for (String line : Summary.lines(r)) {
                    out.println(line);
                }
            }
            if (report != null) {
                JsonReport.write(report, r);
                said("report", report);
            }
            if (sarif != null) {
                SarifReport.write(sarif, r, roots());
                said("SARIF", sarif);
            }
            if (html != null) {
                HtmlReport.write(html, r);
                said("HTML", html);
            }
        }

        /** The source roots given, each a directory, or the conventional ones. */
        private SourceRoots roots() throws UsageException {
            for (Path r : sourceRoots) {
                if (!Files.isDirectory(r)) {
                    throw new UsageException("--source-root " + r + ": not a directory");
                }
            }
            return sourceRoots.isEmpty() ? SourceRoots.conventional() : SourceRoots.of(sourceRoots);
        }

        private void said(String what, Path file) {
            if (!quiet) {
                out.println(what + " written to " + file);
            }
        }
    }

    static Set<Analysis> analyses(String list) throws UsageException {
        Analysis.Chosen chosen = Analysis.parseList(list, ",:");
        if (chosen.unknown() != null) {
            throw new UsageException("--models: unknown model '" + chosen.unknown() + "' (choose from "
                    + Analysis.NAMES + ", or all)");
        }
        if (chosen.analyses().isEmpty()) {
            throw new UsageException("--models needs at least one of " + Analysis.NAMES);
        }
        return chosen.analyses();
    }
}
