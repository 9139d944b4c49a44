package dev.mmcheck.agent;

import dev.mmcheck.agent.Options.Layer;
import dev.mmcheck.agent.Options.OptionException;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.jmm.JmmAnalyzer;
import dev.mmcheck.checker.report.SourceRoots;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agent's options as one table, in the style of JaCoCo's {@code AgentOptions}: one entry per key with the shape
 * of its value, its default, its parser (which also validates) and its doc line. The known keys (in the order an
 * unknown key's message lists them), the per-key error texts and the option table of docs/agent.md
 * ({@link Option#markdownRow}, checked by {@code OptionTableTest}) all come from here; checks that involve several
 * options are {@link Options#parse}'s.
 */
final class OptionTable {

    /** Parses one option's text: the key (for the message) and the value; throws with the one line to print. */
    @FunctionalInterface
    interface Parser<T> {
        /** The typed value of {@code value}, given for {@code key}. */
        T parse(String key, String value) throws OptionException;
    }

    /**
     * One option.
     *
     * @param key     the key, as in {@code key=VALUE} and {@code -Dmmcheck.key=VALUE}
     * @param shape   what its value looks like, for the docs ({@code PATH}, {@code skip|log})
     * @param absent  the text parsed when the key is not given, or null for {@code none}
     * @param none    the value when the key is not given and {@code absent} is null
     * @param shown   the default as the docs show it (markdown), or null for {@code absent} in backquotes
     * @param parser  parses and validates a given value
     * @param doc     its doc line: the docs table's "meaning" column
     * @param <T>     the value's type
     */
    record Option<T>(String key, String shape, String absent, T none, String shown, Parser<T> parser, String doc) {

        /** This option's value among the parsed ones. */
        @SuppressWarnings("unchecked")
        T in(Map<String, Object> parsed) {
            return (T) parsed.get(key);
        }

        /** Its value: {@code given} (null when the key is not given) parsed, or its default. */
        T parse(String given) throws OptionException {
            String text = given != null ? given : absent;
            return text != null ? parser.parse(key, text) : none;
        }

        /** Its row of docs/agent.md's option table. */
        String markdownRow() {
            return "| `" + key + "=" + shape.replace("|", "\\|") + "` | " + (shown != null ? shown : "`" + absent + "`")
                    + " | " + doc + " |";
        }
    }

    /** An option whose default is the value {@code absent} would give. */
    private static <T> Option<T> option(String key, String shape, String absent, Parser<T> parser, String doc) {
        return new Option<>(key, shape, absent, null, null, parser, doc);
    }

    /** An option whose default is a value of its own ({@code none}), shown in the docs as {@code shown}. */
    private static <T> Option<T> option(String key, String shape, T none, String shown, Parser<T> parser, String doc) {
        return new Option<>(key, shape, null, none, shown, parser, doc);
    }

    /** {@code report=PATH}. */
    static final Option<Path> REPORT = option("report", "PATH", "mmcheck-report.json", OptionParsers::path,
            "the JSON report; in every file option `%p` is replaced by the JVM's process id, so that concurrent "
            + "JVMs (Surefire's `forkCount=2`) never write the same file: `report=target/mmcheck/%p.json`");
    /** {@code models=LIST}. */
    static final Option<Set<Analysis>> MODELS = option("models", "LIST", "tso:pso", OptionParsers::analyses,
            "analyses to run: `tso`, `pso`, `sober`, `scser`, `tsoser`, `jmm` (Java's access modes as ARM and "
            + "POWER run them, docs/jmm-model.md), or `all`; without `models=`, `scser` and `tsoser` start by "
            + "themselves at the first transaction; with it, exactly the listed ones run (docs/serializability.md)."
            + " With `jmm` (as with `sober`) every load is logged, repeats too, and no solo period is granted: "
            + "neither shortcut is proven for it");
    /** {@code includes=GLOBS}. */
    static final Option<List<String>> INCLUDES = option("includes", "GLOBS", List.of(), "(all)",
            (k, v) -> OptionParsers.globs(k, v, OptionParsers.GLOB),
            "only classes matching one of these (`*` any characters, `?` one) are instrumented whole; the others are "
                    + "rewritten for their synchronization only, as `excludes=` does");
    /** {@code excludes=GLOBS}. */
    static final Option<List<String>> EXCLUDES = option("excludes", "GLOBS", Options.DEFAULT_EXCLUDES,
            "test runners, mocking and assertion libraries (`Options.DEFAULT_EXCLUDES`)",
            (k, v) -> OptionParsers.globs(k, v, OptionParsers.GLOB),
            "classes matching these are rewritten for their synchronization only (above)");
    /** {@code trace=PATH}. */
    static final Option<Path> TRACE = option("trace", "PATH", null, "(none)", OptionParsers::path,
            "also stream the events to a binary trace, for `mmcheck replay`; `%t` in the file's name writes one "
            + "per JUnit test instead, named after the test, which a failing test names (docs/build.md)");
    /** {@code failOnViolation=BOOL}. */
    static final Option<Boolean> FAIL_ON_VIOLATION = option("failOnViolation", "BOOL", "false", OptionParsers::bool,
            "exit with status 1 when a new finding (neither suppressed nor in the baseline) of a `failOn=` "
            + "category was reported");
    /** {@code selfCheck=BOOL}. */
    static final Option<Boolean> SELF_CHECK = option("selfCheck", "BOOL", "false", OptionParsers::bool,
            "record the value of every plain read and write, and verify that the checker's order implies the "
            + "value each read returned");
    /** {@code atomic=METHODS}. */
    static final Option<List<String>> ATOMIC = option("atomic", "METHODS", List.of(), "(none)",
            (k, v) -> OptionParsers.globs(k, v, OptionParsers.METHOD_GLOB),
            "`CLASS#METHOD` globs, `:`-separated, of methods whose invocations are transactions, besides methods "
            + "annotated with any annotation named `Atomic` (docs/serializability.md)");
    /** {@code failOnError=BOOL}. */
    static final Option<Boolean> FAIL_ON_ERROR = option("failOnError", "BOOL", "true", OptionParsers::bool,
            "exit with status 70 when the check is incomplete (the summary's `INCOMPLETE` lines say why); `false`"
            + " keeps the application's status (the lines and `\"complete\": false` stay)");
    /** {@code checkerMemory=SIZE}. */
    static final Option<Long> CHECKER_MEMORY = option("checkerMemory", "SIZE", 0L, "an eighth of `-Xmx`",
            OptionParsers::size,
            "the memory the checker's per-address tables may use (`256m`, `2g`; at least `1m`); at the bound it "
            + "forgets all history, as at a clock reset, and counts it (`memory-bound` note) instead of running the"
            + " application out of memory");
    /** {@code repeatedLoads=skip|log}. */
    static final Option<Boolean> REPEATED_LOADS = option("repeatedLoads", "skip|log", "skip",
            (k, v) -> OptionParsers.either(k, v, "skip", "log"),
            "whether a load that repeats its thread's last access to the address, with no write since and nothing"
            + " but such loads logged by its thread since, is logged: `skip` leaves it out, which changes no TSO or"
            + " PSO report (below, \"Loads that are not logged\", and its differential test); `log` logs it, to "
            + "compare");
    /** {@code injectFailure=STAGE@EVENT}. */
    static final Option<String> INJECT_FAILURE = option("injectFailure", "STAGE@EVENT", null, "(none)",
            OptionParsers::injectFailure,
            "for testing mmcheck itself: the stage (`tso`, `pso`, `sober`, `scser`, `tsoser`, `core`, `names`, or"
            + " `checker-loop`, the checker thread) throws at that event, to see how a failure is reported");
    /** {@code schedule=os|active}. */
    static final Option<Boolean> SCHEDULE = option("schedule", "os|active", Options.DEFAULT_SCHEDULE,
            (k, v) -> OptionParsers.either(k, v, "os", "active"),
            "`active` pauses a thread briefly where a pause opens a window the monitors need (after the access "
            + "that follows an unfenced store, after a store inside a critical section, and half the time after a "
            + "`java.util.concurrent` synchronizer): more bugs found per run, at a bounded cost; `os` leaves the "
            + "interleaving to the operating system (docs/schedules.md)");
    /** {@code seed=N}. */
    static final Option<Long> SEED = option("seed", "N", null, "drawn", OptionParsers::seed,
            "the seed of `schedule=active`'s choices (and of `sample=`'s choice of objects, which identity hash "
            + "codes make differ from run to run anyway); the summary and the report (`run.seed`, `run.sampleSeed`)"
            + " give the one used, to repeat a run's pauses");
    /** {@code failOn=CATEGORIES}. */
    static final Option<String> FAIL_ON = option("failOn", "CATEGORIES", "all", OptionParsers::categories,
            "which categories count for `failOnViolation`: `race`, `relaxed`, `atomicity`, `:`-separated, or "
            + "`all` (docs/report-format.md, \"Categories\")");
    /** {@code suppress=FILE}. */
    static final Option<Path> SUPPRESS = option("suppress", "FILE", null, "(none)", OptionParsers::path,
            "suppression rules for reviewed findings, each with a reason (docs/report-format.md, \"Suppressions "
            + "and baselines\"); read at start-up, a mistake stops the JVM with one line");
    /** {@code baseline=FILE}. */
    static final Option<Path> BASELINE = option("baseline", "FILE", null, "(none)", OptionParsers::path,
            "known findings: written with this run's findings when the file does not exist; otherwise only "
            + "findings not in it fail. In a Surefire or Failsafe fork, or with `%p` in `report=`, `sarif=` or "
            + "`html=`, the JVM is one of several and never writes it: `mmcheck merge --baseline FILE` does, from "
            + "every fork's findings (docs/build.md, \"Forks\")");
    /** {@code sarif=FILE}. */
    static final Option<Path> SARIF = option("sarif", "FILE", null, "(none)", OptionParsers::path,
            "also write the findings as SARIF 2.1.0 (code scanning; docs/build.md, \"SARIF on GitHub\")");
    /** {@code html=FILE}. */
    static final Option<Path> HTML = option("html", "FILE", null, "(none)", OptionParsers::path,
            "also write them as a self-contained HTML page");
    /** {@code progress=SECONDS}. */
    static final Option<Integer> PROGRESS = option("progress", "SECONDS", 0, "(none)", OptionParsers::progress,
            "print one line every so many seconds on standard error: events checked and their rate, the backlog "
            + "the checker has not taken yet, findings so far, the checker's tables against `checkerMemory=`; for "
            + "long nightly runs, to show they are alive and keeping up");
    /** {@code sample=R}. */
    static final Option<Double> SAMPLE = option("sample", "R", 1.0, "`1`", OptionParsers::sample,
            "log the plain accesses of about a fraction R (0 < R ≤ 1) of the objects only, chosen per run; "
            + "synchronization and static fields are always logged; checks PSO only (`models=` may then only be "
            + "`pso`; not with `selfCheck=`, `atomic=` or `trace=`). For nightly jobs: cheaper, and a finding is "
            + "still genuine (docs/sampling.md)");
    /** {@code sync=addresses|fences}. */
    static final Option<Boolean> SYNC = option("sync", "addresses|fences", "addresses",
            (k, v) -> OptionParsers.either(k, v, "addresses", "fences"),
            "under `sample=R`: `fences` logs the synchronization of the objects not drawn only as the fences it "
            + "makes, without addresses (loads not at all): much cheaper on lock-free code, and a finding is still "
            + "genuine, but relaxed bugs in those objects' synchronization are found only in the runs that draw "
            + "them (docs/sampling.md). Not without `sample=`");
    /** {@code solo=on|off}. */
    static final Option<Boolean> SOLO = option("solo", "on|off", "on", (k, v) -> !OptionParsers.either(k, v, "on", "off"),
            "whether the accesses of a thread are left out while it is the only thread that logs, keeping those "
            + "its period's hand-over needs (below, \"Accesses of a thread running alone\" and \"What a period "
            + "keeps\"); `off` logs them");
    /** {@code overhead=rewrite|log|ids|check}. */
    static final Option<Layer> OVERHEAD = option("overhead", "rewrite|log|ids|check", "check", OptionParsers::layer,
            "for measuring mmcheck's own cost layer by layer (RoadRunner's \"empty tool\"): `rewrite` runs the "
            + "rewritten classes with every probe returning at its first test (nothing logged), `log` logs every "
            + "event and has the checker thread take them in order without looking at them, `ids` also gives each "
            + "accessed address its id; `check` is a normal run. Anything but `check` checks nothing and says so: "
            + "`checked with nothing` and `INCOMPLETE: NOTHING CHECKED` in the summary's first two lines, "
            + "`\"complete\": false`, exit status 70 unless `failOnError=false`. Not with `trace=` or "
            + "`selfCheck=true`. `LAYERS=1 bench/agent-overhead.sh` uses it (docs/performance.md)");
    /** {@code bufferBound=N|none}. */
    static final Option<Integer> BUFFER_BOUND = option("bufferBound", "N|none", String.valueOf(Options.DEFAULT_BUFFER_BOUND),
            OptionParsers::bufferBound,
            "how many stores a thread's store buffer holds in the TSO and PSO monitors before its oldest commits "
            + "(as a buffer drains: every report stays genuine); a `buffer-bound` note counts the stores so "
            + "committed early, and what that may have cost: a violation that needs a store to stay buffered behind"
            + " N later ones of its thread. `none` checks that, with memory for every store");
    /** {@code jmmAddresses=N}. */
    static final Option<Integer> JMM_ADDRESSES = option("jmmAddresses", "N", String.valueOf(JmmAnalyzer.DEFAULT_BOUND),
            OptionParsers::jmmAddresses,
            "how many live addresses the `jmm` analysis tracks at once (its views are dense over them: memory "
            + "about (threads + N) x N x 24 bytes at worst, and time per event proportional to N: "
            + "docs/performance.md); a new address past it lets the less recently used half go (each then counts as"
            + " known to every thread at its last write), and a `jmm-address-bound` note counts them and says what "
            + "that may have cost: a finding that needs an older write of such an address to stay readable");
    /** {@code jmmValidatedReads=BOOL}. */
    static final Option<Boolean> JMM_VALIDATED_READS = option("jmmValidatedReads", "BOOL", "true", OptionParsers::bool,
            "the `jmm` analysis drops a stale read that its thread then validates: it re-reads a location it read "
            + "before the stale read (a seqlock's version, StampedLock's state), with no write of its own between, and "
            + "that re-read must see a newer write, so a seqlock's reader throws the torn data away (docs/jmm-model.md, "
            + "\"Seqlocks\"); this assumes the program compares the two reads, and a `jmm-validated-reads` note "
            + "counts the reads so dropped. `false` reports every stale read");
    /** {@code jmmWriteLog=N|none}. */
    static final Option<Integer> JMM_WRITE_LOG = option("jmmWriteLog", "N|none",
            String.valueOf(JmmAnalyzer.DEFAULT_WRITE_LOG), OptionParsers::jmmWriteLog,
            "how many latest writes of each address the `jmm` analysis keeps at least (and at most twice that: memory "
            + "about 34 bytes per write kept); an older write can no longer be read, and a `jmm-write-log` note counts "
            + "the checks that found one readable and says what that may have cost: a finding that needs a thread to "
            + "read, or place a write before, a write more than N writes old. `none` keeps every write");
    /** {@code sourceRoots=DIRS}. */
    static final Option<SourceRoots> SOURCE_ROOTS = option("sourceRoots", "DIRS", null,
            "`src/main/java`, `src/test/java` and the working directory", OptionParsers::sourceRoots,
            "where the SARIF file finds each finding's source file, directories separated by `:` (`;` on "
            + "Windows); paths are written relative to the repository's root (the nearest directory above the "
            + "working directory that holds `.git`), as GitHub needs; a file not found is said in its result and in"
            + " a warning");
    /** {@code synthetic=BOOL}. */
    static final Option<Boolean> SYNTHETIC = option("synthetic", "BOOL", "false", OptionParsers::bool,
            "`true` also instruments the plain accesses to synthetic fields (a compiler's `this$0`, "
            + "`$assertionsDisabled`, an enum's `$VALUES`, a switch map), left alone by default (below, \"Synthetic "
            + "members and other agents\"); other agents' members (JaCoCo's) are left alone either way");

    /** {@code fix=BOOL}. */
    static final Option<Boolean> FIX = option("fix", "BOOL", "false", OptionParsers::bool,
            "at exit, find the fewest changes (a fence at a line, a stronger access mode, a field made volatile) that "
            + "remove every finding of the run, prove them by replaying the run's trace with them made, and print them "
            + "as the summary's last section and the report's `fix` (docs/fix.md); the trace is `trace=`'s, else "
            + "written beside the report as `REPORT.fix.mmct`. Not with `sample=` or `overhead=`");

    /** Every option, in the order an unknown key's message lists them (and each is parsed). */
    static final List<Option<?>> ALL = List.of(REPORT, MODELS, INCLUDES, EXCLUDES, TRACE, FAIL_ON_VIOLATION, SELF_CHECK,
            ATOMIC, FAIL_ON_ERROR, CHECKER_MEMORY, REPEATED_LOADS, INJECT_FAILURE, SCHEDULE, SEED, FAIL_ON, SUPPRESS,
            BASELINE, SARIF, HTML, PROGRESS, SAMPLE, SYNC, SOLO, OVERHEAD, BUFFER_BOUND, JMM_ADDRESSES, JMM_VALIDATED_READS, JMM_WRITE_LOG,
            SOURCE_ROOTS, SYNTHETIC, FIX);

    /** The keys of {@link #ALL}, in its order. */
    static final List<String> KEYS = keys();

    private OptionTable() {
    }

    private static List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (Option<?> o : ALL) {
            keys.add(o.key());
        }
        return List.copyOf(keys);
    }
}
