package dev.mmcheck.checker.cli;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.report.CheckResult;
import dev.mmcheck.checker.report.Category;
import dev.mmcheck.checker.report.Finding;
import dev.mmcheck.checker.report.HtmlReport;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.SarifReport;
import dev.mmcheck.checker.report.Triage;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.checker.report.Version;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code mmcheck} command line.
 *
 * <pre>
 *   mmcheck replay TRACE [--models tso,pso,sober,scser,tsoser] [--report FILE.json] [--sarif FILE.sarif]
 *                  [--html FILE.html] [--suppress FILE] [--baseline FILE] [--fail-on race,relaxed,atomicity] [--quiet]
 *   mmcheck convert IN OUT        (OUT ending in .trace is text, anything else binary)
 * </pre>
 *
 * Exit status: 0 no violation (or none new in a failing category), 1 violations found, 2 bad input or usage (one line on stderr, no
 * stack trace), 3 no violation but not everything was checked (a trace cut short, a failure inside the
 * checker: the summary's first lines say which).
 */
public final class Main {

    static final int OK = 0;
    static final int VIOLATIONS = 1;
    static final int BAD_INPUT = 2;
    /** No violation, but not everything was checked (a trace cut short, a failure inside the checker). */
    static final int INCOMPLETE = 3;

    private static final String USAGE = String.join("\n",
            "usage: mmcheck replay TRACE [--models tso,pso,sober,scser,tsoser] [--report FILE.json] [--sarif FILE]",
            "                      [--html FILE] [--suppress FILE] [--baseline FILE] [--fail-on race,relaxed,atomicity]",
            "                      [--quiet]",
            "       mmcheck convert IN OUT",
            "       mmcheck merge REPORT.json... [--report OUT.json] [--sarif OUT.sarif] [--html OUT.html]",
            "       " + dev.mmcheck.checker.history.HistoryCommand.USAGE,
            "       mmcheck --version",
            "replay runs the store-buffer monitors on a recorded or hand-written trace and reports every",
            "sequential-consistency violation a TSO or PSO machine could produce, and, when the trace declares",
            "transactions, every cycle that makes them not serializable under SC or TSO; convert turns a text",
            "trace into the binary format and back (OUT ending in .trace is written as text). --suppress takes",
            "rules of accepted findings, --baseline a file of known ones (written when absent), --fail-on the",
            "categories that count (docs/report-format.md).",
            "exit status: 0 no violation (none new in a --fail-on category), 1 violations found, 2 bad input,",
            "3 no violation but the check is",
            "incomplete (a trace cut short, a failure inside the checker: the summary's first lines say which)");

    private static final String MERGE_USAGE = "usage: mmcheck merge REPORT.json... [--report OUT.json] [--sarif OUT.sarif]"
            + " [--html OUT.html] [--quiet]\n  combines the JSON reports of several JVMs (forks, machines, nightly runs):"
            + " the same finding's counts are added and its tests listed together";

    private final PrintStream out;
    private final PrintStream err;

    Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(new Main(System.out, System.err).run(args));
    }

    /** Runs the command line; returns the exit status. */
    int run(String[] args) {
        try {
            if (args.length == 0) {
                throw new UsageException("no command given (try 'mmcheck --help')");
            }
            if (args.length > 1 && (List.of(args).contains("--help") || List.of(args).contains("-h"))) {
                // every subcommand: its usage, and success
                String usage = switch (args[0]) {
                    case "replay" -> USAGE.substring(0, USAGE.indexOf("\n       mmcheck convert"));
                    case "convert" -> "usage: mmcheck convert IN OUT   (OUT ending in .trace is written as text)";
                    case "merge" -> MERGE_USAGE;
                    case "check-history" -> "usage: " + dev.mmcheck.checker.history.HistoryCommand.USAGE;
                    default -> USAGE;
                };
                out.println(usage);
                return OK;
            }
            switch (args[0]) {
                case "replay":
                    return replay(args);
                case "convert":
                    return convert(args);
                case "merge":
                    return merge(args);
                case "check-history":
                    return new dev.mmcheck.checker.history.HistoryCommand(out, err).run(args);
                case "--help":
                case "-h":
                case "help":
                    out.println(USAGE);
                    return OK;
                case "--version":
                    out.println("mmcheck " + Version.get());
                    return OK;
                default:
                    throw new UsageException("unknown command '" + args[0] + "' (try 'mmcheck --help')");
            }
        } catch (UsageException | TraceFormatException e) {
            err.println("mmcheck: " + e.getMessage());
            return BAD_INPUT;
        } catch (NoSuchFileException e) {
            err.println("mmcheck: " + e.getFile() + ": no such file");
            return BAD_INPUT;
        } catch (IOException | UncheckedIOException e) {
            err.println("mmcheck: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return BAD_INPUT;
        }
    }

    private int merge(String[] args) throws UsageException, IOException {
        List<Path> inputs = new java.util.ArrayList<>();
        Path report = null;
        Path sarif = null;
        Path html = null;
        boolean quiet = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (List.of("--report", "--sarif", "--html").contains(name)) {
                String v = a.contains("=") ? a.substring(a.indexOf('=') + 1) : value(args, ++i, name);
                if (v.isEmpty()) {
                    throw new UsageException(name + " needs a file name");
                }
                switch (name) {
                    case "--report" -> report = Path.of(v);
                    case "--sarif" -> sarif = Path.of(v);
                    default -> html = Path.of(v);
                }
            } else if (a.equals("--quiet")) {
                quiet = true;
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option '" + a + "' for merge");
            } else {
                inputs.add(Path.of(a));
            }
        }
        if (inputs.isEmpty()) {
            throw new UsageException("merge needs at least one report (" + MERGE_USAGE.lines().findFirst().orElse("")
                    + ")");
        }
        for (Path p : inputs) {
            if (!java.nio.file.Files.isRegularFile(p)) {
                throw new UsageException(p + ": no such file");
            }
        }
        dev.mmcheck.checker.report.Merge.Merged m;
        try {
            m = dev.mmcheck.checker.report.Merge.of(inputs);
        } catch (dev.mmcheck.checker.report.Merge.MergeException e) {
            throw new UsageException(e.getMessage());
        }
        Triage.Outcome outcome = Triage.none().apply(m.findings());
        String source = "merge of " + m.reports() + " reports";
        if (!quiet) {
            for (String line : Summary.lines(source, m.result(), outcome)) {
                out.println(line);
            }
        }
        if (report != null) {
            JsonReport.write(report, source, m.complete(), m.result(), Map.of("reports", m.reports()), outcome);
        }
        if (sarif != null) {
            SarifReport.write(sarif, source, m.complete(), m.result(), outcome);
        }
        if (html != null) {
            HtmlReport.write(html, source, m.complete(), m.result(), outcome);
        }
        return outcome.failing() > 0 ? VIOLATIONS : m.complete() && m.result().complete() ? OK : INCOMPLETE;
    }

    private int replay(String[] args) throws UsageException, IOException, TraceFormatException {
        Path trace = null;
        Path report = null;
        boolean quiet = false;
        Set<Analysis> analyses = EnumSet.of(Analysis.TSO, Analysis.PSO);
        boolean chosen = false;
        Path sarif = null;
        Path html = null;
        Path suppress = null;
        Path baseline = null;
        Set<Category> failOn = EnumSet.allOf(Category.class);
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (List.of("--sarif", "--html", "--suppress", "--baseline", "--fail-on").contains(name)) {
                String v = a.contains("=") ? a.substring(a.indexOf('=') + 1) : value(args, ++i, name);
                if (v.isEmpty()) {
                    throw new UsageException(name + " needs a value");
                }
                switch (name) {
                    case "--sarif" -> sarif = Path.of(v);
                    case "--html" -> html = Path.of(v);
                    case "--suppress" -> suppress = Path.of(v);
                    case "--baseline" -> baseline = Path.of(v);
                    default -> {
                        try {
                            failOn = Triage.categories(v);
                        } catch (Triage.TriageException e) {
                            throw new UsageException("--fail-on: " + e.getMessage());
                        }
                    }
                }
            } else if (a.equals("--models") || a.startsWith("--models=")) {
                String v = a.equals("--models") ? value(args, ++i, "--models") : a.substring("--models=".length());
                analyses = analyses(v);
                chosen = true;
            } else if (a.equals("--report") || a.startsWith("--report=")) {
                String v = a.equals("--report") ? value(args, ++i, "--report") : a.substring("--report=".length());
                if (v.isEmpty()) {
                    throw new UsageException("--report needs a file name");
                }
                report = Path.of(v);
            } else if (a.equals("--quiet")) {
                quiet = true;
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option '" + a + "' for replay");
            } else if (trace == null) {
                trace = Path.of(a);
            } else {
                throw new UsageException("replay takes one trace, got also '" + a + "'");
            }
        }
        if (trace == null) {
            throw new UsageException("replay needs a trace file");
        }
        Triage triage;
        try {
            triage = Triage.load(suppress, baseline, failOn);
        } catch (Triage.TriageException e) {
            throw new UsageException(e.getMessage());
        }
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
        if (!quiet) {
            for (String line : Summary.lines(trace.toString(), result, outcome)) {
                out.println(line);
            }
        }
        if (report != null) {
            JsonReport.write(report, trace.toString(), read.complete(), result, Map.of(), outcome);
            if (!quiet) {
                out.println("report written to " + report);
            }
        }
        if (sarif != null) {
            SarifReport.write(sarif, trace.toString(), read.complete(), result, outcome);
            if (!quiet) {
                out.println("SARIF written to " + sarif);
            }
        }
        if (html != null) {
            HtmlReport.write(html, trace.toString(), read.complete(), result, outcome);
            if (!quiet) {
                out.println("HTML written to " + html);
            }
        }
        return outcome.failing() > 0 ? VIOLATIONS : result.complete() ? OK : INCOMPLETE;
    }

    private static Set<Analysis> analyses(String list) throws UsageException {
        Set<Analysis> chosen = EnumSet.noneOf(Analysis.class);
        for (String name : list.split("[,:]")) {
            if (name.isBlank()) {
                continue;
            }
            Analysis a = Analysis.parse(name);
            if (a == null) {
                throw new UsageException("--models: unknown model '" + name.trim() + "' (choose from "
                        + Analysis.NAMES + ")");
            }
            chosen.add(a);
        }
        if (chosen.isEmpty()) {
            throw new UsageException("--models needs at least one of " + Analysis.NAMES);
        }
        return chosen;
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private int convert(String[] args) throws UsageException, IOException, TraceFormatException {
        if (args.length != 3) {
            throw new UsageException("convert takes an input and an output trace");
        }
        Path in = Path.of(args[1]);
        Path target = Path.of(args[2]);
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
