package dev.mmcheck.checker.engine;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.event.Codes;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.monitor.Analysis;
import dev.mmcheck.checker.monitor.Monitor;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.monitor.PsoMonitor;
import dev.mmcheck.checker.monitor.SoberMonitor;
import dev.mmcheck.checker.monitor.TsoMonitor;
import dev.mmcheck.checker.monitor.ViolationSink;
import dev.mmcheck.checker.report.CycleEdge;
import dev.mmcheck.checker.report.EventInfo;
import dev.mmcheck.checker.report.Failure;
import dev.mmcheck.checker.report.Note;
import dev.mmcheck.checker.report.TxInfo;
import dev.mmcheck.checker.report.Violation;
import dev.mmcheck.checker.serial.CycleSink;
import dev.mmcheck.checker.serial.ScSerializability;
import dev.mmcheck.checker.serial.SerialConfig;
import dev.mmcheck.checker.serial.TsoSerializability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the chosen monitors side by side on one linearized event stream and collects their
 * violations, deduplicated by the sites of the store, prev and access events; and the serializability
 * checks of declared transactions, whose cycles are deduplicated by the sites on the cycle.
 *
 * <p>The serializability checks ({@link Analysis#SCSER}, {@link Analysis#TSOSER}) run from the first
 * event when chosen; with {@link Config#autoSerializability()} (the default) they also start by
 * themselves at the first transaction boundary of a stream that declares transactions, and cost
 * nothing before (no cycle can involve only events before the first transaction: docs/serializability.md).
 *
 * <p>Per event: the monitors check and buffer (seeing the clocks as of the previous event), then the
 * happens-before clocks advance. Thread ids of the stream are mapped to dense slots; when enough
 * threads have ended, the checker <em>resets</em>: it commits every buffered store and forgets all
 * history, then renumbers the live threads. A reset only loses violations whose store was buffered
 * at that moment (committing a store is always a legal TSO/PSO step, and paths from events after the
 * reset to earlier ones cannot exist), and each is counted in the result. Checker thread only.
 */
public final class Checker implements EventSink, ViolationSink {

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

    private Names symbols;
    private final Config config;
    private final VectorClocks clocks;
    private final Monitor[] monitors;     // a monitor that threw is set to null: the others go on
    private final List<Monitor> allMonitors;
    private SoberMonitor sober;
    private final Fault fault;
    private final List<Failure> failures = new ArrayList<>();
    private final Map<String, Long> stoppedAt = new HashMap<>();
    private boolean coreFailed;
    private long uncheckedFrom = -1;
    private long memoryResets;
    private long clockLimitResets;
    private long namingFailures;
    private final EventWindow window;

    // thread slots
    private int[] slotOf = new int[16];
    private int[] externalOf = new int[16];
    private boolean[] ended = new boolean[16];
    private int usedSlots;
    private int liveSlots;
    private int threadsSeen;
    private int width;
    private int addressCapacity;

    // per slot: the last event other than a fence, the "prev" of reports
    private long[] lastSeq = new long[16];
    private int[] lastKind = new int[16];
    private int[] lastOperand = new int[16];
    private int[] lastSite = new int[16];

    // the event being processed
    private long seq;
    private int curKind;
    private int curThread;
    private int curOperand;
    private int curSite;

    private final ViolationTable table = new ViolationTable();
    private final List<Violation> violations = new ArrayList<>();
    private long resets;

    // serializability
    private final Set<Analysis> running;
    private ScSerializability scser;
    private TsoSerializability tsoser;
    private final CycleSink cycles = this::cycle;
    private final HashMap<String, Violation> cycleTable = new HashMap<>();

    /** A checker that resolves names through {@code symbols}. */
    public Checker(Names symbols, Config config) {
        this.symbols = symbols;
        this.config = config;
        this.fault = config.fault();
        this.clocks = new VectorClocks(4, 64);
        this.window = new EventWindow(config.windowSize());
        List<Monitor> ms = new ArrayList<>();
        SoberMonitor s = null;
        this.running = EnumSet.noneOf(Analysis.class);
        for (Analysis a : config.analyses()) {
            switch (a) {
                case TSO -> ms.add(new TsoMonitor(clocks, this, config.monitors()));
                case PSO -> ms.add(new PsoMonitor(clocks, this, config.monitors()));
                case SOBER -> {
                    s = new SoberMonitor(clocks, this, config.monitors());
                    ms.add(s);
                }
                case SCSER, TSOSER -> startSerializability(a);
            }
            running.add(a);
        }
        this.monitors = ms.toArray(new Monitor[0]);
        this.allMonitors = List.copyOf(ms);
        this.sober = s;
        Arrays.fill(slotOf, -1);
        growThreads(4);
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
            uncheckedFrom = seq;
            seq++;
        }
    }

    /** One event through the slots, the window, every running analysis and the clocks. */
    private void core(int kind, int thread, int operand, int site) {
        if (kind == Codes.ADDRESS_DEAD) {
            addressDead(operand, site);
            return;
        }
        if (kind < 0 || kind >= Codes.COUNT) {
            throw new IllegalArgumentException("no event kind has code " + kind);
        }
        int t = slot(thread);
        int op = operand;
        if (kind == Codes.THREAD_START) {
            op = slot(operand);
            t = slotOf[thread]; // allocating the operand may have reset and renumbered
        } else if (kind == Codes.THREAD_JOIN) {
            op = joinedSlot(operand);
            if (op < 0) {
                // the joined thread never ran an event, or its history was reset away: only a fence remains
                kind = Codes.FULL_FENCE;
            }
        } else if (Codes.isAccess(kind)) {
            ensureAddress(operand);
        }
        curKind = kind;
        curThread = t;
        curOperand = op;
        curSite = site;
        window.record(seq, kind, t, op, site);
        for (int i = 0; i < monitors.length; i++) {
            Monitor m = monitors[i];
            if (m == null) {
                continue;
            }
            try {
                if (fault != null) {
                    fault.check(m.analysis().option(), seq);
                }
                m.event(kind, t, op, site, seq);
            } catch (RuntimeException | Error e) {
                stop(i, e);
            }
        }
        if (kind == Codes.TX_BEGIN && config.autoSerializability() && (scser == null || tsoser == null)) {
            startSerializability(Analysis.SCSER);
            startSerializability(Analysis.TSOSER);
        }
        if (scser != null) {
            try {
                if (fault != null) {
                    fault.check("scser", seq);
                }
                scser.event(kind, t, op, site, seq);
            } catch (RuntimeException | Error e) {
                fail("scser", e);
                scser = null;
            }
        }
        if (tsoser != null) {
            try {
                if (fault != null) {
                    fault.check("tsoser", seq);
                }
                tsoser.event(kind, t, op, site, seq);
            } catch (RuntimeException | Error e) {
                fail("tsoser", e);
                tsoser = null;
            }
        }
        switch (kind) {
            case Codes.LOAD -> clocks.load(t, op);
            case Codes.STORE, Codes.RELEASE_STORE, Codes.VOLATILE_STORE -> clocks.store(t, op);
            case Codes.INTERLOCKED, Codes.MONITOR_ENTER, Codes.MONITOR_EXIT -> clocks.interlocked(t, op);
            case Codes.THREAD_START -> clocks.start(t, op);
            case Codes.THREAD_JOIN -> clocks.join(t, op);
            default -> clocks.local(t);
        }
        switch (kind) {
            case Codes.FULL_FENCE, Codes.STORE_STORE_FENCE, Codes.LOAD_FENCE, Codes.TX_BEGIN, Codes.TX_END -> { }
            case Codes.THREAD_END -> {
                lastSeq[t] = -1;
                ended[t] = true;
                liveSlots--;
            }
            case Codes.THREAD_START -> {
                remember(t);
                remember(op); // the child's first event (its begin) is the start itself
            }
            default -> remember(t);
        }
        seq++;
        if (clocks.clock(t) >= clockLimit) {
            // a clock is an int: before one wraps (2^31 events of one thread), forget all history
            clockLimitResets++;
            compact();
        }
    }

    /** A thread's clock at which the checker resets rather than let an int clock wrap around. */
    static final int CLOCK_LIMIT = Integer.MAX_VALUE - (1 << 20);
    private int clockLimit = CLOCK_LIMIT;

    /** Lowers the clock limit (for tests: 2^31 events take too long). */
    void clockLimit(int limit) {
        clockLimit = limit;
    }

    /**
     * Bytes of checker state per address id: the clocks' record with the monitors' words, plus Sober's
     * per-address references. The agent bounds {@code addresses in use * this} (its memory bound).
     */
    public long bytesPerAddress() {
        return 4L * clocks.stride() + (sober != null ? 48 : 0);
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

    /** Stops monitor {@code i} after it threw: the others go on. */
    private void stop(int i, Throwable e) {
        Monitor m = monitors[i];
        fail(m.analysis().option(), e);
        monitors[i] = null;
        if (m == sober) {
            sober = null;
        }
    }

    private void fail(String stage, Throwable e) {
        failures.add(Failure.of(stage, seq, e));
        stoppedAt.put(stage, seq);
    }

    private void startSerializability(Analysis a) {
        if (stoppedAt.containsKey(a.option())) {
            return; // it failed once: not restarted
        }
        if (a == Analysis.SCSER && scser == null) {
            scser = new ScSerializability(cycles, config.serial());
            running.add(a);
        } else if (a == Analysis.TSOSER && tsoser == null) {
            tsoser = new TsoSerializability(cycles, config.serial(), config.analyses().contains(Analysis.TSO));
            running.add(a);
        }
    }

    private void addressDead(int address, int site) {
        ensureAddress(address);
        window.record(seq, EventKind.ADDRESS_DEAD.code(), -1, address, site);
        for (int i = 0; i < monitors.length; i++) {
            if (monitors[i] != null) {
                try {
                    monitors[i].event(EventKind.ADDRESS_DEAD.code(), -1, address, site, seq);
                } catch (RuntimeException | Error e) {
                    stop(i, e);
                }
            }
        }
        if (scser != null) {
            try {
                scser.event(EventKind.ADDRESS_DEAD.code(), 0, address, site, seq);
            } catch (RuntimeException | Error e) {
                fail("scser", e);
                scser = null;
            }
        }
        if (tsoser != null) {
            try {
                tsoser.event(EventKind.ADDRESS_DEAD.code(), 0, address, site, seq);
            } catch (RuntimeException | Error e) {
                fail("tsoser", e);
                tsoser = null;
            }
        }
        clocks.clearAddress(address);
        seq++;
    }

    private void remember(int t) {
        lastSeq[t] = seq;
        lastKind[t] = curKind;
        lastOperand[t] = curOperand;
        lastSite[t] = curSite;
    }

    private int joinedSlot(int external) {
        if (external < 0) {
            throw new IllegalArgumentException("negative thread id " + external);
        }
        return external < slotOf.length && slotOf[external] >= 0 ? slotOf[external] : -1;
    }

    private int slot(int external) {
        if (external < 0) {
            throw new IllegalArgumentException("negative thread id " + external);
        }
        if (external >= slotOf.length) {
            int old = slotOf.length;
            slotOf = Arrays.copyOf(slotOf, Math.max(external + 1, old * 2));
            Arrays.fill(slotOf, old, slotOf.length, -1);
        }
        int s = slotOf[external];
        if (s >= 0 && !ended[s]) {
            return s;
        }
        if (s >= 0) {
            throw new IllegalArgumentException("event of thread " + symbols.threadName(external) + " after its end");
        }
        if (usedSlots > liveSlots && usedSlots >= Math.max(config.minSlotsBeforeReset(), 2 * liveSlots)) {
            compact();
        }
        s = usedSlots++;
        liveSlots++;
        threadsSeen++;
        growThreads(usedSlots);
        slotOf[external] = s;
        externalOf[s] = external;
        ended[s] = false;
        lastSeq[s] = -1;
        return s;
    }

    /** Commits all buffers, forgets all history and renumbers the live threads densely. */
    private void compact() {
        resets++;
        for (Monitor m : monitors) {
            if (m != null) {
                m.reset();
            }
        }
        clocks.reset();
        window.clear();
        int next = 0;
        int[] renumbered = new int[usedSlots];
        for (int s = 0; s < usedSlots; s++) {
            int ext = externalOf[s];
            if (ended[s]) {
                slotOf[ext] = -2; // ended for good; a later event of it is an error
                renumbered[s] = -1;
                continue;
            }
            renumbered[s] = next;
            slotOf[ext] = next;
            externalOf[next] = ext;
            ended[next] = false;
            lastSeq[next] = -1;
            next++;
        }
        if (scser != null) {
            scser.reset(renumbered);
        }
        if (tsoser != null) {
            tsoser.reset(renumbered);
        }
        for (int s = next; s < usedSlots; s++) {
            ended[s] = false;
        }
        usedSlots = next;
        liveSlots = next;
    }

    private void growThreads(int n) {
        if (n > externalOf.length) {
            int m = Math.max(n, externalOf.length * 2);
            externalOf = Arrays.copyOf(externalOf, m);
            ended = Arrays.copyOf(ended, m);
            lastSeq = Arrays.copyOf(lastSeq, m);
            lastKind = Arrays.copyOf(lastKind, m);
            lastOperand = Arrays.copyOf(lastOperand, m);
            lastSite = Arrays.copyOf(lastSite, m);
        }
        if (n > width) {
            width = Math.max(n, width * 2);
            clocks.ensureThreads(width);
            for (Monitor m : monitors) {
                if (m != null) {
                    m.ensureThreads(width);
                }
            }
        }
    }

    private void ensureAddress(int address) {
        if (address < 0) {
            throw new IllegalArgumentException("negative address id " + address);
        }
        if (address >= addressCapacity) {
            addressCapacity = Math.max(address + 1, Math.max(64, addressCapacity * 2));
            clocks.ensureAddress(addressCapacity - 1);
            for (Monitor m : monitors) {
                if (m != null) {
                    m.ensureAddress(addressCapacity - 1);
                }
            }
        }
    }

    @Override
    public void violation(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
            long storeSeq) {
        int t = curThread;
        Violation v = table.get(analysis.ordinal(), storeSite, lastSite[t], curSite);
        if (v != null) {
            v.seenAgain();
            return;
        }
        try {
            if (fault != null) {
                fault.check("names", seq);
            }
            v = describe(analysis, storeThread, storeKind, storeAddress, storeSite, storeSeq);
        } catch (RuntimeException | Error e) {
            namingFailed(e);
            Names given = symbols;
            symbols = RAW_NAMES;
            try {
                v = describe(analysis, storeThread, storeKind, storeAddress, storeSite, storeSeq);
            } finally {
                symbols = given;
            }
        }
        table.put(analysis.ordinal(), storeSite, lastSite[t], curSite, v);
        violations.add(v);
    }

    private Violation describe(Analysis analysis, int storeThread, int storeKind, int storeAddress,
            int storeSite, long storeSeq) {
        int t = curThread;
        EventInfo store = info("store", storeThread, storeKind, storeAddress, storeSite);
        EventInfo prev = info("prev", t, lastKind[t], lastOperand[t], lastSite[t]);
        if (lastSeq[t] < 0) {
            prev = new EventInfo("prev", threadName(t), "none", Site.at("?", 0), "");
        } else if (EventKind.of(lastKind[t]) == EventKind.THREAD_START && lastOperand[t] == t) {
            prev = new EventInfo("prev", threadName(t), "begin", symbols.siteOf(lastSite[t]), "");
        }
        EventInfo access = info("access", t, curKind, curOperand, curSite);
        List<Long> seqs = window.path(storeSeq, lastSeq[t]);
        List<EventInfo> path = null;
        String note = "";
        EventInfo leaving = null;
        if (seqs == null) {
            note = "the happens-before path from the store to prev is older than the last "
                    + config.windowSize() + " events";
        } else {
            path = new ArrayList<>();
            for (int i = 0; i < seqs.size(); i++) {
                long s = seqs.get(i);
                boolean crosses = i + 1 < seqs.size() && window.thread(seqs.get(i + 1)) != window.thread(s);
                boolean entered = i > 0 && window.thread(seqs.get(i - 1)) != window.thread(s);
                if (i == 0 || i == seqs.size() - 1 || crosses || entered) {
                    EventInfo step = info("step", window.thread(s), window.kind(s), window.operand(s), window.site(s));
                    path.add(step);
                    if (crosses && leaving == null && window.thread(s) == storeThread) {
                        leaving = step;
                    }
                }
            }
        }
        String advice = Advice.of(analysis, store, leaving);
        return new Violation("sc-violation", analysis, List.of(store, prev, access), path, note, advice, seq);
    }

    /**
     * A cycle of a serializability check, named; distinct cycles are those with different transactions
     * (their first lines) or, for TSO, different writes that commit late: the same bug closes its
     * cycle through many edges.
     */
    private void cycle(Analysis analysis, List<CycleSink.Tx> txs, List<CycleSink.Edge> edges, String advice) {
        java.util.TreeSet<Integer> txSites = new java.util.TreeSet<>();
        for (CycleSink.Tx x : txs) {
            txSites.add(x.site());
        }
        java.util.TreeSet<Integer> lateSites = new java.util.TreeSet<>();
        for (CycleSink.Edge e : edges) {
            if (!e.late().isEmpty()) {
                lateSites.add(e.late().equals("source") ? e.source().site() : e.target().site());
            }
        }
        String key = analysis.option() + txSites + lateSites;
        Violation v = cycleTable.get(key);
        if (v != null) {
            v.seenAgain();
            return;
        }
        try {
            if (fault != null) {
                fault.check("names", seq);
            }
            v = nameCycle(analysis, txs, edges, advice);
        } catch (RuntimeException | Error e) {
            namingFailed(e);
            Names given = symbols;
            symbols = RAW_NAMES;
            try {
                v = nameCycle(analysis, txs, edges, advice);
            } finally {
                symbols = given;
            }
        }
        cycleTable.put(key, v);
        violations.add(v);
    }

    private Violation nameCycle(Analysis analysis, List<CycleSink.Tx> txs, List<CycleSink.Edge> edges,
            String advice) {
        List<TxInfo> infos = new ArrayList<>();
        for (CycleSink.Tx x : txs) {
            infos.add(new TxInfo(threadName(x.thread()), symbols.siteOf(x.site()), x.atomic()));
        }
        List<CycleEdge> named = new ArrayList<>();
        StringBuilder late = new StringBuilder();
        for (CycleSink.Edge e : edges) {
            EventInfo src = info("source", e.source().thread(), e.source().kind(), e.source().operand(),
                    e.source().site());
            EventInfo dst = info("target", e.target().thread(), e.target().kind(), e.target().operand(),
                    e.target().site());
            named.add(new CycleEdge(e.from(), e.to(), e.kind(), src, dst, e.late()));
            if (!e.late().isEmpty()) {
                EventInfo l = e.late().equals("source") ? src : dst;
                late.append(late.length() == 0 ? " Late: " : "; ").append(l.describe());
            }
        }
        String kind = analysis == Analysis.SCSER ? "sc-serializability" : "tso-serializability";
        return new Violation(kind, analysis, infos, named, advice + (late.length() == 0 ? "" : "." + late), seq);
    }

    /** Names by id only, for a violation whose naming failed: the finding is kept, its names are raw. */
    private static final Names RAW_NAMES = new Names() {
        @Override
        public String threadName(int id) {
            return "thread#" + id;
        }

        @Override
        public String addressName(int id) {
            return "address#" + id;
        }

        @Override
        public Site siteOf(int id) {
            return new Site("", "", "site#" + id, 0, -1);
        }
    };

    private void namingFailed(Throwable e) {
        if (namingFailures++ == 0) {
            fail("names", e);
        }
    }

    private EventInfo info(String role, int slot, int kind, int operand, int site) {
        EventKind k = EventKind.of(kind);
        String field = switch (k.operand()) {
            case ADDRESS -> symbols.addressName(operand);
            case THREAD -> threadName(operand);
            case NONE -> "";
        };
        Site s = symbols.siteOf(site);
        return new EventInfo(role, threadName(slot), k.label(), s, field);
    }

    private String threadName(int slot) {
        return slot >= 0 && slot < externalOf.length ? symbols.threadName(externalOf[slot]) : "thread#" + slot;
    }

    /** The SC-serializability check, once running (for tests). */
    public ScSerializability scSerializability() {
        return scser;
    }

    /** The TSO-serializability check, once running (for tests). */
    public TsoSerializability tsoSerializability() {
        return tsoser;
    }

    /** Events consumed so far. */
    public long events() {
        return seq;
    }

    /** Distinct violations so far, in the order first seen. */
    public List<Violation> violations() {
        return Collections.unmodifiableList(violations);
    }

    /** What the check found, with its statistics and any bound that was reached. */
    public CheckResult result() {
        Map<Analysis, Long> forced = new EnumMap<>(Analysis.class);
        List<Note> notes = new ArrayList<>();
        for (Map.Entry<String, Long> e : stoppedAt.entrySet()) {
            String stage = e.getKey();
            long at = e.getValue();
            if (stage.equals("names")) {
                notes.add(Note.incomplete("naming-failed", "", namingFailures, namingFailures
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
        for (Monitor m : allMonitors) {
            forced.put(m.analysis(), m.forcedCommits());
            if (m.forcedCommits() > 0) {
                notes.add(Note.degraded("buffer-bound", m.analysis().option(), m.forcedCommits(),
                        m.analysis().option() + ": " + String.format("%,d", m.forcedCommits()) + " stores were "
                        + "committed early because a thread issued " + config.monitors().bufferBound()
                        + " stores without a fence (store buffers are bounded): a violation that needs a store to "
                        + "stay buffered longer than that is not reported; nothing was left unchecked"));
            }
        }
        long truncated = sober == null ? 0 : sober.truncatedScans();
        if (truncated > 0) {
            notes.add(Note.degraded("sober-window", "sober", truncated, "sober: " + truncated
                    + " loads looked back past the last " + config.monitors().soberWindow()
                    + " writes of their address without a verdict"));
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
                    + " clock resets to reclaim the slots of "
                    + "ended threads: stores still buffered at a reset were committed there, so a violation "
                    + "needing one of them to stay buffered past the reset is not reported"));
        }
        long transactions = 0;
        if (scser != null) {
            notes.addAll(scser.notes());
            transactions = scser.transactions();
        }
        if (tsoser != null) {
            notes.addAll(tsoser.notes());
            transactions = Math.max(transactions, tsoser.transactions());
        }
        return new CheckResult(EnumSet.copyOf(running), seq, List.copyOf(violations), forced, truncated,
                resets, threadsSeen, List.copyOf(notes), transactions, List.copyOf(failures));
    }

}
