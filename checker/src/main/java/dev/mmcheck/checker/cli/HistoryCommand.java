package dev.mmcheck.checker.cli;

import dev.mmcheck.checker.history.History;
import dev.mmcheck.checker.history.HistoryChecker;
import dev.mmcheck.checker.history.HistoryFiles;
import dev.mmcheck.checker.history.HistoryFormatException;
import dev.mmcheck.checker.history.HistoryReport;
import dev.mmcheck.checker.history.HistoryResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code mmcheck check-history FILE [--model sc|tso|all] [--report FILE.json] [--ignore-times] [--quiet]}:
 * reads a history (text or JSON, told apart by its first character), decides SC and/or TSO conformance
 * and prints the verdicts with a witness or an explanation. Exit status: 0 consistent with every model
 * asked for, 1 inconsistent with one, 2 bad input or usage (one line on stderr, no stack trace). A
 * picocli command; {@link #oneLineErrors} is how every mmcheck command reports a mistake.
 */
@Command(name = "check-history", mixinStandardHelpOptions = true, description = "Decides whether a recorded history "
        + "(each thread's reads and writes with the values seen) was SC or TSO, with a witness or the cycle that rules "
        + "it out (docs/history.md).")
public final class HistoryCommand implements Callable<Integer> {

    /** The usage line Main shows. */
    public static final String USAGE =
            "mmcheck check-history FILE [--model sc|tso|all] [--report FILE.json] [--ignore-times] [--quiet]";

    /** What each command needs, for the line printed when it is missing. */
    private static final Map<String, String> NEEDS = Map.of("replay", "replay needs a trace file",
            "check-history", "check-history needs a history file (usage: " + USAGE + ")",
            "merge", "merge needs at least one report", "convert", "convert takes an input and an output trace");
    /** What a command takes one of, for the line printed when it gets more. */
    private static final Map<String, String> TAKES = Map.of("replay", "replay takes one trace",
            "check-history", "check-history takes one history file",
            "convert", "convert takes an input and an output trace");

    private final PrintStream out;
    private final PrintStream err;

    @Parameters(index = "0", paramLabel = "FILE", description = "the history (text, or JSON when it starts with '{')")
    Path file;
    @Option(names = "--model", paramLabel = "sc|tso|all", description = "the models to decide (default all)")
    String model = "all";
    @Option(names = "--report", paramLabel = "FILE.json", description = "write the JSON report")
    Path report;
    @Option(names = "--ignore-times", description = "do not use the operations' times")
    boolean ignoreTimes;
    @Option(names = "--quiet", description = "print nothing but errors")
    boolean quiet;

    /** A command printing to {@code out} and {@code err}. */
    public HistoryCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    private static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    /** Runs {@code check-history} with {@code args} (args[0] is "check-history"); returns the exit status. */
    public int run(String[] args) {
        return oneLineErrors(new CommandLine(this), out, err).execute(Arrays.copyOfRange(args, 1, args.length));
    }

    /**
     * Sets up {@code cl} so that a mistake (an unknown option or command, a missing or extra argument, an
     * unreadable or malformed file) is one line on {@code err}, {@code mmcheck: ...}, and exit status 2,
     * never a stack trace; {@code --help} prints to {@code out} and exits 0.
     */
    public static CommandLine oneLineErrors(CommandLine cl, PrintStream out, PrintStream err) {
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler((ex, args) -> {
            err.println("mmcheck: " + message(ex));
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof RuntimeException r && !(ex instanceof UncheckedIOException)) {
                throw r; // a bug: its stack matters
            }
            err.println("mmcheck: " + failure(ex));
            return 2;
        });
        return cl;
    }

    private static String message(CommandLine.ParameterException ex) {
        String command = ex.getCommandLine().getCommandName();
        boolean root = ex.getCommandLine().getParent() == null && !NEEDS.containsKey(command);
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().get(0);
            if (root) {
                return "unknown command '" + arg + "' (try 'mmcheck --help')";
            }
            if (arg.startsWith("-") && !arg.equals("-")) {
                return "unknown option '" + arg + "' for " + command;
            }
            return TAKES.getOrDefault(command, command + " takes fewer arguments") + ", got also '" + arg + "'";
        }
        if (ex instanceof CommandLine.MissingParameterException m) {
            for (CommandLine.Model.ArgSpec spec : m.getMissing()) {
                if (spec.isOption()) {
                    return ((CommandLine.Model.OptionSpec) spec).longestName() + " needs a value";
                }
            }
            return root ? "no command given (try 'mmcheck --help')"
                    : NEEDS.getOrDefault(command, command + " needs more arguments");
        }
        return ex.getMessage();
    }

    private static String failure(Exception e) {
        if (e instanceof NoSuchFileException n) {
            return n.getFile() + ": no such file";
        }
        if (e instanceof AccessDeniedException a) {
            return a.getFile() + ": permission denied";
        }
        if (e instanceof UncheckedIOException u && u.getCause() != null) {
            return failure(u.getCause());
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    @Override
    public Integer call() throws Usage, IOException, HistoryFormatException {
        boolean sc;
        boolean tso;
        switch (model) {
            case "sc" -> {
                sc = true;
                tso = false;
            }
            case "tso" -> {
                sc = false;
                tso = true;
            }
            case "all" -> {
                sc = true;
                tso = true;
            }
            default -> throw new Usage("--model: unknown model '" + model + "' (choose sc, tso or all)");
        }
        History h = HistoryFiles.read(file);
        HistoryResult r = HistoryChecker.check(h, HistoryChecker.Options.defaults().withModels(sc, tso)
                .withTimes(!ignoreTimes));
        if (!quiet) {
            for (String line : HistoryReport.lines(r)) {
                out.println(line);
            }
        }
        if (report != null) {
            HistoryReport.write(report, r);
            if (!quiet) {
                out.println("report written to " + report);
            }
        }
        return r.consistent() ? 0 : 1;
    }
}
