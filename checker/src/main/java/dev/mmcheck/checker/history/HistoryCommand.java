package dev.mmcheck.checker.history;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code mmcheck check-history FILE [--model sc|tso|all] [--report FILE.json] [--ignore-times] [--quiet]}:
 * reads a history (text or JSON, told apart by its first character), decides SC and/or TSO conformance
 * and prints the verdicts with a witness or an explanation. Exit status: 0 consistent with every model
 * asked for, 1 inconsistent with one, 2 bad input or usage (one line on stderr, no stack trace).
 */
public final class HistoryCommand {

    /** The usage line Main shows. */
    public static final String USAGE =
            "mmcheck check-history FILE [--model sc|tso|all] [--report FILE.json] [--ignore-times] [--quiet]";

    private final PrintStream out;
    private final PrintStream err;

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
        try {
            return check(args);
        } catch (Usage e) {
            err.println("mmcheck: " + e.getMessage());
            return 2;
        } catch (HistoryFormatException e) {
            err.println("mmcheck: " + e.getMessage());
            return 2;
        } catch (NoSuchFileException e) {
            err.println("mmcheck: " + e.getFile() + ": no such file");
            return 2;
        } catch (AccessDeniedException e) {
            err.println("mmcheck: " + e.getFile() + ": permission denied");
            return 2;
        } catch (IOException e) {
            err.println("mmcheck: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        }
    }

    private int check(String[] args) throws Usage, IOException, HistoryFormatException {
        Path file = null;
        Path report = null;
        boolean sc = true;
        boolean tso = true;
        boolean ignoreTimes = false;
        boolean quiet = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--model") || a.startsWith("--model=")) {
                String v = a.equals("--model") ? value(args, ++i, "--model") : a.substring("--model=".length());
                switch (v) {
                    case "sc":
                        sc = true;
                        tso = false;
                        break;
                    case "tso":
                        sc = false;
                        tso = true;
                        break;
                    case "all":
                        sc = true;
                        tso = true;
                        break;
                    default:
                        throw new Usage("--model: unknown model '" + v + "' (choose sc, tso or all)");
                }
            } else if (a.equals("--report") || a.startsWith("--report=")) {
                String v = a.equals("--report") ? value(args, ++i, "--report") : a.substring("--report=".length());
                if (v.isEmpty()) {
                    throw new Usage("--report needs a file name");
                }
                report = Path.of(v);
            } else if (a.equals("--ignore-times")) {
                ignoreTimes = true;
            } else if (a.equals("--quiet")) {
                quiet = true;
            } else if (a.startsWith("-") && !a.equals("-")) {
                throw new Usage("unknown option '" + a + "' for check-history (usage: " + USAGE + ")");
            } else if (file == null) {
                file = Path.of(a);
            } else {
                throw new Usage("check-history takes one history file, got also '" + a + "'");
            }
        }
        if (file == null) {
            throw new Usage("check-history needs a history file (usage: " + USAGE + ")");
        }
        History h = read(file);
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

    private static String value(String[] args, int i, String option) throws Usage {
        if (i >= args.length) {
            throw new Usage(option + " needs a value");
        }
        return args[i];
    }

    /** Reads a history file: JSON if its first non-blank character is '{', else the text format. */
    public static History read(Path file) throws IOException, HistoryFormatException {
        String name = file.toString();
        if (Files.isDirectory(file)) {
            throw new HistoryFormatException(name, 0, "is a directory, not a history file");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new HistoryFormatException(name, 0, "is not UTF-8 text");
        }
        return parse(name, text);
    }

    /** Parses history {@code text} called {@code name}: JSON if it starts with '{', else text. */
    public static History parse(String name, String text) throws IOException, HistoryFormatException {
        String lead = text.stripLeading();
        if (lead.startsWith("\uFEFF")) {
            lead = lead.substring(1).stripLeading();
        }
        try (Reader r = new StringReader(text.startsWith("\uFEFF") ? text.substring(1) : text)) {
            return lead.startsWith("{") ? HistoryJson.read(name, r) : HistoryText.read(name, r);
        }
    }
}
