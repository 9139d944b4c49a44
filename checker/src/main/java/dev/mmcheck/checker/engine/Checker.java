package dev.mmcheck.checker.engine;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.event.Codes;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.EventWindow;
import dev.mmcheck.checker.event.LastEvents;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.jmm.JmmAnalyzer;
import dev.mmcheck.checker.jmm.VolatileRule;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.monitor.PsoMonitor;
import dev.mmcheck.checker.monitor.SoberMonitor;
import dev.mmcheck.checker.monitor.TsoMonitor;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Failure;
import dev.mmcheck.checker.result.Findings;
import dev.mmcheck.checker.result.Violation;
import dev.mmcheck.checker.serial.ScSerializability;
import dev.mmcheck.checker.serial.SerialConfig;
import dev.mmcheck.checker.serial.TsoSerializability;
import dev.mmcheck.runtime.Kinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine: runs the chosen analyses side by side on one linearized event stream. Per event it maps
 * the thread to a dense slot, records the event for report paths, hands it to every running
 * {@link Analyzer} (which check and buffer, seeing the clocks as of the previous event), then advances
 * the happens-before clocks and the threads' last events. The analyses put their findings into a
 * {@link Findings}, which deduplicates, counts and names them; the engine never sees a finding.
 *
 * <p>The serializability checks ({@link Analysis#SCSER}, {@link Analysis#TSOSER}) run from the first
 * event when chosen; with {@link Config#autoSerializability()} (the default) they also start by
 * themselves at the first transaction boundary of a stream that declares transactions, and cost
 * nothing before (no cycle can involve only events before the first transaction: docs/serializability.md).
 *
 * <p>When enough threads have ended, the checker <em>resets</em>: every analysis commits its buffered
 * stores and forgets its history, and the live threads are renumbered. A reset only loses violations
 * whose store was buffered at that moment (committing a store is always a legal TSO/PSO step, and paths
 * from events after the reset to earlier ones cannot exist), and each is counted in the result.
 *
 * <p>An analysis that throws is stopped there and the others go on; a failure of the engine's own
 * core (slots, clocks) stops every analysis; either way the result says so (docs/user-guide.md).
 * Checker thread only.
 */
public final class Checker implements EventSink {

    /**
     * How the checker is set up. Immutable.
     *
     * @param autoSerializability start the serializability checks not chosen in {@code analyses} at the
     *                            first transaction boundary of the stream
     * @param serial              the serializability checks' bounds
     * @param fault               a failure to inject (for testing how failures are reported), or null
     */
    public record Config(Set<Analysis> analyses, MonitorConfig monitors, int windowSize, int minSlotsBeforeReset,
            boolean autoSerializability, SerialConfig serial, Fault fault) {

        /** The store-buffer settings, serializability started by transactions with default bounds. */
        public Config(Set<Analysis> analyses, MonitorConfig monitors, int windowSize, int minSlotsBeforeReset) {
            this(analyses, monitors, windowSize, minSlotsBeforeReset, true, SerialConfig.defaults(), null);
        }

        /** TSO and PSO with Java semantics, a 64K-event path window; serializability when transactions appear. */
        public static Config defaults() {
            return new Config(EnumSet.of(Analysis.TSO, Analysis.PSO), MonitorConfig.defaults(), 1 << 16, 16);
        }

        /** A copy running {@code chosen}. */
        public Config withAnalyses(Set<Analysis> chosen) {
            return new Config(EnumSet.copyOf(chosen), monitors, windowSize, minSlotsBeforeReset, autoSerializability,
                    serial, fault);
        }

        /** A copy with other monitor settings. */
        public Config withMonitors(MonitorConfig m) {
            return new Config(analyses, m, windowSize, minSlotsBeforeReset, autoSerializability, serial, fault);
        }

        /** A copy that resets once at least {@code slots} thread slots are in use and some have ended. */
        public Config withMinSlotsBeforeReset(int slots) {
            return new Config(analyses, monitors, windowSize, slots, autoSerializability, serial, fault);
        }

        /** A copy that does (or does not) start the serializability checks at the first transaction. */
        public Config withAutoSerializability(boolean auto) {
            return new Config(analyses, monitors, windowSize, minSlotsBeforeReset, auto, serial, fault);
        }

        /** A copy with other serializability bounds. */
        public Config withSerial(SerialConfig s) {
            return new Config(analyses, monitors, windowSize, minSlotsBeforeReset, autoSerializability, s, fault);
        }

        /** A copy that injects {@code f} (null: none). */
        public Config withFault(Fault f) {
            return new Config(analyses, monitors, windowSize, minSlotsBeforeReset, autoSerializability, serial, f);
        }
    }

    /** A thread's clock at which the checker resets rather than let an int clock wrap around. */
    static final int CLOCK_LIMIT = Integer.MAX_VALUE - (1 << 20);

    private final Config config;
    private final Fault fault;
    private final VectorClocks clocks;
    private final EventWindow window;
    private final LastEvents last = new LastEvents();
    private final ThreadSlots slots = new ThreadSlots();
    private final Findings findings;
    private final Names names;

    // the running analyses, in the order they report; one that threw is set to null (the others go on)
    private final List<Analyzer> analyzers = new ArrayList<>();
    // whether analyzers.get(i) is a serializability check: read per event instead of a.analysis(), a megamorphic
    // call once three analyses run (JMH TraceBenchmark, tso+pso+jmm: W03 81 to 68 ns per event, W01 93 to 85)
    private boolean[] serializing = new boolean[Analysis.values().length];
    private final List<Analyzer> started = new ArrayList<>();   // every analysis ever started, for results
    private final Set<Analysis> running = EnumSet.noneOf(Analysis.class);

    private int width;
    private int addressCapacity;
    private long seq;
    private int clockLimit = CLOCK_LIMIT;

    private long resets;
    private long memoryResets;
    private long memoryBound = Long.MAX_VALUE;
    private long clockLimitResets;

    private final List<Failure> failures = new ArrayList<>();
    private final Map<String, Long> stoppedAt = new HashMap<>();
    private boolean coreFailed;

    /** A checker whose findings are named through {@code names}. */
    public Checker(Names names, Config config) {
        this.names = names;
        this.config = config;
        this.fault = config.fault();
        this.clocks = new VectorClocks(4, 64);
        this.window = new EventWindow(config.windowSize());
        this.findings = new Findings(names, last, window, config.windowSize(), slots::external);
        if (fault != null && fault.stage().equals("names")) {
            findings.failNamingFrom(fault.event());
        }
        for (Analysis a : config.analyses()) {
            start(a);
        }
        growThreads(4);
    }

    /** Starts analysis {@code a}, unless it runs already or failed once. */
    private void start(Analysis a) {
        if (running.contains(a) || stoppedAt.containsKey(a.option())) {
            return;
        }
        Analyzer x = switch (a) {
            case TSO -> new TsoMonitor(clocks, findings, config.monitors());
            case PSO -> new PsoMonitor(clocks, findings, config.monitors());
            case SOBER -> new SoberMonitor(clocks, findings, config.monitors());
            case SCSER -> new ScSerializability(findings, config.serial());
            case TSOSER -> new TsoSerializability(findings, config.serial(), config.analyses().contains(Analysis.TSO));
            case JMM -> new JmmAnalyzer(findings, site -> names.siteOf(site).mode(), config.monitors().jmmAddresses(),
                    VolatileRule.SYNCHRONIZATION_ORDER, config.monitors().jmmValidatedReads(),
                    config.monitors().jmmWriteLog());
        };
        // the serializability checks keep their own per-thread and per-address state (Analyzer's defaults)
        x.ensureThreads(width);
        if (addressCapacity > 0) {
            x.ensureAddress(addressCapacity - 1);
        }
        running.add(a);
        if (analyzers.size() == serializing.length) {
            serializing = Arrays.copyOf(serializing, 2 * serializing.length);
        }
        serializing[analyzers.size()] = a.serializability();
        analyzers.add(x);
        started.add(x);
    }

    @Override
    public void event(int kind, int thread, int operand, int site) {
        if (coreFailed) {
            seq++;
            return; // nothing can be checked without the clocks: counted as unchecked in the result
        }
        try {
            if (fault != null) {
                fault.check("core", seq);
            }
            core(kind, thread, operand, site);
        } catch (IllegalArgumentException e) {
            throw e; // a malformed stream (a trace file's mistake), not a failure of the checker
        } catch (RuntimeException | Error e) {
            fail("core", e);
            coreFailed = true;
            seq++;
        }
    }

    /** One event through the slots, the window, every running analysis and the clocks. */
    private void core(int kind, int thread, int operand, int site) {
        if (kind == Kinds.ADDRESS_DEAD) {
            addressDead(operand, site);
            return;
        }
        if (kind < 0 || kind >= Codes.COUNT) {
            throw new IllegalArgumentException("no event kind has code " + kind);
        }
        int t = slot(thread);
        int op = operand;
        if (kind == Kinds.THREAD_START) {
            op = slot(operand);
            t = slots.find(thread); // allocating the operand may have reset and renumbered
        } else if (kind == Kinds.THREAD_JOIN) {
            op = slots.joined(operand);
            if (op < 0) {
                // the joined thread never ran an event, or its history was reset away: only a fence remains
                kind = Kinds.FULL_FENCE;
            }
        } else if (Codes.isAccess(kind)) {
            ensureAddress(operand);
        }
        window.record(seq, kind, t, op, site);
        feedAll(false, kind, t, op, site);
        if (kind == Kinds.TX_BEGIN && config.autoSerializability()) {
            // the first transaction starts the serializability checks, which see this event too
            start(Analysis.SCSER);
            start(Analysis.TSOSER);
        }
        feedAll(true, kind, t, op, site);
        switch (kind) {
            case Kinds.LOAD -> clocks.load(t, op);
            case Kinds.STORE, Kinds.RELEASE_STORE, Kinds.VOLATILE_STORE -> clocks.store(t, op);
            case Kinds.INTERLOCKED, Kinds.MONITOR_ENTER, Kinds.MONITOR_EXIT -> clocks.interlocked(t, op);
            case Kinds.THREAD_START -> clocks.start(t, op);
            case Kinds.THREAD_JOIN -> clocks.join(t, op);
            default -> clocks.local(t);
        }
        switch (kind) {
            case Kinds.FULL_FENCE, Kinds.STORE_STORE_FENCE, Kinds.LOAD_FENCE, Kinds.TX_BEGIN, Kinds.TX_END -> { }
            case Kinds.THREAD_END -> {
                last.forget(t);
                slots.end(t);
            }
            case Kinds.THREAD_START -> {
                last.remember(t, seq, kind, op, site);
                last.remember(op, seq, kind, op, site); // the child's first event (its begin) is the start itself
            }
            default -> last.remember(t, seq, kind, op, site);
        }
        seq++;
        if (clocks.clock(t) >= clockLimit) {
            // a clock is an int: before one wraps (2^31 events of one thread), forget all history
            clockLimitResets++;
            compact();
        }
    }

    /** Hands the event to every running store-buffer monitor, or to every serializability check. */
    private void feedAll(boolean serializability, int kind, int t, int op, int site) {
        for (int i = 0; i < analyzers.size(); i++) {
            if (serializing[i] == serializability) {
                feed(i, kind, t, op, site);
            }
        }
    }

    /** Hands the event to analysis {@code i}; one that throws is stopped and the others go on. */
    private void feed(int i, int kind, int t, int op, int site) {
        Analyzer a = analyzers.get(i);
        if (a == null) {
            return;
        }
        try {
            if (fault != null) {
                fault.check(a.analysis().option(), seq);
            }
            a.event(kind, t, op, site, seq);
        } catch (RuntimeException | Error e) {
            fail(a.analysis().option(), e);
            analyzers.set(i, null);
        }
    }

    private void fail(String stage, Throwable e) {
        failures.add(Failure.of(stage, seq, e));
        stoppedAt.put(stage, seq);
    }

    private void addressDead(int address, int site) {
        if (address < 0) {
            throw new IllegalArgumentException("negative address id " + address);
        }
        window.record(seq, Kinds.ADDRESS_DEAD, -1, address, site);
        if (address >= addressCapacity) {
            // no event of it was fed since the tables last forgot their addresses (a new thread slot at the memory
            // bound forgets them, and every analysis with them, while the agent's ids live on): it has no state to
            // clear, and growing the tables for it could take them past the bound (an OutOfMemoryError on Agrona's suite)
            seq++;
            return;
        }
        for (int i = 0; i < analyzers.size(); i++) {
            feed(i, Kinds.ADDRESS_DEAD, serializing[i] ? 0 : -1, address, site);
        }
        clocks.clearAddress(address);
        seq++;
    }

    private int slot(int external) {
        int s = slots.find(external);
        if (s >= 0) {
            return s;
        }
        if (s == ThreadSlots.ENDED) {
            throw new IllegalArgumentException("event of thread " + names.threadName(external) + " after its end");
        }
        if (slots.wantsCompaction(config.minSlotsBeforeReset())) {
            compact();
        }
        if (slots.used() + 1 > width && (long) addressCapacity * bytesPerAddress(Math.max(slots.used() + 1, width * 2))
                > memoryBound) {
            // a slot more widens every address's record: at the bound that would take a second table the
            // size of the first and twice it (an OutOfMemoryError on Agrona's suite), so forget first
            forgetAddresses();
        }
        s = slots.allocate(external);
        growThreads(slots.used());
        last.forget(s);
        return s;
    }

    /** Commits all buffers, forgets all history and renumbers the live threads densely. */
    private void compact() {
        resets++;
        clocks.reset();
        window.clear();
        int[] renumbered = slots.compact();
        for (int s = 0; s < slots.used(); s++) {
            last.forget(s);
        }
        for (Analyzer a : analyzers) {
            if (a != null) {
                a.reset(renumbered);
            }
        }
    }

    private void growThreads(int n) {
        last.ensureSlots(n);
        if (n > width) {
            width = Math.max(n, width * 2);
            clocks.ensureThreads(width);
            for (Analyzer a : analyzers) {
                if (a != null) {
                    a.ensureThreads(width);
                }
            }
        }
    }

    private void ensureAddress(int address) {
        if (address < 0) {
            throw new IllegalArgumentException("negative address id " + address);
        }
        if (address >= addressCapacity) {
            // doubling, but not past the memory bound (the agent forgets its ids before they pass it)
            long grown = Math.min(Math.max(64, addressCapacity * 2L), memoryBound / bytesPerAddress());
            addressCapacity = (int) Math.max(address + 1L, grown);
            clocks.ensureCapacity(addressCapacity); // no doubling of its own past the bound
            for (Analyzer a : analyzers) {
                if (a != null) {
                    a.ensureAddress(addressCapacity - 1);
                }
            }
        }
    }

    /** Lowers the clock limit (for tests: 2^31 events take too long). */
    void clockLimit(int limit) {
        clockLimit = limit;
    }

    /**
     * Whether thread {@code thread} (the stream's id) has a store still buffered in some running analysis's view:
     * false for a thread with no events, or one that has ended (its end committed its stores).
     */
    public boolean storesBuffered(int thread) {
        int t = slots.find(thread);
        if (t < 0 || coreFailed) {
            return false;
        }
        for (Analyzer a : analyzers) {
            if (a.storesBuffered(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Bytes of checker state per address id: the clocks' record with the monitors' words, plus Sober's
     * per-address references. The agent bounds {@code addresses in use * this} (its memory bound).
     */
    public long bytesPerAddress() {
        return 4L * clocks.stride() + (running.contains(Analysis.SOBER) ? 48 : 0);
    }

    /** {@link #bytesPerAddress()} once the records have room for {@code threads} thread slots. */
    private long bytesPerAddress(int threads) {
        return bytesPerAddress() + 4L * (clocks.strideFor(threads) - clocks.stride());
    }

    /** Bytes the per-address tables take now (their capacity, used or not). */
    public long tableBytes() {
        return 4L * clocks.table().length + (running.contains(Analysis.SOBER) ? 48L * addressCapacity : 0);
    }

    /**
     * Bounds the per-address tables to about {@code bytes} (the agent's {@code checkerMemory}): they grow
     * no further than the bound allows past the highest address id in use, and a new thread slot that
     * would widen them past it forgets all history first ({@link #forgetAddresses}). The agent forgets its
     * address ids before they reach the bound. Checker thread only.
     */
    public void limitMemory(long bytes) {
        memoryBound = bytes;
    }

    /**
     * Forgets all history, as a clock reset does (every buffered store committed, counted), and shrinks
     * the tables indexed by address id: the agent then forgets its address ids too, so that a run whose
     * live addresses exceed its memory bound goes on in bounded memory. Checker thread only.
     */
    public void forgetAddresses() {
        memoryResets++;
        compact();
        resets--; // counted as a memory reset, not a slot reset
        addressCapacity = 0;
        clocks.shrinkAddresses(64);
    }

    /** The SC-serializability check, once running (for tests). */
    public ScSerializability scSerializability() {
        return (ScSerializability) running(Analysis.SCSER);
    }

    /** The TSO-serializability check, once running (for tests). */
    public TsoSerializability tsoSerializability() {
        return (TsoSerializability) running(Analysis.TSOSER);
    }

    private Analyzer running(Analysis a) {
        for (Analyzer x : analyzers) {
            if (x != null && x.analysis() == a) {
                return x;
            }
        }
        return null;
    }

    /** Events consumed so far. */
    public long events() {
        return seq;
    }

    /**
     * Distinct violations reported so far, in the order first seen, without asking the analyses for what they hold
     * back (a progress line or a test boundary mid-run: a stale read awaiting its validation stays held).
     */
    public List<Violation> reported() {
        return findings.violations();
    }

    /** Distinct violations so far (with what the analyses held back), in the order first seen. */
    public List<Violation> violations() {
        finishAll();
        return findings.violations();
    }

    /** Has every analysis report what it holds back ({@link Analyzer#finish}); one that throws is stopped. */
    private void finishAll() {
        for (int i = 0; i < analyzers.size(); i++) {
            Analyzer a = analyzers.get(i);
            if (a == null) {
                continue;
            }
            try {
                a.finish(); // what an analysis holds back (the jmm analysis's stale reads awaiting a validation)
            } catch (RuntimeException | Error e) {
                fail(a.analysis().option(), e);
                analyzers.set(i, null);
            }
        }
    }

    /** What the check found, with its statistics, any bound that was reached and any failure. */
    public CheckResult result() {
        finishAll();
        List<Failure> all = new ArrayList<>(failures);
        Map<String, Long> stopped = new HashMap<>(stoppedAt);
        if (findings.namingFailure() != null) {
            all.add(findings.namingFailure());
            stopped.put("names", findings.namingFailure().event());
        }
        List<Note> notes = new ArrayList<>();
        for (Map.Entry<String, Long> e : stopped.entrySet()) {
            String stage = e.getKey();
            long at = e.getValue();
            if (stage.equals("names")) {
                long n = findings.namingFailures();
                notes.add(Note.incomplete("naming-failed", "", n, n
                        + " violations could not be named and are reported by raw ids (address#N, site#N)"));
            } else if (stage.equals("core")) {
                notes.add(Note.incomplete("checker-stopped", "", seq - at, "the checker stopped at event " + at
                        + ": the " + (seq - at) + " events from there on were not checked by any analysis"));
            } else {
                notes.add(Note.incomplete("analysis-stopped", stage, seq - at, stage + " stopped at event " + at
                        + ": the " + (seq - at) + " events from there on were not checked by " + stage
                        + (running.size() > 1 ? "; the other analyses went on" : "")));
            }
        }
        Map<Analysis, Long> forced = new EnumMap<>(Analysis.class);
        long truncated = 0;
        long transactions = 0;
        List<Note> serialNotes = new ArrayList<>();
        for (Analyzer a : started) {
            boolean alive = analyzers.contains(a);
            if (!a.analysis().serializability()) {
                forced.put(a.analysis(), a.forcedCommits());
                notes.addAll(a.notes()); // the monitors' bounds first
            } else if (alive) {
                serialNotes.addAll(a.notes()); // the serializability checks' after the engine's own
            }
            if (a instanceof SoberMonitor s) {
                truncated = s.truncatedScans();
            }
            if (alive) {
                transactions = Math.max(transactions, a.transactions());
            }
        }
        if (memoryResets > 0) {
            notes.add(Note.degraded("memory-bound", "", memoryResets, "the checker's tables reached their memory "
                    + "bound " + memoryResets + " times; each time all history was forgotten, as at a clock reset: "
                    + "stores buffered then were committed unchecked, so a violation needing one of them to stay "
                    + "buffered past that point, or a happens-before path through it, is not reported (raise the "
                    + "bound with checkerMemory=)"));
        }
        if (clockLimitResets > 0) {
            notes.add(Note.degraded("clock-limit", "", clockLimitResets, "a thread's clock neared 2^31 events "
                    + clockLimitResets + " times; each time all history was forgotten, as at a clock reset"));
        }
        if (resets - clockLimitResets > 0) {
            notes.add(Note.degraded("clock-reset", "", resets - clockLimitResets, (resets - clockLimitResets)
                    + " clock resets to reclaim the slots of ended threads: stores still buffered at a reset were "
                    + "committed there, so a violation needing one of them to stay buffered past the reset is not "
                    + "reported"));
        }
        notes.addAll(serialNotes);
        return new CheckResult(EnumSet.copyOf(running), seq, List.copyOf(findings.violations()), forced, truncated,
                resets, slots.seen(), List.copyOf(notes), transactions, List.copyOf(all));
    }
}
