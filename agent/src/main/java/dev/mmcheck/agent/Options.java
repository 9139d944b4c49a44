package dev.mmcheck.agent;

import dev.mmcheck.agent.check.TraceTee;
import dev.mmcheck.agent.rewrite.Transformation;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.report.SourceRoots;
import dev.mmcheck.checker.report.Triage;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static dev.mmcheck.agent.OptionTable.ATOMIC;
import static dev.mmcheck.agent.OptionTable.BASELINE;
import static dev.mmcheck.agent.OptionTable.BUFFER_BOUND;
import static dev.mmcheck.agent.OptionTable.CHECKER_MEMORY;
import static dev.mmcheck.agent.OptionTable.EXCLUDES;
import static dev.mmcheck.agent.OptionTable.FAIL_ON;
import static dev.mmcheck.agent.OptionTable.FAIL_ON_ERROR;
import static dev.mmcheck.agent.OptionTable.FAIL_ON_VIOLATION;
import static dev.mmcheck.agent.OptionTable.HTML;
import static dev.mmcheck.agent.OptionTable.INCLUDES;
import static dev.mmcheck.agent.OptionTable.INJECT_FAILURE;
import static dev.mmcheck.agent.OptionTable.JMM_ADDRESSES;
import static dev.mmcheck.agent.OptionTable.JMM_VALIDATED_READS;
import static dev.mmcheck.agent.OptionTable.JMM_WRITE_LOG;
import static dev.mmcheck.agent.OptionTable.MODELS;
import static dev.mmcheck.agent.OptionTable.OVERHEAD;
import static dev.mmcheck.agent.OptionTable.PROGRESS;
import static dev.mmcheck.agent.OptionTable.REPEATED_LOADS;
import static dev.mmcheck.agent.OptionTable.REPORT;
import static dev.mmcheck.agent.OptionTable.SAMPLE;
import static dev.mmcheck.agent.OptionTable.SARIF;
import static dev.mmcheck.agent.OptionTable.SCHEDULE;
import static dev.mmcheck.agent.OptionTable.SEED;
import static dev.mmcheck.agent.OptionTable.FIX;
import static dev.mmcheck.agent.OptionTable.SELF_CHECK;
import static dev.mmcheck.agent.OptionTable.SOLO;
import static dev.mmcheck.agent.OptionTable.SOURCE_ROOTS;
import static dev.mmcheck.agent.OptionTable.SUPPRESS;
import static dev.mmcheck.agent.OptionTable.SYNC;
import static dev.mmcheck.agent.OptionTable.SYNTHETIC;
import static dev.mmcheck.agent.OptionTable.TRACE;

/**
 * The agent's options, JaCoCo style: {@code -javaagent:mmcheck.jar=KEY=VALUE,KEY=VALUE} (list items
 * separated by {@code :}), or {@code -Dmmcheck.KEY=VALUE}; agent arguments win over system
 * properties. Each key's default, parser, validation and doc line are its entry in {@link OptionTable}; this record
 * is the typed view the rest of the agent reads. An unknown key or a malformed value is an {@link OptionException}
 * whose message is the one line the JVM prints before it stops. Immutable.
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
 * @param jmmValidatedReads the jmm analysis drops stale reads a re-read validates (jmmValidatedReads=, docs/jmm-model.md)
 * @param jmmWriteLog     how many latest writes of each location the jmm analysis keeps at least (jmmWriteLog=)
 * @param sourceRoots     where the SARIF file finds source files (sourceRoots=), or null for the conventional
 *                        roots under the working directory (docs/build.md, "SARIF on GitHub")
 * @param synthetic       synthetic=true: also instrument the plain accesses to synthetic fields (this$0, $assertionsDisabled,
 *                        an enum's $VALUES...), left alone by default (docs/agent.md, "Synthetic members and other agents")
 * @param fix             fix=true: at exit, the fewest changes that remove every finding, proven by replay (docs/fix.md)
 */
public record Options(Path report, Set<Analysis> analyses, List<String> includes, List<String> excludes, Path trace,
        boolean failOnViolation, boolean selfCheck, List<String> atomic, boolean modelsChosen, boolean failOnError,
        long checkerMemory, boolean logEveryLoad, String injectFailure, boolean activeSchedule, Long seed,
        Triage triage, Path sarif, Path html, int progressSeconds, double sample, boolean syncAsFences, boolean solo,
        Layer overhead, int bufferBound, int jmmAddresses, boolean jmmValidatedReads, int jmmWriteLog,
        SourceRoots sourceRoots,
        boolean synthetic, boolean fix) {

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

    /** The schedule when schedule= is not given (docs/schedules.md says why). */
    public static final String DEFAULT_SCHEDULE = "active";

    /**
     * Infrastructure that is not the code under test, excluded unless {@code excludes} is given: test runners
     * (JUnit, TestNG, Surefire, Gradle's workers), mocking libraries (Mockito, EasyMock, and what Mockito runs on:
     * Byte Buddy, Objenesis) and assertion libraries (AssertJ, Hamcrest). Their synchronization is still logged
     * (docs/agent.md).
     */
    public static final List<String> DEFAULT_EXCLUDES = List.of("org.junit.*", "junit.*", "org.opentest4j.*",
            "org.apiguardian.*", "org.apache.maven.*", "org.gradle.*", "worker.org.gradle.*", "org.testng.*",
            "org.mockito.*", "org.easymock.*", "net.bytebuddy.*", "org.objenesis.*", "org.assertj.*",
            "org.hamcrest.*");

    /** A malformed option: the message names the option and what is wrong. */
    public static final class OptionException extends Exception {
        private static final long serialVersionUID = 1L;

        OptionException(String message) {
            super(message);
        }
    }

    /**
     * Parses agent arguments (may be null or empty) and {@code mmcheck.*} system properties: each value by its
     * {@link OptionTable} entry, in the table's order, then the checks that involve several options.
     */
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
        Map<String, Object> p = new HashMap<>();
        for (OptionTable.Option<?> o : OptionTable.ALL) {
            p.put(o.key(), o.parse(values.get(o.key())));
        }
        return combined(values, p, system);
    }

    /** The options from their parsed values {@code p}, once the checks that involve several of them pass. */
    private static Options combined(Map<String, String> values, Map<String, Object> p, Properties system)
            throws OptionException {
        Path trace = TRACE.in(p);
        boolean self = SELF_CHECK.in(p);
        List<String> atomic = ATOMIC.in(p);
        boolean schedule = SCHEDULE.in(p);
        Long seed = SEED.in(p);
        double sample = SAMPLE.in(p);
        boolean fences = SYNC.in(p);
        Layer overhead = OVERHEAD.in(p);
        if (seed != null && !schedule && sample >= 1) {
            throw new OptionException("option seed=" + seed + " has no effect with schedule=os and without sample=");
        }
        if (fences && sample >= 1) {
            throw new OptionException("option sync=fences has no effect without sample= (it says how a sampled run logs "
                    + "the synchronization of the objects it does not sample)");
        }
        boolean fix = FIX.in(p);
        if (trace != null && trace.getParent() != null && trace.getParent().toString().contains("%t")) {
            throw new OptionException("option trace=" + values.get("trace") + ": %t (one trace per test) may only be in "
                    + "the file's name, not in a directory");
        }
        if (fix && trace != null && TraceTee.perTest(trace)) {
            throw new OptionException("option trace=" + values.get("trace") + " writes one trace per test (%t), but "
                    + "fix=true replays the whole run's: leave %t out, or fix=true");
        }
        if (fix && overhead != Layer.CHECK) {
            throw new OptionException("option overhead=" + overhead.value + " checks nothing, so it cannot be combined "
                    + "with fix=true (there would be no finding to remove)");
        }
        if (fix && sample < 1) {
            throw new OptionException("option sample=" + values.get("sample") + " cannot be combined with fix=true (the "
                    + "fix is proven by replaying the run's trace, and a sampled run's events are only sound under PSO)");
        }
        if (overhead != Layer.CHECK && (trace != null || self)) {
            throw new OptionException("option overhead=" + overhead.value + " checks nothing, so it cannot be combined with "
                    + (trace != null ? "trace= (no event would reach the trace)" : "selfCheck=true (no read would be checked)"));
        }
        Set<Analysis> analyses = MODELS.in(p);
        boolean modelsChosen = values.containsKey(MODELS.key());
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
            triage = Triage.load(SUPPRESS.in(p), BASELINE.in(p), Triage.categories(FAIL_ON.in(p)));
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
        return new Options(REPORT.in(p), analyses, INCLUDES.in(p), EXCLUDES.in(p), trace, FAIL_ON_VIOLATION.in(p), self,
                atomic, modelsChosen, FAIL_ON_ERROR.in(p), CHECKER_MEMORY.in(p), REPEATED_LOADS.in(p),
                INJECT_FAILURE.in(p), schedule, seed, triage, SARIF.in(p), HTML.in(p), PROGRESS.in(p), sample, fences,
                SOLO.in(p), overhead, BUFFER_BOUND.in(p), JMM_ADDRESSES.in(p), JMM_VALIDATED_READS.in(p),
                JMM_WRITE_LOG.in(p), SOURCE_ROOTS.in(p), SYNTHETIC.in(p), fix);
    }

    /**
     * Where the run's binary trace is streamed: {@code trace=}'s file, or, with {@code fix=true} and no {@code
     * trace=}, the report's file name with {@code .fix.mmct} (the fix replays it); null for none.
     */
    public Path traceFile() {
        if (trace != null || !fix) {
            return trace;
        }
        String name = report.getFileName().toString();
        return report.resolveSibling((name.endsWith(".json") ? name.substring(0, name.length() - 5) : name)
                + ".fix.mmct");
    }

    private static String known(String key, String where) throws OptionException {
        if (OptionTable.KEYS.contains(key)) {
            return key;
        }
        throw new OptionException("unknown option '" + key + "' (" + where + "); known options: "
                + String.join(", ", OptionTable.KEYS));
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
