package dev.mmcheck.agent;

import dev.mmcheck.agent.rewrite.Transformation;
import dev.mmcheck.checker.engine.Fault;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.report.SourceRoots;
import dev.mmcheck.checker.report.Triage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The agent's options, JaCoCo style: {@code -javaagent:mmcheck.jar=KEY=VALUE,KEY=VALUE} (list items
 * separated by {@code :}), or {@code -Dmmcheck.KEY=VALUE}; agent arguments win over system
 * properties. Parsed and validated in one place: an unknown key or a malformed value is an
 * {@link OptionException} whose message is the one line the JVM prints before it stops. Immutable.
 *
 * @param report          where the JSON report goes
 * @param analyses        which monitors run
 * @param includes        class-name globs to instrument (empty: everything not excluded)
 * @param excludes        class-name globs not to instrument
 * @param trace           where to stream the binary trace, or null
 * @param failOnViolation exit with status 1 when anything was reported
 * @param selfCheck       record values and verify the checker's order against what reads returned
 * @param atomic          CLASS#METHOD globs of methods checked as atomic transactions
 * @param modelsChosen    whether models= was given (then exactly those analyses run; else tso:pso, and the
 *                        serializability checks from the first transaction on)
 * @param failOnError     exit with status 70 when the check is incomplete (a failure inside mmcheck, events
 *                        or classes left unchecked)
 * @param checkerMemory   bytes the checker's per-address tables may use before it forgets all history (0: a
 *                        eighth of the maximum heap: a table growing near the bound exists twice for a moment)
 * @param logEveryLoad    log repeated loads too (repeatedLoads=log): complete, slower on loops that re-read
 *                        many addresses (docs/agent.md, "Loads that are not logged")
 * @param injectFailure   STAGE@EVENT: make a stage of the checker fail at an event, for testing how mmcheck
 *                        reports its own failures; null for none
 * @param activeSchedule  schedule=active: pause threads briefly inside store-buffering and critical-section
 *                        windows (docs/schedules.md); false for schedule=os
 * @param seed            the seed of those pauses (seed=), or null to draw one
 * @param triage          suppression rules (suppress=), the baseline (baseline=) and the categories that fail the
 *                        run with failOnViolation (failOn=), read when the options are parsed
 * @param sarif           where to write the findings as SARIF, or null
 * @param html            where to write them as an HTML page, or null
 * @param progressSeconds print a progress line every so many seconds (progress=), 0 for none
 * @param sample          the fraction of objects whose plain accesses are logged (sample=, docs/sampling.md); 1
 *                        logs them all
 * @param syncAsFences    sync=fences: under sample=, the synchronization of unsampled objects is logged as the
 *                        fence it is, without its address (docs/sampling.md); false (sync=addresses) logs it whole
 * @param solo            solo=on (default): a thread's plain accesses go unlogged while it is the only thread that
 *                        logs (docs/agent.md, "Accesses of a thread running alone"); solo=off logs them
 * @param overhead        how far an event goes (overhead=, for measuring mmcheck's own cost layer by layer:
 *                        docs/performance.md); anything but {@link Layer#CHECK} checks nothing, and the run says so
 * @param bufferBound     the TSO and PSO store buffers' bound (bufferBound=)
 * @param jmmAddresses    how many live addresses the jmm analysis tracks at once (jmmAddresses=, docs/jmm-model.md)
 * @param sourceRoots     where the SARIF file finds source files (sourceRoots=), or null for the conventional
 *                        roots under the working directory (docs/build.md, "SARIF on GitHub")
 * @param synthetic       synthetic=true: also instrument the plain accesses to synthetic fields (this$0, $assertionsDisabled,
 *                        an enum's $VALUES...), left alone by default (docs/agent.md, "Synthetic members and other agents")
 */
public record Options(Path report, Set<Analysis> analyses, List<String> includes, List<String> excludes, Path trace,
        boolean failOnViolation, boolean selfCheck, List<String> atomic, boolean modelsChosen, boolean failOnError,
        long checkerMemory, boolean logEveryLoad, String injectFailure, boolean activeSchedule, Long seed,
        Triage triage, Path sarif, Path html, int progressSeconds, double sample, boolean syncAsFences, boolean solo,
        Layer overhead, int bufferBound, int jmmAddresses, SourceRoots sourceRoots,
        boolean synthetic) {

    /**
     * How far an event goes in a run: {@code overhead=}, RoadRunner's "empty tool" taken layer by layer, so that a
     * benchmark can say which layer a workload's cost comes from (bench/agent-overhead.sh with {@code LAYERS=1}).
     */
    public enum Layer {
        /** The application's classes are rewritten and their probes run, but each returns at its first test: nothing is logged. */
        REWRITE("rewrite"),
        /** Every event is logged, and the checker thread takes the events in order (the merge) without looking at them. */
        LOG("log"),
        /** As {@link #LOG}, and the checker thread also gives each accessed address its id (the object identities). */
        IDS("ids"),
        /** A normal run: the events reach the analyses. */
        CHECK("check");

        /** The option's value. */
        public final String value;

        Layer(String value) {
            this.value = value;
        }

        /** Whether the checker thread gives addresses their ids. */
        public boolean identifies() {
            return this == IDS || this == CHECK;
        }
    }

    /** The store buffers' bound when bufferBound= is not given (MonitorConfig.defaults()). */
    public static final int DEFAULT_BUFFER_BOUND = 4096;

    /** bufferBound=N (at least 1) or none (unbounded). */
    private static int bufferBound(String v) throws OptionException {
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
        throw new OptionException("option bufferBound=" + v + " must be a whole number of stores, at least 1, or none");
    }

    /** jmmAddresses=N, at least 1. */
    private static int jmmAddresses(String v) throws OptionException {
        if (v.matches("\\d{1,9}") && Integer.parseInt(v) >= 1) {
            return Integer.parseInt(v);
        }
        throw new OptionException("option jmmAddresses=" + v + " must be a whole number of addresses, at least 1");
    }

    /** The schedule when schedule= is not given (docs/schedules.md says why). */
    public static final String DEFAULT_SCHEDULE = "active";

    /** The option keys, in the order the help lists them. */
    public static final List<String> KEYS = List.of("report", "models", "includes", "excludes", "trace",
            "failOnViolation", "selfCheck", "atomic", "failOnError", "checkerMemory", "repeatedLoads", "injectFailure", "schedule", "seed",
            "failOn", "suppress", "baseline", "sarif", "html", "progress", "sample", "sync", "solo", "overhead", "bufferBound",
            "jmmAddresses", "sourceRoots", "synthetic");

    /**
     * Infrastructure that is not the code under test, excluded unless {@code excludes} is given: test runners
     * (JUnit, TestNG, Surefire, Gradle's workers), mocking libraries (Mockito, EasyMock) and assertion libraries
     * (AssertJ, Hamcrest). Their synchronization is still logged (docs/agent.md).
     */
    public static final List<String> DEFAULT_EXCLUDES = List.of("org.junit.*", "junit.*", "org.opentest4j.*",
            "org.apiguardian.*", "org.apache.maven.*", "org.gradle.*", "worker.org.gradle.*", "org.testng.*",
            "org.mockito.*", "org.easymock.*", "org.assertj.*", "org.hamcrest.*");

    private static final Pattern GLOB = Pattern.compile("[A-Za-z0-9_$.*?]+");
    private static final Pattern METHOD_GLOB = Pattern.compile("[A-Za-z0-9_$.*?]+#[A-Za-z0-9_$*?<>]+");

    /** A malformed option: the message names the option and what is wrong. */
    public static final class OptionException extends Exception {
        private static final long serialVersionUID = 1L;

        OptionException(String message) {
            super(message);
        }
    }

    /** Parses agent arguments (may be null or empty) and {@code mmcheck.*} system properties. */
    public static Options parse(String agentArgs, Properties system) throws OptionException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith("mmcheck.")) {
                String key = name.substring("mmcheck.".length());
                values.put(known(key, "-D" + name), system.getProperty(name));
            }
        }
        if (agentArgs != null && !agentArgs.isBlank()) {
            for (String pair : agentArgs.split(",")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new OptionException("agent argument '" + pair + "' is not KEY=VALUE");
                }
                values.put(known(pair.substring(0, eq).trim(), "agent argument"), pair.substring(eq + 1).trim());
            }
        }
        Path report = path(values.getOrDefault("report", "mmcheck-report.json"), "report");
        Set<Analysis> analyses = analyses(values.getOrDefault("models", "tso:pso"));
        List<String> includes = globs(values.get("includes"), "includes", GLOB);
        List<String> excludes = values.containsKey("excludes") ? globs(values.get("excludes"), "excludes", GLOB)
                : DEFAULT_EXCLUDES;
        Path trace = values.containsKey("trace") ? path(values.get("trace"), "trace") : null;
        boolean fail = bool(values.getOrDefault("failOnViolation", "false"), "failOnViolation");
        boolean self = bool(values.getOrDefault("selfCheck", "false"), "selfCheck");
        List<String> atomic = globs(values.get("atomic"), "atomic", METHOD_GLOB);
        boolean failOnError = bool(values.getOrDefault("failOnError", "true"), "failOnError");
        String inject = values.get("injectFailure");
        if (inject != null && !inject.startsWith("checker-loop@") && Fault.parse(inject) == null) {
            throw new OptionException("option injectFailure=" + inject + " must be STAGE@EVENT, STAGE one of "
                    + String.join(", ", Fault.STAGES) + ", checker-loop");
        }
        if (inject != null && inject.startsWith("checker-loop@")
                && Fault.parse("core" + inject.substring("checker-loop".length())) == null) {
            throw new OptionException("option injectFailure=" + inject + ": the event must be a number >= 0");
        }
        long memory = values.containsKey("checkerMemory") ? size(values.get("checkerMemory"), "checkerMemory") : 0;
        String repeats = values.getOrDefault("repeatedLoads", "skip");
        if (!repeats.equals("skip") && !repeats.equals("log")) {
            throw new OptionException("option repeatedLoads=" + repeats + " must be skip or log");
        }
        String schedule = values.getOrDefault("schedule", DEFAULT_SCHEDULE);
        if (!schedule.equals("os") && !schedule.equals("active")) {
            throw new OptionException("option schedule=" + schedule + " must be os or active");
        }
        Long seed = null;
        if (values.containsKey("seed")) {
            try {
                seed = Long.parseLong(values.get("seed"));
            } catch (NumberFormatException e) {
                throw new OptionException("option seed=" + values.get("seed") + " must be a whole number");
            }
        }
        double sample = sample(values.get("sample"));
        if (seed != null && schedule.equals("os") && sample >= 1) {
            throw new OptionException("option seed=" + seed + " has no effect with schedule=os and without sample=");
        }
        String sync = values.getOrDefault("sync", "addresses");
        if (!sync.equals("addresses") && !sync.equals("fences")) {
            throw new OptionException("option sync=" + sync + " must be addresses or fences");
        }
        if (sync.equals("fences") && sample >= 1) {
            throw new OptionException("option sync=fences has no effect without sample= (it says how a sampled run logs "
                    + "the synchronization of the objects it does not sample)");
        }
        String solo = values.getOrDefault("solo", "on");
        if (!solo.equals("on") && !solo.equals("off")) {
            throw new OptionException("option solo=" + solo + " must be on or off");
        }
        int bufferBound = bufferBound(values.getOrDefault("bufferBound", String.valueOf(DEFAULT_BUFFER_BOUND)));
        int jmmAddresses = jmmAddresses(values.getOrDefault("jmmAddresses",
                String.valueOf(dev.mmcheck.checker.jmm.JmmAnalyzer.DEFAULT_BOUND)));
        Layer overhead = layer(values.getOrDefault("overhead", "check"));
        if (overhead != Layer.CHECK && (trace != null || self)) {
            throw new OptionException("option overhead=" + overhead.value + " checks nothing, so it cannot be combined with "
                    + (trace != null ? "trace= (no event would reach the trace)" : "selfCheck=true (no read would be checked)"));
        }
        boolean modelsChosen = values.containsKey("models");
        if (sample < 1) {
            // docs/sampling.md: with plain accesses of some objects unlogged, only PSO's reports stay genuine
            if (!modelsChosen) {
                analyses = EnumSet.of(Analysis.PSO);
                modelsChosen = true; // and no serializability check starts with the first transaction
            } else if (!analyses.equals(EnumSet.of(Analysis.PSO))) {
                throw new OptionException("option sample=" + values.get("sample") + " checks PSO only (TSO's store "
                        + "order, Sober and the serializability checks need every access: docs/sampling.md); give "
                        + "models=pso or leave models= out");
            }
            if (self) {
                throw new OptionException("option sample=" + values.get("sample") + " cannot be combined with "
                        + "selfCheck=true (the self-check needs every access)");
            }
            if (trace != null) {
                throw new OptionException("option sample=" + values.get("sample") + " cannot be combined with "
                        + "trace= (a sampled run's events are only sound under PSO, which a trace file cannot say)");
            }
            if (!atomic.isEmpty()) {
                throw new OptionException("option sample=" + values.get("sample") + " cannot be combined with "
                        + "atomic= (the serializability checks need every access)");
            }
        }
        Triage triage;
        try {
            triage = Triage.load(values.containsKey("suppress") ? path(values.get("suppress"), "suppress") : null,
                    values.containsKey("baseline") ? path(values.get("baseline"), "baseline") : null,
                    Triage.categories(values.getOrDefault("failOn", "all")));
        } catch (Triage.TriageException e) {
            throw new OptionException((e.getMessage().startsWith("unknown category") ? "option failOn: " : "")
                    + e.getMessage());
        }
        if (RunName.forkedBooter(system.getProperty("sun.java.command")) || List.of("report", "sarif", "html").stream()
                .anyMatch(k -> values.getOrDefault(k, "").contains("%p"))) {
            // one of several JVMs whose reports are merged: no baseline from this one's findings alone, no rule
            // called unused for not matching here (docs/build.md, "Forks")
            triage = triage.partialRun();
        }
        Path sarif = values.containsKey("sarif") ? path(values.get("sarif"), "sarif") : null;
        Path html = values.containsKey("html") ? path(values.get("html"), "html") : null;
        SourceRoots roots = null;
        if (values.containsKey("sourceRoots")) {
            try {
                roots = SourceRoots.parse(values.get("sourceRoots"));
            } catch (IllegalArgumentException e) {
                throw new OptionException("option sourceRoots=" + values.get("sourceRoots") + ": " + e.getMessage()
                        + " (directories separated by '" + java.io.File.pathSeparator + "')");
            }
        }
        int progress = 0;
        if (values.containsKey("progress")) {
            String v = values.get("progress");
            if (!v.matches("\\d{1,6}") || Integer.parseInt(v) < 1) {
                throw new OptionException("option progress=" + v + " must be a number of seconds, at least 1");
            }
            progress = Integer.parseInt(v);
        }
        boolean synthetic = bool(values.getOrDefault("synthetic", "false"), "synthetic");
        return new Options(report, analyses, includes, excludes, trace, fail, self, atomic,
                modelsChosen, failOnError, memory, repeats.equals("log"), inject,
                schedule.equals("active"), seed, triage, sarif, html, progress, sample,
                sync.equals("fences"), solo.equals("on"), overhead, bufferBound, jmmAddresses, roots, synthetic);
    }

    /** overhead=rewrite|log|ids|check. */
    private static Layer layer(String v) throws OptionException {
        for (Layer l : Layer.values()) {
            if (l.value.equals(v)) {
                return l;
            }
        }
        throw new OptionException("option overhead=" + v + " must be rewrite, log, ids or check (check, the default, is a "
                + "normal run; the others measure mmcheck's own cost and check nothing)");
    }

    /** sample=R: a decimal number above 0 and at most 1; absent is 1. */
    private static double sample(String v) throws OptionException {
        if (v == null) {
            return 1;
        }
        double r;
        try {
            r = v.matches("\\d*\\.?\\d+([eE]-?\\d+)?") ? Double.parseDouble(v) : Double.NaN;
        } catch (NumberFormatException e) {
            r = Double.NaN;
        }
        if (!(r > 0 && r <= 1)) {
            throw new OptionException("option sample=" + v + " must be a number above 0 and at most 1, such as 0.05");
        }
        return r;
    }

    private static String known(String key, String where) throws OptionException {
        for (String k : KEYS) {
            if (k.equals(key)) {
                return k;
            }
        }
        throw new OptionException("unknown option '" + key + "' (" + where + "); known options: "
                + String.join(", ", KEYS));
    }

    /** A file name; {@code %p} in it becomes this JVM's process id, so that forks never share a file. */
    private static Path path(String v, String key) throws OptionException {
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
    private static long size(String v, String key) throws OptionException {
        java.util.regex.Matcher m = Pattern.compile("(\\d{1,12})([kKmMgG]?)").matcher(v);
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

    private static boolean bool(String v, String key) throws OptionException {
        switch (v.toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new OptionException("option " + key + "=" + v + " must be true or false");
        }
    }

    private static Set<Analysis> analyses(String v) throws OptionException {
        Set<Analysis> chosen = EnumSet.noneOf(Analysis.class);
        for (String name : v.split(":")) {
            if (name.isBlank()) {
                continue;
            }
            if (name.trim().equalsIgnoreCase("all")) {
                chosen.addAll(EnumSet.allOf(Analysis.class));
                continue;
            }
            Analysis a = Analysis.parse(name);
            if (a == null) {
                throw new OptionException("option models=" + v + ": unknown model '" + name.trim()
                        + "' (choose from " + Analysis.NAMES + ", separated by ':', or all)");
            }
            chosen.add(a);
        }
        if (chosen.isEmpty()) {
            throw new OptionException("option models needs at least one of " + Analysis.NAMES);
        }
        return chosen;
    }

    private static List<String> globs(String v, String key, Pattern shape) throws OptionException {
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        for (String g : v.split(":")) {
            if (g.isEmpty()) {
                continue;
            }
            if (!shape.matcher(g).matches()) {
                throw new OptionException("option " + key + ": '" + g + "' is not a valid pattern"
                        + (key.equals("atomic") ? " (expected CLASS#METHOD, e.g. com.example.Pool#take*)"
                        : " (a class name with * and ? wildcards)"));
            }
            out.add(g);
        }
        return out;
    }

    /**
     * Whether a serializability check can run: chosen in models=, or models= not given (then they start
     * with the first transaction). When not, atomic methods are not transactions at all: bracketing them
     * and logging every load would cost time for no check.
     */
    public boolean checksTransactions() {
        return !modelsChosen || analyses.contains(Analysis.SCSER) || analyses.contains(Analysis.TSOSER);
    }

    /**
     * Whether the run declares transactions up front: a serializability check chosen, or atomic= given
     * and a serializability check can run.
     */
    public boolean declaresTransactions() {
        return analyses.contains(Analysis.SCSER) || analyses.contains(Analysis.TSOSER)
                || (!atomic.isEmpty() && checksTransactions());
    }

    /** Whether the class with binary name {@code className} (dots) is to be instrumented. */
    public boolean instruments(String className) {
        for (String own : Transformation.AGENT_PACKAGES) {
            if (className.startsWith(own)) {
                return false; // the agent itself, and everything it shades
            }
        }
        for (String g : excludes) {
            if (matches(g, className)) {
                return false;
            }
        }
        if (includes.isEmpty()) {
            return true;
        }
        for (String g : includes) {
            if (matches(g, className)) {
                return true;
            }
        }
        return false;
    }

    /** Whether method {@code method} of class {@code className} was declared atomic with the option. */
    public boolean atomic(String className, String method) {
        for (String g : atomic) {
            int hash = g.indexOf('#');
            if (matches(g.substring(0, hash), className) && matches(g.substring(hash + 1), method)) {
                return true;
            }
        }
        return false;
    }

    /** JaCoCo's wildcards: {@code *} any characters, {@code ?} one. */
    static boolean matches(String glob, String name) {
        return matches(glob, 0, name, 0);
    }

    private static boolean matches(String g, int gi, String n, int ni) {
        while (gi < g.length()) {
            char c = g.charAt(gi);
            if (c == '*') {
                for (int k = ni; k <= n.length(); k++) {
                    if (matches(g, gi + 1, n, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (ni >= n.length() || (c != '?' && c != n.charAt(ni))) {
                return false;
            }
            gi++;
            ni++;
        }
        return ni == n.length();
    }
}
