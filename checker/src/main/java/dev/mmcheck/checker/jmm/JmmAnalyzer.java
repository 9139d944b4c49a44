package dev.mmcheck.checker.jmm;

import dev.mmcheck.checker.event.SiteModes;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Analyzer;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.runtime.Kinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The access-mode analysis on the event stream ({@code models=jmm}): each event, with the access mode its site
 * says ({@code Site.mode}), goes to a {@link RobustnessMonitor}, and each violation becomes a store-buffer-shaped
 * finding: the write the SC run orders before the event (the "store"), and the event that can miss it or be
 * ordered before it (the "access"). The mapping of kinds and site modes to the model is docs/jmm-model.md's table.
 *
 * <p>Validated reads (on unless told otherwise): the monitor holds a stale read back until its thread's validation
 * drops it or the thread writes, synchronizes or ends; a finding reported later names the event as it was then (its
 * site, address and prev), and {@link #finish} reports what is still held. The notes count the reads dropped.
 *
 * <p>Memory: the monitor keeps a view per thread and per location whose size grows with the number of locations,
 * so this analysis tracks at most {@code bound} live addresses at once; a new address past that retires the less
 * recently used half of them (each one's last write becomes known to every thread, which can only take reports away), and the
 * run's notes say how often. A dead address (its object was collected) is retired too: its id then names a new
 * location. Checker thread only.
 */
public final class JmmAnalyzer extends Analyzer {

    /** Addresses tracked at once when not told otherwise. */
    public static final int DEFAULT_BOUND = 256;

    /** The default write log: each location keeps at least its latest this many writes (docs/jmm-model.md, "Memory"). */
    public static final int DEFAULT_WRITE_LOG = 1024;

    // what a site's mode makes of an access: an access mode, and for a compare-and-set whether it failed
    private static final int FAILED = 8;
    private static final int FINAL = 16;
    private static final AccessMode[] MODES = AccessMode.values();
    private static final FenceKind[] FENCES = FenceKind.values();

    private final FindingSink sink;
    private final IntFunction<String> modeOfSite;
    private final int bound;
    private final VolatileRule rule;
    private final boolean validatedReads;
    private final int writeLog;
    private long logLimitedBefore; // logLimited of the monitors forgotten
    // stale reads the monitor holds back (validated reads), by event number
    private final Map<Long, HeldRead> heldAt = new HashMap<>();
    private long validated;

    private RobustnessMonitor monitor;
    private int[] locationOf = new int[64];   // address id -> location + 1, 0 when not tracked
    private int[] freeLocations = new int[16];
    private int[] addressAt = new int[0];     // location -> its address, -1 when free
    private long[] lastUse = new long[0];     // location -> the event number of its last access
    private long[] scratch = new long[0];
    private int free;
    private int nextLocation;
    private int live;
    private byte[] siteCode = new byte[256];  // per site id and kind group: the access mode code + 1, 0 unknown

    private long evictions;

    // the event being fed, for the sink
    private int curThread;
    private int curKind;
    private int curAddress;
    private int curSite;
    private long curSeq;

    /**
     * An analysis reporting to {@code sink} that reads each site's mode through {@code modeOfSite}, tracking at most
     * {@code bound} addresses at once, volatile read as {@code rule} says.
     */
    public JmmAnalyzer(FindingSink sink, IntFunction<String> modeOfSite, int bound, VolatileRule rule) {
        this(sink, modeOfSite, bound, rule, true);
    }

    /**
     * An analysis as {@link #JmmAnalyzer(FindingSink, IntFunction, int, VolatileRule)}; {@code validatedReads}: a stale
     * read that a re-read of a version validates is dropped (docs/jmm-model.md, "Seqlocks"), else reported.
     */
    public JmmAnalyzer(FindingSink sink, IntFunction<String> modeOfSite, int bound, VolatileRule rule,
            boolean validatedReads) {
        this(sink, modeOfSite, bound, rule, validatedReads, DEFAULT_WRITE_LOG);
    }

    /**
     * An analysis as {@link #JmmAnalyzer(FindingSink, IntFunction, int, VolatileRule, boolean)} whose locations keep at
     * least their {@code writeLog} latest writes ({@link RobustnessMonitor#boundWriteLog}; {@code Integer.MAX_VALUE}:
     * every write), and a {@code jmm-write-log} note counts the checks that may have missed a report by it.
     */
    public JmmAnalyzer(FindingSink sink, IntFunction<String> modeOfSite, int bound, VolatileRule rule,
            boolean validatedReads, int writeLog) {
        if (bound < 1) {
            throw new IllegalArgumentException("the jmm analysis needs room for at least one address, not " + bound);
        }
        this.sink = sink;
        this.modeOfSite = modeOfSite;
        this.bound = bound;
        this.rule = rule;
        this.validatedReads = validatedReads;
        this.writeLog = writeLog;
        this.monitor = newMonitor();
    }

    /** An analysis with the default bound and volatile as the synchronization order. */
    public JmmAnalyzer(FindingSink sink, IntFunction<String> modeOfSite) {
        this(sink, modeOfSite, DEFAULT_BOUND, VolatileRule.SYNCHRONIZATION_ORDER);
    }

    private RobustnessMonitor newMonitor() {
        RobustnessMonitor m = new RobustnessMonitor(this::violation, rule);
        if (validatedReads) {
            m.validateReads(this::held, this::dropped);
        }
        if (writeLog < Integer.MAX_VALUE) {
            m.boundWriteLog(writeLog);
        }
        return m;
    }

    @Override
    public Analysis analysis() {
        return Analysis.JMM;
    }

    @Override
    public void event(int kind, int t, int operand, int site, long seq) {
        curThread = t;
        curKind = kind;
        curAddress = operand;
        curSite = site;
        curSeq = seq;
        switch (kind) {
            case Kinds.ADDRESS_DEAD -> retire(operand);
            case Kinds.LOAD -> {
                int x = location(operand);
                if (isFinalRead(site)) {
                    // JLS 17.5: a final field read through a reference shows the constructor's value, whatever the race
                    monitor.loadUnchecked(t, x, AccessMode.PLAIN);
                } else {
                    monitor.load(t, x, loadMode(site), seq);
                }
            }
            case Kinds.STORE -> {
                int x = location(operand);
                // a plain or opaque store (a fence right before it, logged as its own event, does the ordering)
                tag(t, kind, site);
                monitor.store(t, x, AccessMode.PLAIN, seq);
            }
            case Kinds.RELEASE_STORE -> {
                int x = location(operand);
                tag(t, kind, site);
                monitor.store(t, x, AccessMode.RELEASE, seq);
            }
            case Kinds.VOLATILE_STORE -> {
                int x = location(operand);
                tag(t, kind, site);
                monitor.store(t, x, AccessMode.VOLATILE, seq);
            }
            case Kinds.INTERLOCKED -> {
                int x = location(operand);
                if (stamped(t, x, site, seq)) {
                    return;
                }
                int code = rmwCode(site);
                AccessMode mode = MODES[code & 7];
                tag(t, kind, site);
                if ((code & FAILED) != 0) {
                    monitor.cas(t, x, mode, false, seq);
                } else {
                    monitor.rmw(t, x, mode, seq);
                }
            }
            case Kinds.MONITOR_ENTER -> {
                int x = location(operand);
                tag(t, kind, site);
                monitor.lockEnter(t, x, seq);
            }
            case Kinds.MONITOR_EXIT -> {
                int x = location(operand);
                tag(t, kind, site);
                monitor.lockExit(t, x, seq);
            }
            case Kinds.FULL_FENCE -> monitor.fence(t, FenceKind.FULL);
            case Kinds.STORE_STORE_FENCE -> monitor.fence(t, fenceKind(site, FenceKind.RELEASE));
            case Kinds.LOAD_FENCE -> monitor.fence(t, fenceKind(site, FenceKind.ACQUIRE));
            case Kinds.THREAD_START -> monitor.start(t, operand);
            case Kinds.THREAD_JOIN -> monitor.join(t, operand);
            case Kinds.THREAD_END -> monitor.end(t); // its stale reads still held back are reported
            default -> {
                // transaction bounds: nothing in the model
            }
        }
    }

    private void tag(int t, int kind, int site) {
        monitor.tagWrites(((long) site << 32) | ((long) (t & 0xFFFFFF) << 8) | (kind & 0xFF));
    }

    /**
     * A violation of the monitor as a finding: the SC-ordered write as the store, the event as the access (the current
     * one, or the stale read held back as {@link #held} recorded it).
     */
    private void violation(RobustnessViolation v) {
        HeldRead at = heldAt.isEmpty() ? null : heldAt.remove(v.event());
        long tag = at != null ? at.storeTag() : monitor.tagOf(v.location(), v.scStamp());
        int storeSite = (int) (tag >>> 32);
        int storeThread = (int) ((tag >>> 8) & 0xFFFFFF);
        int storeKind = (int) (tag & 0xFF);
        if (at == null) {
            sink.storeBuffered(Analysis.JMM, storeThread, storeKind, curAddress, storeSite, v.scWrite(), curThread,
                    curKind, curAddress, curSite, curSeq);
        } else {
            sink.storeBuffered(Analysis.JMM, storeThread, storeKind, at.address(), storeSite, v.scWrite(), at.thread(),
                    at.kind(), at.address(), at.site(), v.event(), at.prev());
        }
    }

    /** A stale read the monitor holds back: the event as its finding names it, and the store's tag then. */
    private record HeldRead(int thread, int kind, int address, int site, long storeTag, FindingSink.Prev prev) {
    }

    /** The monitor holds back a stale read of the current event: what its finding will need, kept until it is settled. */
    private void held(RobustnessViolation v) {
        heldAt.put(v.event(), new HeldRead(curThread, curKind, curAddress, curSite,
                monitor.tagOf(v.location(), v.scStamp()), sink.prevOf(curThread)));
    }

    /** A held stale read was validated by a re-read: no finding. */
    private void dropped(RobustnessViolation v) {
        heldAt.remove(v.event());
        validated++;
    }

    @Override
    public void finish() {
        monitor.flush();
    }

    /** The location of {@code address}, mapped on its first access; at the bound, all history is forgotten first. */
    private int location(int address) {
        if (address >= locationOf.length) {
            locationOf = Arrays.copyOf(locationOf, Math.max(address + 1, locationOf.length * 2));
        }
        int x = locationOf[address] - 1;
        if (x >= 0) {
            lastUse[x] = curSeq;
            return x;
        }
        if (live >= bound) {
            evictLeastRecentlyUsed();
        }
        x = free > 0 ? freeLocations[--free] : nextLocation++;
        locationOf[address] = x + 1;
        if (x >= addressAt.length) {
            addressAt = Arrays.copyOf(addressAt, Math.max(x + 1, addressAt.length * 2));
            lastUse = Arrays.copyOf(lastUse, addressAt.length);
        }
        addressAt[x] = address;
        lastUse[x] = curSeq;
        live++;
        return x;
    }

    /**
     * Makes room for a new address: the older half of the live addresses, by their last access, is retired as a dead
     * one is (each one's last write becomes known to every thread, which can only take reports away: the ones that
     * need an older write of it to stay readable), and their locations freed. Half at a time, so that the scan and
     * the sort cost O(log bound) per address let go.
     */
    private void evictLeastRecentlyUsed() {
        if (scratch.length < nextLocation) {
            scratch = new long[nextLocation];
        }
        int n = 0;
        for (int x = 0; x < nextLocation; x++) {
            if (addressAt[x] >= 0) {
                scratch[n++] = lastUse[x];
            }
        }
        Arrays.sort(scratch, 0, n);
        long median = scratch[(n - 1) / 2];
        for (int x = 0; x < nextLocation; x++) {
            if (addressAt[x] >= 0 && lastUse[x] <= median) {
                evictions++;
                retire(addressAt[x]);
            }
        }
    }

    /** The address's object was collected: its location starts a new life, free for another address. */
    private void retire(int address) {
        if (address < 0 || address >= locationOf.length || locationOf[address] == 0) {
            return;
        }
        int x = locationOf[address] - 1;
        locationOf[address] = 0;
        addressAt[x] = -1;
        monitor.retire(x);
        if (free == freeLocations.length) {
            freeLocations = Arrays.copyOf(freeLocations, free * 2);
        }
        freeLocations[free++] = x;
        live--;
    }

    private void forget() {
        logLimitedBefore += monitor.logLimited();
        monitor = newMonitor();
        Arrays.fill(locationOf, 0);
        Arrays.fill(addressAt, -1);
        free = 0;
        nextLocation = 0;
        live = 0;
    }

    // ---- modes ----

    /** Whether a load's site reads a final instance field ({@code Site.mode} {@code final}). */
    private boolean isFinalRead(int site) {
        int c = cached(site, 0);
        if (c < 0) {
            loadMode(site);
            c = cached(site, 0);
        }
        return (c & FINAL) != 0;
    }

    /** A load's mode: its site's {@code volatile}, {@code acquire} or {@code opaque}; plain otherwise. */
    private AccessMode loadMode(int site) {
        int c = cached(site, 0);
        if (c < 0) {
            String m = modeOfSite.apply(site);
            AccessMode a = switch (m) {
                case "volatile" -> AccessMode.VOLATILE;
                case "acquire" -> AccessMode.ACQUIRE; // also a plain load right before an acquire fence: the same
                case "opaque" -> AccessMode.OPAQUE;
                default -> AccessMode.PLAIN;
            };
            c = cache(site, 0, a.ordinal() | (m.equals("final") ? FINAL : 0));
        }
        return MODES[c & 7];
    }

    /**
     * A StampedLock call's event (its site's mode, {@code SiteModes}), as the JDK implements it: tryOptimisticRead a
     * volatile read of the state, validate an acquire fence and that read, a write-lock acquisition a volatile
     * compare-and-set and a storeStoreFence (a release fence, the one that makes a validation see a writer's data
     * writes as after it). False for every other interlocked event.
     */
    private boolean stamped(int t, int x, int site, long seq) {
        int c = cached(site, 3);
        if (c < 0) {
            c = cache(site, 3, switch (modeOfSite.apply(site)) {
                case SiteModes.OPTIMISTIC_READ -> 1;
                case SiteModes.VALIDATE -> 2;
                case SiteModes.WRITE_LOCK -> 3;
                default -> 0;
            });
        }
        switch (c) {
            case 1 -> monitor.load(t, x, AccessMode.VOLATILE, seq);
            case 2 -> {
                monitor.fence(t, FenceKind.ACQUIRE);
                monitor.load(t, x, AccessMode.VOLATILE, seq);
            }
            case 3 -> {
                tag(t, Kinds.INTERLOCKED, site);
                monitor.rmw(t, x, AccessMode.VOLATILE, seq);
                monitor.fence(t, FenceKind.RELEASE);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * A read-modify-write's mode (the access mode, with {@link #FAILED} for a compare-and-set that failed): its site's
     * {@code acquire}, {@code release}, {@code plain}, each with {@code -failed}, {@code failed}; empty is a volatile
     * one that succeeded (and every interlocked event of a trace written before the modes were recorded).
     */
    private int rmwCode(int site) {
        int c = cached(site, 1);
        if (c < 0) {
            String m = modeOfSite.apply(site);
            boolean failed = m.equals("failed") || m.endsWith("-failed");
            String flavour = failed ? (m.equals("failed") ? "" : m.substring(0, m.length() - "-failed".length())) : m;
            AccessMode a = switch (flavour) {
                case "acquire" -> AccessMode.ACQUIRE;
                case "release" -> AccessMode.RELEASE;
                case "plain", "opaque" -> AccessMode.OPAQUE;
                default -> AccessMode.VOLATILE;
            };
            c = cache(site, 1, a.ordinal() | (failed ? FAILED : 0));
        }
        return c;
    }

    /** A fence's kind: its site's {@code release}, {@code storestore}, {@code acquire}, {@code loadload}, else {@code dflt}. */
    private FenceKind fenceKind(int site, FenceKind dflt) {
        int c = cached(site, 2);
        if (c < 0) {
            FenceKind f = switch (modeOfSite.apply(site)) {
                case "release" -> FenceKind.RELEASE;
                case "storestore" -> FenceKind.STORE_STORE;
                case "acquire" -> FenceKind.ACQUIRE;
                case "loadload" -> FenceKind.LOAD_LOAD;
                default -> dflt;
            };
            c = cache(site, 2, f.ordinal());
        }
        return FENCES[c];
    }

    private int cached(int site, int group) {
        int i = site * 4 + group;
        return site >= 0 && i < siteCode.length ? siteCode[i] - 1 : -1;
    }

    private int cache(int site, int group, int code) {
        if (site < 0) {
            return code;
        }
        int i = site * 4 + group;
        if (i >= siteCode.length) {
            siteCode = Arrays.copyOf(siteCode, Math.max(i + 1, siteCode.length * 2));
        }
        siteCode[i] = (byte) (code + 1);
        return code;
    }

    @Override
    public void reset(int[] renumbered) {
        // thread slots are renumbered and every history forgotten (the checker's notes say so): so is the monitor's,
        // after the stale reads it holds back are reported (their threads' slots are the old ones)
        monitor.flush();
        forget();
    }

    @Override
    public List<Note> notes() {
        List<Note> notes = new ArrayList<>();
        if (evictions > 0) {
            notes.add(Note.degraded("jmm-address-bound", "jmm", evictions, "the jmm analysis tracks at most " + bound
                    + " addresses at once and let " + evictions + " less recently used one(s) go to make room (each "
                    + "then counts as known to every thread at its last write): a finding that needs an older write of "
                    + "such an address to stay readable is missed (jmmAddresses= raises the bound)"));
        }
        long limited = logLimited();
        if (limited > 0) {
            notes.add(Note.degraded("jmm-write-log", "jmm", limited, "the jmm analysis keeps each address's latest "
                    + writeLog + " writes at least, and " + limited + " check(s) found a write older than that readable: "
                    + "a finding that needs such a read, or a write placed before such a write, may be missed "
                    + "(jmmWriteLog= raises the bound, jmmWriteLog=none keeps every write)"));
        }
        if (validated > 0) {
            notes.add(Note.info("jmm-validated-reads", "jmm", validated, validated + " stale read(s) were not reported "
                    + "because their thread then re-read a location it had read before them (a seqlock's version) and "
                    + "that re-read must see a newer write: taken as reads the validation throws away, which assumes the "
                    + "program compares the two reads and discards the data when they differ (jmmValidatedReads=false "
                    + "reports them; docs/jmm-model.md, \"Seqlocks\")"));
        }
        return notes;
    }

    /** Stale reads dropped because a re-read validated them. */
    public long validated() {
        return validated;
    }

    /** Checks that may have missed a report because the write they need is older than the write log keeps. */
    public long logLimited() {
        return logLimitedBefore + monitor.logLimited();
    }

    /** Addresses let go to make room under the bound. */
    public long evictions() {
        return evictions;
    }
}
