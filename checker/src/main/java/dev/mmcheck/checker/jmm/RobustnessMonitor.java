package dev.mmcheck.checker.jmm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The robustness monitor of Margalit, Kokologiannakis, Itzhaky and Lahav ("Dynamic Robustness
 * Verification against Weak Memory", PLDI 2025; the algorithm as their tool RSAN implements it), for
 * Java's access modes: it runs over one sequentially consistent (SC) run, an event at a time, and reports
 * each event at which some execution of the same program under the model (RC20, the repaired C/C++20
 * model, with Java's modes mapped onto it: docs/jmm-model.md) takes a step that no SC execution takes.
 *
 * <p>Every clock is a <em>location clock</em>: for each location the stamp of a write to it, the k-th
 * write to a location having stamp k (0: its initial value). Per thread it keeps the SC knowledge
 * {@code sc} (the latest write to each location that is ordered before the thread's next event by
 * program order, reads-from, write order and from-reads) and the model's views: {@code cur} (the oldest
 * write the model still lets the thread read), {@code acq} (what an acquire fence would make current),
 * {@code rel} (what a relaxed write publishes after a release fence). Per location it keeps the SC
 * knowledge of its last write ({@code w}) and of that write and its readers ({@code m}), and the message
 * view of its last write ({@code msg}). RSAN keeps each with a twin over U-stamps, which count only the writes
 * that are not read-modify-writes (a write can be placed in a location's write order only right before such a
 * write, never between a read-modify-write and the write it read). The twins are not kept here: a location's
 * U-stamps grow with its stamps, so every join, raise and copy of a twin gives the U-stamp of what the same
 * operation gives its view, and each location logs its writes' U-stamps to read a twin's entry off the view's.
 *
 * <p>The checks, before each event's own update: a read of x by t is reported when
 * {@code sc[t][x] > cur[t][x]} (it can read an older write than SC orders before it), a write or
 * read-modify-write when {@code scU[t][x] > curU[t][x]} (it can be placed before a write SC orders before
 * it). A compare-and-set given its expected value and the written values is checked exactly: it is
 * reported when it can read an older write whose value differs (it fails, a stale read) or one no
 * read-modify-write has read (it is placed right after it); without values it gets the write check,
 * which never reports a compare-and-set without such an execution, and can miss one.
 *
 * <p>Fences: an acquire fence makes {@code acq} current, a release fence sets {@code rel}; a full fence is
 * the model's SC fence, an acquire fence, an acquire-release read-modify-write of one pseudo-location
 * that every full fence updates, and a release fence (not checked). A volatile access is read as
 * {@link VolatileRule} says: by default an acquire read, a release write whose message serves every later
 * volatile read, never reported for a write older than the location's latest volatile one
 * ({@link VolatileRule#SYNCHRONIZATION_ORDER}); or a full fence followed by the access in acquire (read),
 * release (write) or acquire-release (read-modify-write) mode ({@link VolatileRule#LEADING_FENCE}).
 * Monitors: entering is an acquire read-modify-write of the lock's location, exiting a release store to
 * it, neither checked (a blocking acquire that read an older value would only wait longer). Thread start
 * copies every clock of the parent to the child, join joins the joined thread's into the joiner's.
 *
 * <p>Joins that cannot change anything are left out (the same reports, less work: most accesses are to data one
 * thread wrote last). A thread's views only grow, and {@code rel ⊑ cur ⊑ acq} holds for each: so when a location's
 * {@code w}, {@code m} or {@code msg} (with twin) was last set from one thread's {@code sc} or {@code cur} and has not
 * taken anyone else's knowledge since, it is below that thread's view for good, and that thread's read of it joins
 * nothing ({@code m} becomes the thread's {@code sc}). Each location keeps, per view, the key of such a thread (0:
 * none); a thread gets a new key when its views are replaced ({@link #start}).
 *
 * <p>With {@link #validateReads} (validated reads, docs/jmm-model.md "Seqlocks"), a stale read is held back rather
 * than reported: its thread's first re-read of a location it read before it, with no write between, drops it when
 * that re-read must see a newer write than the first read in every execution where the stale read reads older (a
 * seqlock's validation); the thread's next write, synchronization or end, or {@link #flush}, reports it.
 *
 * <p>Locations and threads are small non-negative ints chosen by the caller; event ids are the caller's
 * (an index in the stream). Memory grows with locations and threads (views dense over the locations), and with
 * writes per location (each write's id is kept for reports) unless {@link #boundWriteLog} bounds them; a retired
 * location's log starts again. Not thread-safe: one caller, events in the order of the SC run.
 */
public final class RobustnessMonitor {

    /** The internal index of the SC fences' pseudo-location; a caller's location x is index x + 1. */
    private static final int FENCES = 0;

    private final Consumer<RobustnessViolation> sink;
    private final VolatileRule rule;
    private final View vol = new View();    // SYNCHRONIZATION_ORDER: each location's latest volatile write
    private Loc[] locs = new Loc[8];
    private Thr[] thrs = new Thr[4];
    private long violations;
    private long nextTag;
    private long nextKey;   // the last key given to a thread's views (the views-dominate marks of Loc)
    // validated reads (docs/jmm-model.md, "Seqlocks"): off unless validateReads was called
    private boolean validate;
    private Consumer<RobustnessViolation> held = v -> { };
    private Consumer<RobustnessViolation> dropped = v -> { };
    private long validated;
    // the write log's bound (boundWriteLog; 0: none), and the checks that may have missed a report by it
    private int writeLog;
    private long logLimited;

    /** A monitor that hands each violation to {@code sink}, volatile read as {@link VolatileRule#SYNCHRONIZATION_ORDER}. */
    public RobustnessMonitor(Consumer<RobustnessViolation> sink) {
        this(sink, VolatileRule.SYNCHRONIZATION_ORDER);
    }

    /** A monitor that hands each violation to {@code sink} and reads volatile accesses as {@code rule} says. */
    public RobustnessMonitor(Consumer<RobustnessViolation> sink, VolatileRule rule) {
        this.sink = Objects.requireNonNull(sink);
        this.rule = Objects.requireNonNull(rule);
    }

    /**
     * A monitor in this one's state that reports to {@code other}: the run so far can be continued in
     * several ways (to check each continuation of a schedule from a common prefix).
     */
    public RobustnessMonitor copy(Consumer<RobustnessViolation> other) {
        RobustnessMonitor c = new RobustnessMonitor(other, rule);
        c.vol.assign(vol);
        c.locs = new Loc[locs.length];
        for (int i = 0; i < locs.length; i++) {
            c.locs[i] = locs[i] == null ? null : new Loc(locs[i]);
        }
        c.thrs = new Thr[thrs.length];
        for (int i = 0; i < thrs.length; i++) {
            c.thrs[i] = thrs[i] == null ? null : new Thr(thrs[i]);
        }
        c.violations = violations;
        c.nextTag = nextTag;
        c.nextKey = nextKey;
        c.validate = validate;
        c.writeLog = writeLog;
        c.logLimited = logLimited;
        c.validated = validated;
        return c;
    }

    /** The caller's tag for the writes of the events that follow, until set again (0 at first). */
    public void tagWrites(long tag) {
        nextTag = tag;
    }

    /**
     * The tag the write with stamp {@code stamp} to {@code location} was given ({@link #tagWrites}); valid for the
     * stamps of a violation while the sink handles it; 0 for an initial value.
     */
    public long tagOf(int location, int stamp) {
        Loc l = loc(index(location));
        return stamp < l.base || stamp > l.count ? 0 : l.tag(stamp);
    }

    /**
     * {@code location} is gone (its object was collected) and its id may name a new one: from now on it is a new
     * location whose initial value every thread knows, and nothing of its old writes is kept.
     */
    public void retire(int location) {
        int x = index(location);
        Loc l = loc(x);
        // the threads' views are left as they are: every check reads a view's entry of x as at least the location's
        // base (the last write of the old life, now the initial value), so raising them to it would change no report;
        // a thread's earlier reads of x belong to the old life (validateBy compares lives)
        vol.raise(x, l.count);
        l.renew(x, nextKey);
    }

    /** Violations reported so far. */
    public long violations() {
        return violations;
    }

    /**
     * Turns on validated reads (docs/jmm-model.md, "Seqlocks"): a stale read is held back, {@code held} told at once,
     * and later either reported to the sink (its thread writes, synchronizes or ends, or {@link #flush}) or dropped,
     * {@code dropped} told, when its thread re-reads a location it read before it, with no write of its own since,
     * and that re-read must see a newer write of it than the first read did in every execution where the stale read
     * reads the older write: the validation of a seqlock, which then throws the data away.
     */
    public void validateReads(Consumer<RobustnessViolation> held, Consumer<RobustnessViolation> dropped) {
        this.validate = true;
        this.held = Objects.requireNonNull(held);
        this.dropped = Objects.requireNonNull(dropped);
    }

    /**
     * Bounds each location's log of writes: it keeps at least the latest {@code most} and at most twice that, and an
     * older write is no longer readable by any thread (as its life's older writes after a {@link #retire}). A read or
     * write that the model lets see or follow only such a write is not reported ({@link #logLimited} counts the checks
     * that may have lost a report so); one that can also see a newer write still is, naming the oldest kept.
     */
    public void boundWriteLog(int most) {
        if (most < 1) {
            throw new IllegalArgumentException("a write log keeps at least one write, not " + most);
        }
        writeLog = most;
    }

    /**
     * Checks that may have missed a report because the write it needs is older than its location's log keeps
     * ({@link #boundWriteLog}): an upper bound (a write check is counted when a write older than the log is readable,
     * whether or not placing the write there would have been reported).
     */
    public long logLimited() {
        return logLimited;
    }

    /** Stale reads dropped because a validating re-read followed ({@link #validateReads}). */
    public long validated() {
        return validated;
    }

    /** Reports every stale read still held back, thread by thread (the run ended). */
    public void flush() {
        for (Thr t : thrs) {
            if (t != null) {
                release(t);
            }
        }
    }

    /** {@code thread} ended: its stale reads still held back are reported. */
    public void end(int thread) {
        release(thr(thread));
    }

    // ---- the events ----

    /** A read of {@code location} by {@code thread} in {@code mode} (not {@link AccessMode#RELEASE}). */
    public void load(int thread, int location, AccessMode mode, long id) {
        if (mode == AccessMode.RELEASE) {
            throw new IllegalArgumentException("a load has no release mode");
        }
        boolean so = leadingFence(thread, mode);
        Thr t = thr(thread);
        int x = index(location);
        Loc l = loc(x);
        if (t.held != null && !t.held.isEmpty()) {
            validateBy(t, x, so);
        }
        checkRead(t, l, x, thread, location, id, so ? vol.get(x) : 0);
        readUpdate(t, l, x, mode.acquires());
        noteRead(t, x, l);
    }

    /**
     * A read of {@code location} that is known to see the value the run gave it, and is not checked (a final field's
     * read, JLS 17.5): only its effect on the views.
     */
    public void loadUnchecked(int thread, int location, AccessMode mode) {
        int x = index(location);
        Thr t = thr(thread);
        Loc l = loc(x);
        if (t.held != null && !t.held.isEmpty()) {
            validateBy(t, x, false);
        }
        readUpdate(t, l, x, mode.acquires());
        noteRead(t, x, l);
    }

    /** A write of an unknown value to {@code location} by {@code thread} in {@code mode} (not {@link AccessMode#ACQUIRE}). */
    public void store(int thread, int location, AccessMode mode, long id) {
        store(thread, location, mode, false, 0, id);
    }

    /** A write of {@code value} to {@code location} by {@code thread} in {@code mode} (not {@link AccessMode#ACQUIRE}). */
    public void store(int thread, int location, AccessMode mode, long value, long id) {
        store(thread, location, mode, true, value, id);
    }

    private void store(int thread, int location, AccessMode mode, boolean known, long value, long id) {
        if (mode == AccessMode.ACQUIRE) {
            throw new IllegalArgumentException("a store has no acquire mode");
        }
        Thr t = thr(thread);
        wrote(t);
        boolean so = leadingFence(thread, mode);
        int x = index(location);
        Loc l = loc(x);
        checkWrite(t, l, x, thread, location, id, so ? vol.get(x) : 0);
        storeUpdate(t, l, x, mode.releases(), so, known, value, id);
        if (so) {
            volatileWritten(l, x);
        }
    }

    /**
     * A read-modify-write that always succeeds (getAndSet, getAndAdd, getAndBitwise*...), writing an
     * unknown value; {@code mode} gives both parts (ACQUIRE: acquire read, relaxed write; RELEASE: relaxed
     * read, release write; VOLATILE: full fence, then both).
     */
    public void rmw(int thread, int location, AccessMode mode, long id) {
        rmw(thread, location, mode, false, 0, id);
    }

    /** {@link #rmw(int, int, AccessMode, long)} writing {@code value}. */
    public void rmw(int thread, int location, AccessMode mode, long value, long id) {
        rmw(thread, location, mode, true, value, id);
    }

    private void rmw(int thread, int location, AccessMode mode, boolean known, long value, long id) {
        Thr t = thr(thread);
        wrote(t);
        boolean so = leadingFence(thread, mode);
        int x = index(location);
        Loc l = loc(x);
        checkWrite(t, l, x, thread, location, id, so ? vol.get(x) : 0);
        rmwUpdate(t, l, x, mode.acquires(), mode.releases(), known, value, id);
        if (so) {
            volatileWritten(l, x);
        }
    }

    /**
     * A compare-and-set (strong or weak, compareAndExchange*) whose values are not known: it succeeded
     * ({@code success}, a read-modify-write in {@code mode}) or failed (a read in {@code mode}'s read
     * part). Checked with the write check: reported only when an execution exists whatever the values.
     */
    public void cas(int thread, int location, AccessMode mode, boolean success, long id) {
        cas(thread, location, mode, false, 0, success, 0, id);
    }

    /**
     * A compare-and-set expecting {@code expected} that succeeded, writing {@code value}, or failed:
     * checked exactly against the values the writes to the location were given (a write given none may
     * hold the expected value).
     */
    public void cas(int thread, int location, AccessMode mode, long expected, boolean success, long value, long id) {
        cas(thread, location, mode, true, expected, success, value, id);
    }

    private void cas(int thread, int location, AccessMode mode, boolean valueAware, long expected, boolean success,
            long value, long id) {
        Thr t = thr(thread);
        wrote(t); // a compare-and-set may write, and its expected value may be what a held read read
        boolean so = leadingFence(thread, mode);
        int x = index(location);
        Loc l = loc(x);
        if (valueAware) {
            checkCas(t, l, x, thread, location, id, expected, so ? vol.get(x) : 0);
        } else {
            checkWrite(t, l, x, thread, location, id, so ? vol.get(x) : 0);
        }
        if (success) {
            rmwUpdate(t, l, x, mode.acquires(), mode.releases(), valueAware, value, id);
            if (so) {
                volatileWritten(l, x);
            }
        } else {
            readUpdate(t, l, x, mode.acquires());
        }
    }

    /** A fence of {@code thread}. */
    public void fence(int thread, FenceKind kind) {
        Thr t = thr(thread);
        if (t.held != null && (kind == FenceKind.FULL || kind.acquires())) {
            for (Held h : t.held) {
                h.acquired = true; // from here on the thread's cur is at least the acq it had at the held read
            }
        }
        if (kind == FenceKind.FULL) {
            // the SC fence: fence(acq); RMW_acq_rel on the fences' location (its RC20 half only); fence(rel)
            t.cur.assign(t.acq);
            Loc f = loc(FENCES);
            f.count++; // not logged: no report names a fence's write, and every one is a read-modify-write (U-stamp 0)
            rmwModel(t, f, FENCES, f.count, true, true);
            t.rel.assign(t.cur);
            return;
        }
        if (kind.acquires()) {
            t.cur.assign(t.acq);
        }
        if (kind.releases()) {
            t.rel.assign(t.cur);
        }
    }

    /** {@code thread} enters the monitor at {@code lock} (a location): an acquire read-modify-write, not checked. */
    public void lockEnter(int thread, int lock, long id) {
        int x = index(lock);
        Thr t = thr(thread);
        wrote(t);
        rmwUpdate(t, loc(x), x, true, false, false, 0, id);
    }

    /** {@code thread} exits the monitor at {@code lock}: a release store, not checked. */
    public void lockExit(int thread, int lock, long id) {
        int x = index(lock);
        Thr t = thr(thread);
        wrote(t);
        storeUpdate(t, loc(x), x, true, false, false, 0, id);
    }

    /** {@code parent} starts {@code child}: the child begins with every clock of the parent. */
    public void start(int parent, int child) {
        Thr p = thr(parent);
        wrote(p); // what the parent read so far goes to the child
        Thr c = thr(child);
        release(c);
        c.assign(p, ++nextKey);
    }

    /** {@code joiner} has joined {@code joined}: every clock of the joined thread is joined into the joiner's. */
    public void join(int joiner, int joined) {
        Thr j = thr(joined);
        release(j);
        Thr t = thr(joiner);
        wrote(t);
        t.join(j);
    }

    /**
     * For a volatile access: under {@link VolatileRule#LEADING_FENCE} its SC fence, and false; under
     * {@link VolatileRule#SYNCHRONIZATION_ORDER} true. False for every other mode.
     */
    private boolean leadingFence(int thread, AccessMode mode) {
        if (mode != AccessMode.VOLATILE) {
            return false;
        }
        if (rule == VolatileRule.LEADING_FENCE) {
            fence(thread, FenceKind.FULL);
            return false;
        }
        return true;
    }

    /** The location's last write was volatile: no volatile access may read or follow an older one. */
    private void volatileWritten(Loc l, int x) {
        vol.raise(x, l.count);
    }

    // ---- the checks ----

    /** The read check; {@code floor}: no older write is readable (the latest volatile one, or 0). */
    private void checkRead(Thr t, Loc l, int x, int thread, int location, long id, int floor) {
        int sc = t.sc.get(x);
        // nothing older than the location's current life can be read (a retired location: retire), nor than its log
        // keeps (boundWriteLog)
        int older = Math.max(Math.max(t.cur.get(x), floor), l.lifeBase);
        int cur = Math.max(older, l.base);
        if (sc > older && sc <= cur) {
            logLimited++; // only writes the log no longer keeps were readable
        }
        if (sc > cur) {
            RobustnessViolation v = violation(RobustnessViolation.Kind.STALE_READ, thread, location, id, l, sc, cur);
            // a read since the thread's last write may be validated by a re-read (an acquiring re-read of a location
            // read since then too: a seqlock's next attempt starts so; docs/jmm-model.md says what that can cost)
            if (validate && t.reads > t.lastWriteAt) {
                hold(t, x, v);
            } else {
                deliver(v);
            }
        }
    }

    /**
     * The write check, over U-stamps (the U-stamp of a view's entry is that of the write it names: {@link Loc#u});
     * {@code floor}: as for the read check.
     */
    private void checkWrite(Thr t, Loc l, int x, int thread, int location, long id, int floor) {
        int sc = t.sc.get(x);
        int older = Math.max(Math.max(t.cur.get(x), floor), l.lifeBase);
        int scU = l.u(sc);
        int curU = l.u(Math.max(older, l.base));
        if (older < l.base && sc > older && scU <= curU) {
            logLimited++; // a write older than the log keeps was readable: placing this one there is not checked
        }
        if (scU > curU) {
            // placed right before the first non-RMW write after the view, i.e. right after the write before it
            report(RobustnessViolation.Kind.WRITE_PLACEMENT, thread, location, id, l, l.firstOfU(scU),
                    l.firstOfU(curU + 1) - 1);
        }
    }

    /** The exact check of a compare-and-set: some older readable write it fails on, or one it can follow. */
    private void checkCas(Thr t, Loc l, int x, int thread, int location, long id, long expected, int floor) {
        int sc = t.sc.get(x);
        int older = Math.max(Math.max(t.cur.get(x), floor), l.lifeBase);
        for (int j = Math.max(older, l.base); j < sc; j++) {
            if (l.known(j) && l.value(j) != expected) {
                report(RobustnessViolation.Kind.STALE_READ, thread, location, id, l, sc, j);
                return;
            }
            if (!l.rmw(j + 1)) {
                report(RobustnessViolation.Kind.WRITE_PLACEMENT, thread, location, id, l,
                        l.firstOfU(l.u(sc)), j);
                return;
            }
        }
        if (older < l.base && sc > older) {
            logLimited++; // writes older than the log keeps were readable: they were not checked
        }
    }

    private void report(RobustnessViolation.Kind kind, int thread, int location, long id, Loc l, int scStamp,
            int visibleStamp) {
        deliver(violation(kind, thread, location, id, l, scStamp, visibleStamp));
    }

    private static RobustnessViolation violation(RobustnessViolation.Kind kind, int thread, int location, long id, Loc l,
            int scStamp, int visibleStamp) {
        return new RobustnessViolation(kind, thread, location, id, l.id(scStamp), scStamp, l.id(visibleStamp),
                visibleStamp);
    }

    private void deliver(RobustnessViolation v) {
        violations++;
        sink.accept(v);
    }

    // ---- validated reads ----

    /** Holds back stale read {@code v} of location {@code x} by {@code t}, with the views it was checked against. */
    private void hold(Thr t, int x, RobustnessViolation v) {
        if (t.held == null) {
            t.held = new ArrayList<>(2);
        }
        // the held read's own number: noteRead gives it reads + 1 right after
        t.held.add(new Held(v, x, t.reads + 1, t.cur.duplicate(), t.acq.duplicate()));
        held.accept(v);
    }

    /**
     * {@code t} reads location {@code x} ({@code so}: a volatile read under the synchronization-order rule): each
     * held read of another location that this is the first re-read after, of a location read since the thread's last
     * write, is dropped when every execution in which the held read reads its older write makes this read see a newer
     * write than the first read did. In such an execution the thread's views at this read are at least the ones it
     * had at the held read (everything read after it may have been older: nothing of it is counted), raised to its
     * acquire view by an acquire or full fence between; the read cannot see below them, below the latest volatile
     * write (so), or below its location's current life.
     */
    private void validateBy(Thr t, int x, boolean so) {
        if (x >= t.readAt.length) {
            return; // never read before
        }
        long at = t.readAt[x];
        Loc l = loc(x);
        if (at <= t.lastWriteAt || t.readLife[x] != l.life) {
            return; // not read since the thread's last write, or only in the location's old life: nothing to validate
        }
        int first = t.readStamp[x];
        for (int i = t.held.size() - 1; i >= 0; i--) {
            Held h = t.held.get(i);
            if (h.x == x || at >= h.at) {
                continue; // the held read's own location, or not the first re-read since it
            }
            int bound = Math.max(h.cur.get(x), h.acquired ? h.acq.get(x) : 0);
            bound = Math.max(Math.max(bound, so ? vol.get(x) : 0), l.lifeBase);
            if (bound > first) {
                t.held.remove(i);
                validated++;
                dropped.accept(h.violation);
            }
        }
    }

    /** {@code t} read location {@code x}, its last write. */
    private void noteRead(Thr t, int x, Loc l) {
        if (!validate) {
            return;
        }
        if (x >= t.readAt.length) {
            int n = Math.max(x + 1, t.readAt.length * 2);
            t.readAt = Arrays.copyOf(t.readAt, n);
            t.readStamp = Arrays.copyOf(t.readStamp, n);
            t.readLife = Arrays.copyOf(t.readLife, n);
        }
        t.readAt[x] = ++t.reads;
        t.readStamp[x] = l.count;
        t.readLife[x] = l.life;
    }

    /** {@code t} writes or synchronizes: what it read may now leave the thread, so its held reads are reported. */
    private void wrote(Thr t) {
        release(t);
        t.lastWriteAt = t.reads;
    }

    /** Reports {@code t}'s held reads, in the order they were read. */
    private void release(Thr t) {
        if (t.held == null || t.held.isEmpty()) {
            return;
        }
        for (Held h : t.held) {
            deliver(h.violation);
        }
        t.held.clear();
    }

    /** A stale read held back: its violation, location, number among its thread's reads, and the views it saw. */
    private static final class Held {
        final RobustnessViolation violation;
        final int x;
        final long at;
        final View cur;
        final View acq;
        boolean acquired; // an acquire or full fence of the thread since

        Held(RobustnessViolation violation, int x, long at, View cur, View acq) {
            this.violation = violation;
            this.x = x;
            this.at = at;
            this.cur = cur;
            this.acq = acq;
        }

        Held copy() {
            Held h = new Held(violation, x, at, cur.duplicate(), acq.duplicate());
            h.acquired = acquired;
            return h;
        }
    }

    // ---- the updates ----

    /**
     * A read of the location's last write: the SC half (rf, and the reader kept for rb) and the model's. A join whose
     * source and target are both as they were right after the same join at this thread's last read of the location
     * is left out: it would change nothing (the views only grow between, their versions say when they changed). The
     * reader's sc goes into the location's m, which only grows within a life (a write sets it to the writer's sc after
     * joining it there): m is still above the sc this thread had at its last read of the location, so it needs only
     * the raises of sc since, when its log still has them ({@link View#raisesSince}), and nothing if there were none.
     */
    private static void readUpdate(Thr t, Loc l, int x, boolean acquire) {
        t.memoFor(x);
        long sc = t.sc.version();
        if (t.memoMLife[x] != l.life || t.memoSc[x] != sc) {
            boolean below = below(l.mBy, t);
            joinSc(t, l, x, below);
            // below: m is now sc, only below this thread's views (it may have been every thread's, at a renewal)
            l.mBy = below ? t.key : 0;
        }
        long w = l.w.version();
        if (!below(l.wBy, t) && t.memoW[x] != w) { // w ⊑ sc when this thread wrote it
            t.sc.join(l.w);
            t.memoW[x] = w;
        }
        if (below(l.msgBy, t)) {
            return; // msg ⊑ cur ⊑ acq: no join or raise below changes anything
        }
        long msg = l.msg.version();
        if (t.memoAcq[x] != msg) {
            t.acq.join(l.msg);
            t.memoAcq[x] = msg;
        }
        if (acquire) {
            if (t.memoCur[x] != msg) {
                t.cur.join(l.msg);
                t.memoCur[x] = msg;
            }
        } else {
            // a relaxed read: per-location coherence only
            t.cur.raise(x, l.msg.get(x));
        }
    }

    /**
     * m ⊔= t's sc (the SC knowledge of the location's last write and its readers takes t's), by the raises of sc since
     * t's last such join if m is still above what sc was then, else by a copy ({@code scAbove}: sc ⊒ m) or a join;
     * t's memo of it updated.
     */
    private static void joinSc(Thr t, Loc l, int x, boolean scAbove) {
        if (t.memoMLife[x] != l.life || !t.sc.raisesSince(t.memoSc[x], l.m, View.JOIN_RAISES)) {
            if (scAbove) {
                l.m.assign(t.sc);
            } else {
                l.m.join(t.sc);
            }
        }
        t.memoSc[x] = t.sc.version();
        t.memoMLife[x] = l.life;
    }

    /**
     * A write placed last in the location's write order; {@code keep}: its message keeps the location's earlier
     * ones (a volatile write under {@link VolatileRule#SYNCHRONIZATION_ORDER}, for every later volatile read).
     */
    private void storeUpdate(Thr t, Loc l, int x, boolean release, boolean keep, boolean known, long value,
            long id) {
        int k = l.append(id, false, known, value, nextTag, writeLog);
        // SC half: mo and rb edges into the writer (m holds the last write and its readers), then publish
        if (below(l.mBy, t)) {
            t.sc.raise(x, k); // m ⊑ sc but for the new write
        } else {
            l.m.raise(x, k);
            t.sc.join(l.m);
        }
        l.w.assign(t.sc);
        t.memoFor(x);
        joinSc(t, l, x, true); // m := sc, as sc ⊒ m now
        l.wBy = t.key;
        l.mBy = t.key;
        // the model's half
        t.cur.raise(x, k);
        t.acq.raise(x, k);
        if (release && keep) {
            l.msg.join(t.cur);
            l.msgBy = below(l.msgBy, t) ? t.key : 0; // below cur only if the message kept was
        } else if (release) {
            l.msg.assign(t.cur);
            l.msgBy = t.key;
        } else {
            l.msg.assignRaised(t.rel, x, k);
            l.msgBy = t.key; // rel ⊑ cur, and cur holds the new write
        }
    }

    /** A read-modify-write reading the location's last write and placed right after it (no new U-stamp). */
    private void rmwUpdate(Thr t, Loc l, int x, boolean acquire, boolean release, boolean known, long value,
            long id) {
        int k = l.append(id, true, known, value, nextTag, writeLog);
        if (below(l.mBy, t)) {
            t.sc.raise(x, k); // m ⊑ sc but for the new write
        } else {
            l.m.raise(x, k);
            t.sc.join(l.m);
        }
        l.w.assign(t.sc);
        t.memoFor(x);
        joinSc(t, l, x, true); // m := sc, as sc ⊒ m now
        l.wBy = t.key;
        l.mBy = t.key;
        rmwModel(t, l, x, k, acquire, release);
    }

    /**
     * The model's half of a read-modify-write with stamp {@code k}: it extends the release sequence it reads. Joins of
     * the message into a view already above it (the location's mark, or the memo of this thread's last join of the
     * same message) are left out, and a release part after an acquire part copies cur rather than joins it.
     */
    private static void rmwModel(Thr t, Loc l, int x, int k, boolean acquire, boolean release) {
        t.memoFor(x);
        boolean below = below(l.msgBy, t);
        long was = l.msg.version();
        boolean acqHas = below || t.memoAcq[x] == was; // acq ⊒ msg (the raises below keep it so)
        boolean curHas = below || t.memoCur[x] == was; // cur ⊒ msg
        // the message takes the new write below, from cur (release) or by a raise: acq and cur have it already, so their
        // joins of the message need not wait for it
        t.acq.raise(x, k);
        t.cur.raise(x, k);
        if (!acqHas) {
            t.acq.join(l.msg);
        }
        if (acquire && !curHas) {
            t.cur.join(l.msg);
        }
        curHas |= acquire;
        if (release) {
            if (curHas) {
                l.msg.assign(t.cur); // msg ⊑ cur: the join is cur
            } else {
                l.msg.join(t.cur);
            }
        } else if (l.msg.onlyAt(x)) {
            l.msg.assignRaised(t.rel, x, k); // a new life's message: its one entry is below k
        } else {
            l.msg.raise(x, k);
            l.msg.join(t.rel); // rel ⊑ cur ⊑ acq: what was below msg stays below it
        }
        // acq ⊒ msg now (it took msg, and cur and rel are below it); cur too if it was or took msg
        long now = l.msg.version();
        t.memoAcq[x] = now;
        t.memoCur[x] = curHas ? now : -1;
        // below cur: after an acquire part (cur took msg), or if it was before (cur took the new write); else unknown
        l.msgBy = curHas ? t.key : 0;
    }

    /** Whether a view marked {@code by} (a Loc's mark) is below {@code t}'s views for good. */
    private static boolean below(long by, Thr t) {
        return by == t.key || by < 0 && t.key <= -by;
    }

    // ---- state ----

    private static int index(int location) {
        if (location < 0 || location == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bad location id " + location);
        }
        return location + 1;
    }

    private Loc loc(int x) {
        if (x >= locs.length) {
            locs = Arrays.copyOf(locs, Math.max(x + 1, locs.length * 2));
        }
        Loc l = locs[x];
        if (l == null) {
            l = locs[x] = new Loc();
        }
        return l;
    }

    private Thr thr(int thread) {
        if (thread < 0) {
            throw new IllegalArgumentException("bad thread id " + thread);
        }
        if (thread >= thrs.length) {
            thrs = Arrays.copyOf(thrs, Math.max(thread + 1, thrs.length * 2));
        }
        Thr t = thrs[thread];
        if (t == null) {
            t = thrs[thread] = new Thr();
            t.key = ++nextKey;
        }
        return t;
    }

    /** A thread's clocks: the SC knowledge and the model's three views. */
    private static final class Thr {
        final View sc;
        final View cur;
        final View acq;
        final View rel;

        // per location, at this thread's last read of it: its sc's version when it went into the
        // location's m, and the location's life then (m is above that sc while the life lasts); the versions of the
        // location's w, and of its message when joined into acq and into cur; -1 before any (views only grow between:
        // a thread's by joins, a location's w and message until a write replaces them, which changes their versions)
        long[] memoSc = new long[0];
        long[] memoMLife = new long[0];
        long[] memoW = new long[0];
        long[] memoAcq = new long[0];
        long[] memoCur = new long[0];
        // names these views while they only grow (Loc's marks); a new one when they are replaced; 0 is no thread's
        long key;
        // validated reads: per location, the number of this thread's latest read of it (0: none), the stamp it read and the
        // location's life then;
        // reads so far; the reads there were at the thread's last write; stale reads held back (null until one is)
        long[] readAt = new long[0];
        int[] readStamp = new int[0];
        long[] readLife = new long[0];
        long reads;
        long lastWriteAt;
        List<Held> held;

        /** Makes room for location {@code x} in the memos. */
        void memoFor(int x) {
            if (x >= memoSc.length) {
                int n = Math.max(x + 1, memoSc.length * 2);
                memoSc = grown(memoSc, n);
                memoMLife = grown(memoMLife, n);
                memoW = grown(memoW, n);
                memoAcq = grown(memoAcq, n);
                memoCur = grown(memoCur, n);
            }
        }

        private static long[] grown(long[] a, int n) {
            long[] b = Arrays.copyOf(a, n);
            Arrays.fill(b, a.length, n, -1);
            return b;
        }

        /** Forgets the memos (the views were replaced, not grown). */
        void forgetMemos() {
            Arrays.fill(memoSc, -1);
            Arrays.fill(memoMLife, -1);
            Arrays.fill(memoW, -1);
            Arrays.fill(memoAcq, -1);
            Arrays.fill(memoCur, -1);
        }

        Thr() {
            // logged: their raises are replayed into the locations' views copied from them or above them (View.assign,
            // raisesSince)
            sc = new View(true);
            cur = new View(true);
            acq = new View(true);
            rel = new View(true);
        }

        Thr(Thr o) {
            key = o.key;
            readAt = o.readAt.clone();
            readStamp = o.readStamp.clone();
            readLife = o.readLife.clone();
            reads = o.reads;
            lastWriteAt = o.lastWriteAt;
            if (o.held != null) {
                held = new ArrayList<>(o.held.size());
                for (Held h : o.held) {
                    held.add(h.copy());
                }
            }
            memoSc = o.memoSc.clone();
            memoMLife = o.memoMLife.clone();
            memoW = o.memoW.clone();
            memoAcq = o.memoAcq.clone();
            memoCur = o.memoCur.clone();
            sc = o.sc.duplicate();
            cur = o.cur.duplicate();
            acq = o.acq.duplicate();
            rel = o.rel.duplicate();
        }

        /** Replaces every view by {@code o}'s; {@code newKey}: these views' new key (they may have shrunk). */
        void assign(Thr o, long newKey) {
            key = newKey;
            forgetMemos();
            lastWriteAt = reads; // a new thread: nothing it reads before is validated
            sc.assign(o.sc);
            cur.assign(o.cur);
            acq.assign(o.acq);
            rel.assign(o.rel);
        }

        void join(Thr o) {
            sc.join(o.sc);
            cur.join(o.cur);
            acq.join(o.acq);
            rel.join(o.rel);
        }
    }

    /** A location's clocks and the log of its writes, indexed by stamp (stamp 0: the initial value, 0). */
    private static final class Loc {
        final View w;
        final View m;
        final View msg;
        long life;               // renewals so far (m only grows between)
        int count;               // writes so far: the last one's stamp
        int countU;              // non-RMW writes so far: the last one's U-stamp
        int lifeBase;            // the stamp the current life began at (retire): no older write can be read
        int base;                // the oldest stamp still logged (older ones can never be read again: retire, trim)
        int baseU;               // the oldest U-stamp still logged
        long[] id;               // per stamp - base: the write's id
        long[] tag;              // ... the caller's tag
        boolean[] rmw;           // ... whether it is a read-modify-write
        boolean[] known;         // ... whether its value is known
        long[] value;            // ... its value
        int[] uOf;               // per stamp - base: the write's U-stamp (the non-RMW writes up to it)
        int[] firstOfU;          // per U-stamp - baseU: the stamp of the write that has it first (a non-RMW write)
        // the key of a thread whose sc is above w for good; -K: every thread whose key is at most K (those
        // that had their views at the location's last renewal, or ever: a new location's views are empty); 0: none
        long wBy = -Long.MAX_VALUE;
        long mBy = -Long.MAX_VALUE;  // ... above m
        long msgBy = -Long.MAX_VALUE; // ... whose cur is above msg

        Loc() {
            w = new View();
            m = new View();
            msg = new View();
            id = new long[] {RobustnessViolation.INITIAL, 0, 0, 0};
            tag = new long[4];
            rmw = new boolean[4];
            known = new boolean[] {true, false, false, false};
            value = new long[4];
            uOf = new int[4];
            firstOfU = new int[4];
        }

        Loc(Loc o) {
            w = o.w.duplicate();
            m = o.m.duplicate();
            msg = o.msg.duplicate();
            life = o.life;
            count = o.count;
            countU = o.countU;
            lifeBase = o.lifeBase;
            base = o.base;
            baseU = o.baseU;
            id = o.id.clone();
            tag = o.tag.clone();
            rmw = o.rmw.clone();
            known = o.known.clone();
            value = o.value.clone();
            uOf = o.uOf.clone();
            firstOfU = o.firstOfU.clone();
            wBy = o.wBy;
            mBy = o.mBy;
            msgBy = o.msgBy;
        }

        long id(int k) {
            return id[k - base];
        }

        long tag(int k) {
            return tag[k - base];
        }

        boolean rmw(int k) {
            return rmw[k - base];
        }

        boolean known(int k) {
            return known[k - base];
        }

        long value(int k) {
            return value[k - base];
        }

        /**
         * The U-stamp of the write with stamp {@code k} (of this life's first for an older one): a view's U-stamp twin
         * is this of its stamp, as the U-stamps of a location's writes grow with their stamps.
         */
        int u(int k) {
            return k <= base ? baseU : uOf[k - base];
        }

        int firstOfU(int u) {
            return firstOfU[u - baseU];
        }

        /** Logs the next write and returns its stamp; {@code bound} (0: none): the log's bound (boundWriteLog). */
        int append(long writeId, boolean isRmw, boolean isKnown, long v, long t, int bound) {
            if (bound > 0 && count - base >= 2 * bound) {
                trim(count - bound);
            }
            int k = ++count;
            int i = k - base;
            if (i >= id.length) {
                int n = id.length * 2;
                id = Arrays.copyOf(id, n);
                tag = Arrays.copyOf(tag, n);
                rmw = Arrays.copyOf(rmw, n);
                known = Arrays.copyOf(known, n);
                value = Arrays.copyOf(value, n);
                uOf = Arrays.copyOf(uOf, n);
            }
            id[i] = writeId;
            tag[i] = t;
            rmw[i] = isRmw;
            known[i] = isKnown;
            value[i] = v;
            if (!isRmw) {
                int u = ++countU;
                if (u - baseU >= firstOfU.length) {
                    firstOfU = Arrays.copyOf(firstOfU, firstOfU.length * 2);
                }
                firstOfU[u - baseU] = k;
            }
            uOf[i] = countU;
            return k;
        }

        /**
         * Drops the writes older than stamp {@code b} from the log: no thread can read them from now on (the checks
         * read every view's entry as at least the base).
         */
        void trim(int b) {
            int from = b - base;
            int len = count - b + 1;
            System.arraycopy(id, from, id, 0, len);
            System.arraycopy(tag, from, tag, 0, len);
            System.arraycopy(rmw, from, rmw, 0, len);
            System.arraycopy(known, from, known, 0, len);
            System.arraycopy(value, from, value, 0, len);
            System.arraycopy(uOf, from, uOf, 0, len);
            int bU = uOf[0];
            System.arraycopy(firstOfU, bU - baseU, firstOfU, 0, countU - bU + 1);
            base = b;
            baseU = bU;
        }

        /**
         * Starts a new life at index {@code x}: its last write becomes the initial value of a new location (known to
         * every thread, value unknown), nothing older stays logged, and its views hold only itself.
         */
        void renew(int x, long lastKey) {
            life++;
            lifeBase = count;
            base = count;
            baseU = countU;
            // only index 0 is read before the next appends overwrite the others: no allocation
            id[0] = RobustnessViolation.INITIAL;
            tag[0] = 0;
            rmw[0] = false;
            known[0] = false;
            value[0] = 0;
            uOf[0] = countU;
            firstOfU[0] = count;
            // each view now holds this write alone, and retire raised every thread's views to it
            wBy = -lastKey;
            mBy = -lastKey;
            msgBy = -lastKey;
            w.reset(x, count);
            m.reset(x, count);
            msg.reset(x, count);
        }
    }
}
