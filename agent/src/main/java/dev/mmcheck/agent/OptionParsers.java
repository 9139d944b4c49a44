package dev.mmcheck.agent;

import dev.mmcheck.agent.Options.Layer;
import dev.mmcheck.agent.Options.OptionException;
import dev.mmcheck.checker.engine.Fault;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.report.SourceRoots;
import dev.mmcheck.checker.report.Triage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parsers of single option values that {@link OptionTable}'s entries name: each takes the option's key and its
 * text and returns the typed value, or throws an {@link OptionException} whose message is the one line the JVM prints.
 */
final class OptionParsers {

    /** A class-name glob: {@code includes=} and {@code excludes=}. */
    static final Pattern GLOB = Pattern.compile("[A-Za-z0-9_$.*?]+");
    /** A CLASS#METHOD glob: {@code atomic=}. */
    static final Pattern METHOD_GLOB = Pattern.compile("[A-Za-z0-9_$.*?]+#[A-Za-z0-9_$*?<>]+");

    private OptionParsers() {
    }

    /** A file name; {@code %p} in it becomes this JVM's process id, so that forks never share a file. */
    static Path path(String key, String v) throws OptionException {
        if (v.isEmpty()) {
            throw new OptionException("option " + key + " needs a file name");
        }
        try {
            return Path.of(v.replace("%p", String.valueOf(ProcessHandle.current().pid())));
        } catch (RuntimeException e) {
            throw new OptionException("option " + key + "=" + v + " is not a valid path");
        }
    }

    /** A size such as {@code 512m}, {@code 2g}, {@code 65536} (bytes), at least 1 MiB. */
    static long size(String key, String v) throws OptionException {
        Matcher m = Pattern.compile("(\\d{1,12})([kKmMgG]?)").matcher(v);
        if (!m.matches()) {
            throw new OptionException("option " + key + "=" + v + " must be a size such as 256m or 2g");
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> n <<= 10;
            case "m" -> n <<= 20;
            case "g" -> n <<= 30;
            default -> { }
        }
        if (n < (1 << 20)) {
            throw new OptionException("option " + key + "=" + v + " is below the least of 1m");
        }
        return n;
    }

    /** true or false, in any case. */
    static boolean bool(String key, String v) throws OptionException {
        switch (v.toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new OptionException("option " + key + "=" + v + " must be true or false");
        }
    }

    /** One of two words: whether it is the second ({@code yes}), e.g. skip|log is whether to log. */
    static boolean either(String key, String v, String no, String yes) throws OptionException {
        if (!v.equals(no) && !v.equals(yes)) {
            throw new OptionException("option " + key + "=" + v + " must be " + no + " or " + yes);
        }
        return v.equals(yes);
    }

    /** models=LIST: analyses separated by ':', or all. */
    static Set<Analysis> analyses(String key, String v) throws OptionException {
        Analysis.Chosen chosen = Analysis.parseList(v, ":");
        if (chosen.unknown() != null) {
            throw new OptionException("option " + key + "=" + v + ": unknown model '" + chosen.unknown()
                    + "' (choose from " + Analysis.NAMES + ", separated by ':', or all)");
        }
        if (chosen.analyses().isEmpty()) {
            throw new OptionException("option " + key + " needs at least one of " + Analysis.NAMES);
        }
        return chosen.analyses();
    }

    /** Globs separated by ':', each of the given shape. */
    static List<String> globs(String key, String v, Pattern shape) throws OptionException {
        List<String> out = new ArrayList<>();
        for (String g : v.split(":")) {
            if (g.isEmpty()) {
                continue;
            }
            if (!shape.matcher(g).matches()) {
                throw new OptionException("option " + key + ": '" + g + "' is not a valid pattern"
                        + (shape == METHOD_GLOB ? " (expected CLASS#METHOD, e.g. com.example.Pool#take*)"
                        : " (a class name with * and ? wildcards)"));
            }
            out.add(g);
        }
        return out;
    }

    /** injectFailure=STAGE@EVENT, STAGE a checker stage or checker-loop. */
    static String injectFailure(String key, String v) throws OptionException {
        if (!v.startsWith("checker-loop@") && Fault.parse(v) == null) {
            throw new OptionException("option " + key + "=" + v + " must be STAGE@EVENT, STAGE one of "
                    + String.join(", ", Fault.STAGES) + ", checker-loop");
        }
        if (v.startsWith("checker-loop@") && Fault.parse("core" + v.substring("checker-loop".length())) == null) {
            throw new OptionException("option " + key + "=" + v + ": the event must be a number >= 0");
        }
        return v;
    }

    /** seed=N, a whole number. */
    static Long seed(String key, String v) throws OptionException {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new OptionException("option " + key + "=" + v + " must be a whole number");
        }
    }

    /** failOn=CATEGORIES: checked here, the set taken by {@link Triage#load} when the options are parsed. */
    static String categories(String key, String v) throws OptionException {
        try {
            Triage.categories(v);
            return v;
        } catch (Triage.TriageException e) {
            throw new OptionException((e.getMessage().startsWith("unknown category") ? "option " + key + ": " : "")
                    + e.getMessage());
        }
    }

    /** progress=SECONDS, at least 1. */
    static int progress(String key, String v) throws OptionException {
        if (!v.matches("\\d{1,6}") || Integer.parseInt(v) < 1) {
            throw new OptionException("option " + key + "=" + v + " must be a number of seconds, at least 1");
        }
        return Integer.parseInt(v);
    }

    /** sample=R: a decimal number above 0 and at most 1. */
    static double sample(String key, String v) throws OptionException {
        double r;
        try {
            r = v.matches("\\d*\\.?\\d+([eE]-?\\d+)?") ? Double.parseDouble(v) : Double.NaN;
        } catch (NumberFormatException e) {
            r = Double.NaN;
        }
        if (!(r > 0 && r <= 1)) {
            throw new OptionException("option " + key + "=" + v + " must be a number above 0 and at most 1, such as 0.05");
        }
        return r;
    }

    /** overhead=rewrite|log|ids|check. */
    static Layer layer(String key, String v) throws OptionException {
        for (Layer l : Layer.values()) {
            if (l.value.equals(v)) {
                return l;
            }
        }
        throw new OptionException("option " + key + "=" + v + " must be rewrite, log, ids or check (check, the default, "
                + "is a normal run; the others measure mmcheck's own cost and check nothing)");
    }

    /** bufferBound=N (at least 1) or none (unbounded). */
    static int bufferBound(String key, String v) throws OptionException {
        if (v.equals("none")) {
            return Integer.MAX_VALUE;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new OptionException("option " + key + "=" + v + " must be a whole number of stores, at least 1, or none");
    }

    /** jmmAddresses=N, at least 1. */
    static int jmmAddresses(String key, String v) throws OptionException {
        if (v.matches("\\d{1,9}") && Integer.parseInt(v) >= 1) {
            return Integer.parseInt(v);
        }
        throw new OptionException("option " + key + "=" + v + " must be a whole number of addresses, at least 1");
    }

    /** jmmWriteLog=N (at least 1) or none (every write kept). */
    static int jmmWriteLog(String key, String v) throws OptionException {
        if (v.equals("none")) {
            return Integer.MAX_VALUE;
        }
        if (v.matches("\\d{1,9}") && Integer.parseInt(v) >= 1) {
            return Integer.parseInt(v);
        }
        throw new OptionException("option " + key + "=" + v + " must be a whole number of writes, at least 1, or none");
    }

    /** sourceRoots=DIRS, separated by the platform's path separator. */
    static SourceRoots sourceRoots(String key, String v) throws OptionException {
        try {
            return SourceRoots.parse(v);
        } catch (IllegalArgumentException e) {
            throw new OptionException("option " + key + "=" + v + ": " + e.getMessage()
                    + " (directories separated by '" + java.io.File.pathSeparator + "')");
        }
    }
}
