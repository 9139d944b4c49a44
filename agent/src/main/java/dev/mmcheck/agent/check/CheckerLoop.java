package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.engine.MergeOrder;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.monitor.PartlyLogged;
import dev.mmcheck.runtime.Sampling;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.Solo;
import dev.mmcheck.runtime.Stripes;
import dev.mmcheck.runtime.ThreadLog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToLongFunction;

/**
 * The checker thread: merges the threads' logs into one linearization of the observed run and feeds
 * it to the {@link Checker} (and, optionally, a trace file).
 *
 * <p>An event is taken from the head of its thread's log once it is <em>ready</em>: its stripe's
 * previous events are taken (the order of accesses to an address is the order of their stripe
 * sequence numbers), and, for a join, all of the joined thread's events are taken. Taking every
 * thread's events in program order and every address's in access order yields a linearization of
 * program order plus conflict order, as the monitors need. The event that happened first in real
 * time among those not yet taken is always ready, so the merge never waits on itself.
 *
 * <p>It also turns objects into exact address ids ({@link Heap}), reports collected objects' addresses
 * dead, ends threads that have terminated, and runs the {@link SelfCheck}. Runs on its own daemon
 * thread; {@link #finish()} is called once, from the shutdown hook.
 */
public final class CheckerLoop implements Runnable {

    private static final long HOUSEKEEPING_NANOS = 10_000_000L;
    private static final long FORGET_AFTER_NANOS = 5_000_000_000L;

    private final Checker checker;
    private final Heap heap;
    private final AgentNames names;
    private final SelfCheck selfCheck;
    private final EventSink trace;
    private final List<ThreadLog> active = new ArrayList<>();
    private final Map<ThreadLog, Long> ended = new HashMap<>();
    private final int[] expected = new int[Stripes.COUNT];
    private volatile boolean stop;
    private volatile Throwable failure;
    private long failureAt = -1;
    private long unchecked;
    private long added;
    private long begins;
    /** Solo periods granted, and their ends fed. */
    private long soloGrants;
    private long soloHandOvers;
    /** Claims given up because a quiet thread still had a store buffered (no fence is made for a period any more). */
    private long claimsUnfenced;
    /** Accesses and fences the solo periods' hand-over rings fed (runtime.Solo). */
    private long ringFed;
    /** Claims made, and when the next may be made. */
    private long claims;
    private long nextClaimAt;
    /** The least time between two claims: doubled when a claim or period is taken away soon, reset by a long period. */
    private long claimGap = MIN_CLAIM_GAP;
    private static final long MIN_CLAIM_GAP = 2_000_000L;
    /**
     * How often the loop looks for a solo period to claim or an end to feed; a log that produced nothing between
     * two looks is quiet. Short, so that a period taken away by a brief task of another thread (Surefire's stream
     * flusher runs every 100 ms) is claimed again a millisecond or two after it.
     */
    private static final long SOLO_LOOK_NANOS = 1_000_000L;
    /** How long a claim's sweep spins on a held stripe before it drains the logs (the holder may wait for room). */
    private static final int SWEEP_SPINS = 1_000;
    /** How long a claim's sweep may wait for the stripes before it gives the claim up. */
    private static final long MAX_SWEEP_NANOS = 100_000_000L;
    private long lastSoloLook;
    /** Who ended solo periods: a thread's name, the periods it ended (the report's run.soloEndedBy). */
    private final Map<String, Long> soloEndedBy = new HashMap<>();
    /** Looks that found two threads busy at once, by thread name (the report's run.soloBusyTogether). */
    private final Map<String, Long> soloBusyTogether = new HashMap<>();
    private static final long MAX_CLAIM_GAP = 2_000_000_000L;
    /** When the current period was granted, and how long its claim took (the sweep, the fences). */
    private long grantedAt;
    private long claimCost;
    /** The checker's time spent claiming periods (sweeps, drains, fences), over the run. */
    private long claimNanos;
    // counts of threads forgotten after they ended (their logs are no longer listed)
    /** What each thread's log counts, kept in the totals after the log is forgotten. */
    public enum Count {
        /** Accesses that ran nested inside another access's probes and were not logged. */
        NESTED(ThreadLog::nestedAccesses),
        /** Repeated loads not logged (docs/agent.md, "Loads that are not logged"). */
        LOADS_LEFT_OUT(ThreadLog::elidedLoads),
        /** StoreStore fences not logged because they ordered no store (docs/agent.md, "Fences that are not logged"). */
        FENCES_LEFT_OUT(ThreadLog::fencesLeftOut),
        /** Synchronization accesses of unsampled objects logged only as fences, or not at all (sync=fences). */
        SYNC_AS_FENCES(ThreadLog::syncAsFences),
        /** Times a producer waited because its log was full. */
        BACK_PRESSURE_WAITS(ThreadLog::backPressureWaits),
        /** Plain accesses left out because their thread ran alone (Solo). */
        SOLO_LEFT_OUT(ThreadLog::soloLeftOut),
        /** Entries a solo period's hand-over ring dropped, oldest first, because it was full and could not be logged (Solo). */
        RING_DROPPED(ThreadLog::ringDropped),
        /** Entries a ring dropped because it was full while its thread was the only one with a log (Solo). */
        RING_DROPPED_ALONE(ThreadLog::ringDroppedAlone),
        /** Pauses made under schedule=active. */
        PAUSES(ThreadLog::pauses),
        /** Nanoseconds spent in those pauses. */
        PAUSED_NANOS(ThreadLog::pausedNanos),
        /** Pauses left out because their thread had spent its pause budget. */
        PAUSES_OVER_BUDGET(ThreadLog::pausesOverBudget),
        /** Pauses left out because no other thread ran accesses beside theirs, as far as the checker could tell. */
        PAUSES_ALONE(ThreadLog::pausesAlone);

        private final ToLongFunction<ThreadLog> of;

        Count(ToLongFunction<ThreadLog> of) {
            this.of = of;
        }
    }

    private final long[] forgotten = new long[Count.values().length];
    private long failAt = -1;
    private final long memoryBound;
    /** sample=R is on (read once: Sampling is configured before the loop is made). */
    private final boolean sampling = Sampling.on();
    /** Under sample=R: the flushes fed so far, which are those with the lowest tickets (Flushes). */
    private long flushesFed;
    /** A test boundary a test's thread waits on (or not), served between passes. */
    private static final class Boundary {
        final String test;
        final boolean begins;
        final java.util.concurrent.CompletableFuture<String[]> done = new java.util.concurrent.CompletableFuture<>();
        long target = -1;

        Boundary(String test, boolean begins) {
            this.test = test;
            this.begins = begins;
        }
    }

    private final java.util.concurrent.ConcurrentLinkedQueue<Boundary> boundaries =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.Set<String> seenKeys = new java.util.HashSet<>();
    private final Map<String, List<String>> testsByKey = new java.util.concurrent.ConcurrentHashMap<>();
    private long progressNanos;
    private java.util.function.Consumer<String> progressOut;
    private long started;
    private long nextProgress;
    private long lastProgressConsumed;
    private long lastProgressAt;
    private int addressLimit;
    private long bytesPerAddress; // the checker's, when addressLimit was computed
    private long consumed;
    private long stripesHeldAtExit;
    private static final long QUIESCE_NANOS = 2_000_000_000L;
    private long producedByEnded;
    private long lastHousekeeping;
    private Thread thread;

    /**
     * The loop feeding {@code checker}, mapping objects to addresses through {@code heap}, naming new
     * threads in {@code names}, optionally self-checking and teeing the stream to {@code trace} (null:
     * none); the checker's per-address tables are bounded by {@code memoryBound} bytes.
     */
    public CheckerLoop(Checker checker, Heap heap, AgentNames names, boolean selfCheck, EventSink trace, long memoryBound) {
        this.checker = checker;
        this.heap = heap;
        this.names = names;
        this.selfCheck = selfCheck ? new SelfCheck() : null;
        this.trace = trace;
        this.memoryBound = memoryBound;
        checker.limitMemory(memoryBound); // also when a new thread widens every record (Checker.slot)
        updateAddressLimit();
    }

    /** Whether accessed addresses get their ids (overhead=ids and a normal run); false for overhead=log. */
    private boolean identify = true;
    /** Whether the events reach the checker (a normal run); false for overhead=log and overhead=ids. */
    private boolean analyze = true;

    /**
     * For measuring mmcheck's own cost layer by layer (the agent's overhead= option): the loop still takes every event
     * in order, but gives addresses their ids only if {@code identify}, and hands nothing to the checker unless
     * {@code analyze}. Before {@link #start}.
     */
    public void layers(boolean identify, boolean analyze) {
        this.identify = identify;
        this.analyze = analyze;
    }

    /** Starts the loop on a new daemon thread, declared to the runtime as the thread that never logs. */
    public Thread start() {
        thread = new Thread(this, "mmcheck-checker");
        thread.setDaemon(true);
        EventLog.checkerThread(thread);
        thread.start();
        return thread;
    }

    @Override
    public void run() {
        while (true) {
            try {
                int idle = 0;
                while (!stop) {
                    if (pass()) {
                        idle = 0;
                    } else {
                        // nothing logged: sleep 20 us, doubling while nothing comes up to 640 us, so that an
                        // idle checker does not take the application's cores (a log holds 32k events: at
                        // 640 us a thread would have to log 50 M events/s to fill its own meanwhile)
                        LockSupport.parkNanos(20_000L << Math.min(idle++, 5));
                    }
                    if (progressNanos > 0 && System.nanoTime() >= nextProgress) {
                        progress();
                    }
                    if (!boundaries.isEmpty()) {
                        serveBoundaries();
                    }
                }
                for (Boundary b; (b = boundaries.poll()) != null; ) {
                    b.done.complete(new String[0]); // the run is ending: nobody is to wait on the checker
                }
                // final drain: the application has stopped logging (EventLog is closed); an access that
                // was in its probes when the log closed holds its stripe until it has logged
                quiesce();
                for (int quiet = 0; quiet < 3;) {
                    if (pass()) {
                        quiet = 0;
                    } else {
                        quiet++;
                        LockSupport.parkNanos(2_000_000L);
                    }
                }
                cpuNanos = ownCpuNanos();
                return;
            } catch (Throwable t) {
                if (failure != null) {
                    // failing again while only discarding: stop, and never let producers wait on a dead consumer
                    EventLog.close();
                    return;
                }
                stopChecking(t);
            }
        }
    }

    // the CPU time this thread used, once it has drained the last event (-1: not measured)
    private volatile long cpuNanos = -1;

    private static long ownCpuNanos() {
        try {
            java.lang.management.ThreadMXBean m = java.lang.management.ManagementFactory.getThreadMXBean();
            return m.isCurrentThreadCpuTimeSupported() ? m.getCurrentThreadCpuTime() : -1;
        } catch (RuntimeException | LinkageError e) {
            return -1; // a runtime without java.management: not measured
        }
    }

    /**
     * Milliseconds of CPU the checker thread used over the run, -1 when not measured: set to the whole
     * wall time of a run, it says the checker set the pace (benchmarks). After {@link #finish}.
     */
    public long cpuMillis() {
        long n = cpuNanos;
        return n < 0 ? -1 : n / 1_000_000;
    }

    /**
     * Test {@code test} begins ({@code begins}) or ends: once the checker has taken every event produced
     * when it sees this, the findings first seen since the test began are the test's; the future gives
     * their summary paragraphs (at a beginning, none: the findings so far are nobody's from then on).
     * Any thread.
     */
    public java.util.concurrent.CompletableFuture<String[]> testBoundary(String test, boolean begins) {
        Boundary b = new Boundary(test, begins);
        boundaries.add(b);
        return b.done;
    }

    /** The tests during which each finding (by key) was first seen. After {@link #finish}. */
    public Map<String, List<String>> testsByKey() {
        return testsByKey;
    }

    private void serveBoundaries() {
        Boundary b = boundaries.peek();
        if (b.target < 0) {
            b.target = produced(); // every event its thread logged before asking, and then some
        }
        if (consumed < b.target && failure == null) {
            return;
        }
        boundaries.poll();
        List<String> lines = new ArrayList<>();
        List<dev.mmcheck.checker.result.Finding> all =
                dev.mmcheck.checker.result.Finding.group(checker.result().violations());
        int i = 1;
        for (dev.mmcheck.checker.result.Finding f : all) {
            if (seenKeys.add(f.key()) && !b.begins) {
                testsByKey.computeIfAbsent(f.key(), k -> new ArrayList<>()).add(b.test);
                f.tests(List.of(b.test));
                lines.add(String.join("\n", dev.mmcheck.checker.report.Summary.describe(f, i++)));
            }
        }
        if (failure != null && !b.begins) {
            lines.add("mmcheck: INCOMPLETE: checking stopped at event " + failureAt + " (" + failure + "): this test "
                    + "was not checked");
        }
        b.done.complete(lines.toArray(new String[0]));
    }

    /** Prints a progress line to {@code out} every {@code seconds} seconds (progress=). Before {@link #start}. */
    public void reportProgress(int seconds, java.util.function.Consumer<String> out) {
        this.progressNanos = seconds * 1_000_000_000L;
        this.progressOut = out;
        this.started = System.nanoTime();
        this.nextProgress = started + progressNanos;
        this.lastProgressAt = started;
    }

    /** One progress line: events checked and their rate, the backlog, findings so far, the checker's tables. */
    private void progress() {
        long now = System.nanoTime();
        nextProgress = now + progressNanos;
        long checked = consumed;
        double rate = (checked - lastProgressConsumed) / Math.max(1e-9, (now - lastProgressAt) / 1e9);
        lastProgressConsumed = checked;
        lastProgressAt = now;
        long backlog = Math.max(0, produced() - checked);
        int findings = dev.mmcheck.checker.result.Finding.group(checker.result().violations()).size();
        long tables = (long) heap.addressIdBound() * (checker.bytesPerAddress() + Heap.BYTES_PER_ADDRESS);
        progressOut.accept(String.format("mmcheck: progress at %d s: %,d events checked (%,.0f/s), backlog %,d, "
                + "%d findings so far, checker tables ~%,d MB of %,d MB%s", (now - started) / 1_000_000_000L, checked,
                rate, backlog, findings, tables >> 20, memoryBound >> 20, failure == null ? ""
                        : ", CHECKING STOPPED (" + failure + ")"));
    }

    /**
     * After a failure of the loop itself (not of one analysis: the checker isolates those), checking
     * stops but draining goes on, so the application never waits on a dead consumer and every event is
     * still counted: the ones from here on as unchecked.
     */
    private void stopChecking(Throwable t) {
        failureAt = consumed;
        failure = t;
    }

    /**
     * Takes and releases every stripe once, draining meanwhile (a producer holding a stripe may wait for
     * room in its log). After this, no access that began before the log closed is still to be logged:
     * it holds its stripe until it has logged, and one that takes its stripe later sees the log closed.
     * A stripe still held after {@link #QUIESCE_NANOS} (a user function of getAndUpdate blocking at
     * exit) is counted, not waited for.
     */
    private void quiesce() {
        long deadline = System.nanoTime() + QUIESCE_NANOS;
        for (int s = 0; s < Stripes.COUNT; s++) {
            boolean taken = Stripes.tryLock(s);
            while (!taken && System.nanoTime() <= deadline) {
                if (!pass()) {
                    Thread.yield();
                }
                taken = Stripes.tryLock(s);
            }
            if (taken) {
                Stripes.unlock(s);
            } else {
                stripesHeldAtExit++;
            }
        }
    }

    /** Stripes still held when {@link #quiesce} gave up on them. */
    public long stripesHeldAtExit() {
        return stripesHeldAtExit;
    }

    /** One round over all logs, then housekeeping when it is due; returns whether any event was taken. */
    private boolean pass() {
        boolean progress = drainAll();
        long now = System.nanoTime();
        if (now - lastHousekeeping > HOUSEKEEPING_NANOS) {
            lastHousekeeping = now;
            housekeeping(now);
        }
        if (now - lastSoloLook > SOLO_LOOK_NANOS && failure == null) {
            lastSoloLook = now;
            soloPeriods(now);
        }
        return progress;
    }

    private boolean drain(ThreadLog log) {
        long c = log.lpConsumerIndex();
        long start = c;
        long p = log.lvProducerIndex();
        if (failure != null) {
            // checking stopped: take everything, in any order
            log.soConsumerIndex(p);
            consumed += p - start;
            unchecked += p - start;
            return p > start;
        }
        long hold = log.lvHoldAt(); // after the producer index: a hold is set before the events it holds back
        if (hold >= 0 && hold < p) {
            if (c >= hold) {
                handOver(log, hold); // a solo period this thread ended itself: its fence, exactly where it ended it
            } else {
                p = hold;
            }
        }
        while (c < p) {
            int stripe = log.lpInt(c, ThreadLog.STRIPE);
            int seq = stripe >= 0 ? log.lpInt(c, ThreadLog.SEQ) : 0;
            // sample=R: flushes in ticket order, and nothing before the flushes its thread saw (Flushes)
            boolean ticket = sampling && (log.lpInt(c, ThreadLog.FLAGS) & ThreadLog.TICKET) != 0;
            long epoch = sampling ? log.lpEpoch(c) : 0;
            if (!MergeOrder.mayFeed(expected, stripe, seq, sampling, ticket, epoch, flushesFed)) {
                break;
            }
            int kind = log.lpInt(c, ThreadLog.KIND);
            if (kind == Kinds.THREAD_JOIN && !joinReady(log, c)
                    || kind == Kinds.SOLO_END && ((ThreadLog) log.lpObject(c)).lpConsumerIndex() < log.lpValue(c)) {
                break; // a join, or the end of a solo period, after the other thread's events up to its count
            }
            try {
                process(log, c, kind);
            } catch (RuntimeException | Error e) {
                consumed += c - start; // those before it were checked; this one and the rest are not
                log.soConsumerIndex(c);
                stopChecking(e);
                return true;
            }
            if (stripe >= 0) {
                expected[stripe]++;
            }
            if (ticket) {
                flushesFed++;
            }
            c++;
        }
        if (c == start) {
            return false;
        }
        log.soConsumerIndex(c);
        consumed += c - start;
        return true;
    }

    private static boolean joinReady(ThreadLog log, long c) {
        long count = log.lpValue(c);
        ThreadLog joined = EventLog.existingLogOf((Thread) log.lpObject(c));
        return count < 0 || joined == null || joined.lpConsumerIndex() >= count;
    }

    private void process(ThreadLog log, long c, int kind) {
        if (failAt >= 0 && consumed + (c - log.lpConsumerIndex()) >= failAt) {
            throw new IllegalStateException("failure injected into checker-loop at event " + failAt);
        }
        int serial = log.serial();
        int site = log.lpInt(c, ThreadLog.SITE);
        switch (kind) {
            case Kinds.THREAD_BEGIN -> begins++; // ordered after its start by the stripe; nothing to check
            case Kinds.SOLO_END -> {
                begins++; // one of a thread's first events, which reach no analysis themselves
                handOver((ThreadLog) log.lpObject(c), log.lpValue(c));
            }
            case Kinds.LOAD_FENCE -> {
                if (site >= 0) {
                    emit(kind, serial, -1, site);
                } // else only the carrier of a bracketed call's flush ticket (StripeProtocol.takeBracketed)
            }
            case Kinds.LOAD, Kinds.STORE, Kinds.RELEASE_STORE, Kinds.VOLATILE_STORE, Kinds.INTERLOCKED,
                    Kinds.MONITOR_ENTER, Kinds.MONITOR_EXIT -> {
                if (!identify) {
                    return; // overhead=log: taken in order, nothing more
                }
                Object object = log.lpObject(c);
                int slot = log.lpInt(c, ThreadLog.SLOT);
                site = names.checkedSite(site, log.lpInt(c, ThreadLog.CALLER)); // a helper's: per call that reached it
                if (checker.bytesPerAddress() != bytesPerAddress) {
                    // a new thread widened every record: fewer addresses fit the bound, and the checker grows
                    // its table no further than the bound, one id at a time past it (Checker.ensureAddress)
                    updateAddressLimit();
                }
                int a = heap.address(object, slot);
                if (a >= addressLimit) {
                    forgetAddresses();
                    a = heap.address(object, slot);
                }
                if (sampling) {
                    // sample=R: no store may stay buffered where a left-out access could commit it (PartlyLogged)
                    boolean full = heap.fullyLogged(object, slot);
                    if (PartlyLogged.flushFirst(kind, full)) {
                        emit(Kinds.FULL_FENCE, serial, -1, site);
                    }
                    emit(PartlyLogged.kind(kind, full), serial, a, site);
                } else {
                    emit(kind, serial, a, site);
                }
                if (selfCheck != null) {
                    check(log, c, kind, a, serial, site);
                }
            }
            case Kinds.THREAD_START, Kinds.THREAD_JOIN -> {
                ThreadLog other = EventLog.existingLogOf((Thread) log.lpObject(c));
                if (other != null) {
                    if (kind == Kinds.THREAD_START) {
                        other.startFed = true; // its log may end now, even with no event of its own (housekeeping)
                    }
                    emit(kind, serial, other.serial(), site);
                } else {
                    emit(Kinds.FULL_FENCE, serial, -1, site);
                }
            }
            default -> emit(sampling ? PartlyLogged.kind(kind, true) : kind, serial, -1, site);
        }
    }

    private void check(ThreadLog log, long c, int kind, int a, int serial, int site) {
        boolean hasValue = (log.lpInt(c, ThreadLog.FLAGS) & ThreadLog.HAS_VALUE) != 0;
        if (!hasValue) {
            if (kind != Kinds.LOAD) {
                selfCheck.wroteUnknown(a);
            }
            return;
        }
        long v = log.lpValue(c);
        if (kind == Kinds.LOAD) {
            selfCheck.read(a, v, () -> "the read of " + heap.name(a) + " by " + names.threadName(serial) + " at "
                    + names.siteOf(site).describe());
        } else {
            selfCheck.wrote(a, v);
        }
    }

    private void emit(int kind, int serial, int operand, int site) {
        if (failure != null || !analyze) {
            return;
        }
        checker.event(kind, serial, operand, site);
        if (trace != null) {
            trace.event(kind, serial, operand, site);
        }
    }

    /**
     * The memory bound: the checker's tables grow with the address ids in use (per id, its clocks'
     * record, whose size grows with the threads, and the heap's entries). When an id would reach the
     * limit, all history is forgotten, as at a clock reset, and ids start again (counted in the report).
     */
    private void updateAddressLimit() {
        bytesPerAddress = checker.bytesPerAddress();
        long perAddress = bytesPerAddress + Heap.BYTES_PER_ADDRESS;
        addressLimit = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(1024, memoryBound / perAddress));
    }

    private void forgetAddresses() {
        if (trace != null) {
            // a replay of the trace must not take a forgotten id's new address for its old one
            for (int a = 0; a < heap.addressIdBound(); a++) {
                trace.event(Kinds.ADDRESS_DEAD, 0, a, -1);
            }
        }
        checker.forgetAddresses();
        heap.forgetAll();
        if (selfCheck != null) {
            selfCheck.forgetAll();
        }
        updateAddressLimit();
    }

    /**
     * Tells schedule=active which thread, if one, has been the only one to log over the last two looks, with no
     * thread started and not yet begun (runtime.Solo#alone): a thread just started runs its first accesses before
     * it has logged anything a look could see.
     */
    private void lookAlone(long now) {
        ThreadLog only = null;
        int producers = 0;
        boolean starting = false;
        for (ThreadLog log : active) {
            long p = log.lvProducerIndex();
            starting |= p == 0;
            if (p != log.producedAtAloneLook) {
                log.producedAtAloneLook = p;
                producers++;
                only = log;
            }
        }
        ThreadLog alone = producers == 1 && !starting ? only : null;
        Solo.lookedAlone(alone != null && alone == aloneAtLastLook ? alone : null, now);
        aloneAtLastLook = alone;
    }

    /** The thread found logging alone at the last look, or null. */
    private ThreadLog aloneAtLastLook;

    /**
     * Feeds the end of {@code soloLog}'s solo period, once its events up to {@code count} are fed: what the period
     * left in the thread's hand-over ring (runtime.Solo, "the hand-over ring": the accesses it left out since it last
     * had no store unflushed, and the fence before them), exactly where the period's content belongs in its log,
     * instead of a fence the program did not make. Called where the period's count is reached (another thread's
     * {@code SOLO_END}, or {@link #soloPeriods}), or where the thread held its log because it had to publish an event
     * while its ring still had content (drain): the ring's content always comes after every event the thread had
     * published and before every one it publishes next. Nothing is fed for a thread that has ended (its end committed
     * its stores). Throws when the period's end could not be handed over exactly (runtime.Solo#broken): checking
     * stops there.
     */
    private void handOver(ThreadLog soloLog, long count) {
        String broken = Solo.broken();
        if (broken != null) {
            // the thread that ended the period could not wait for the solo thread: the hand-over cannot be placed
            // exactly, so checking stops before anything after that end is fed (loudly: the run is incomplete)
            throw new Stopped("solo-hand-over", broken);
        }
        boolean pending = Solo.pending() == soloLog;
        boolean held = soloLog.lvHoldAt() >= 0 && soloLog.lpConsumerIndex() >= soloLog.lvHoldAt();
        if (held || pending && soloLog.lpConsumerIndex() >= Solo.pendingCount()) {
            feedRing(soloLog);
            soloLog.releaseHold();
        }
        if (soloLog.handOverFed < count) {
            soloLog.handOverFed = count;
            // a period that ended soon makes the next claim wait longer; a long one lets claims come often again
            long lasted = System.nanoTime() - grantedAt;
            claimGap = lasted < 4 * Math.max(claimCost, 1_000_000L) ? Math.min(MAX_CLAIM_GAP, claimGap * 2) : MIN_CLAIM_GAP;
            String by = Solo.pendingEndedBy();
            if (by != null) {
                soloEndedBy.merge(by, 1L, Long::sum);
            }
            soloHandOvers++;
        }
        if (pending && soloLog.lpConsumerIndex() >= Solo.pendingCount()) {
            Solo.handedOver(soloLog);
        }
    }

    /**
     * Feeds {@code log}'s hand-over ring, its fence first, as the events they are (each access's address found as
     * {@link #process} finds it), and empties it. Nothing for a log no longer active (its thread's end was fed).
     */
    private void feedRing(ThreadLog log) {
        int n = log.ringSize();
        int fence = log.ringFence();
        if (active.contains(log) && failure == null) {
            int serial = log.serial();
            if (fence != 0) {
                added++;
                emit(fence, serial, -1, log.ringFenceSite());
            }
            for (int i = 0; i < n; i++) {
                int kind = log.ringKind(i);
                added++;
                ringFed++;
                if (kind == Kinds.STORE_STORE_FENCE) {
                    emit(kind, serial, -1, log.ringSite(i));
                    continue;
                }
                if (!identify) {
                    continue; // overhead=log: nothing is looked at
                }
                Object object = log.ringObject(i);
                int slot = log.ringSlot(i);
                int a = heap.address(object, slot);
                if (a >= addressLimit) {
                    forgetAddresses();
                    a = heap.address(object, slot);
                }
                emit(kind, serial, a, log.ringSite(i));
            }
        }
        log.clearRing();
    }

    /**
     * Solo periods (runtime.Solo): feeds a pending end whose log's events are fed (a period can end by a thread
     * that then never logs), then, if one live log is busy and every other is quiet (nothing produced since the
     * last look) and drained, claims a period for it, takes every stripe once (so that every event another
     * thread began before the claim is published), feeds the other logs to their ends, feeds a full fence of
     * each that has events, and confirms the period. A claim or period taken away soon after makes the next
     * claim wait longer, since each costs a sweep of the stripes and fences of the quiet threads.
     */
    private void soloPeriods(long now) {
        lookAlone(now);
        ThreadLog pending = Solo.pending();
        if (pending != null) {
            long count = Solo.pendingCount();
            if (pending.lpConsumerIndex() >= count) {
                handOver(pending, count);
            }
            return;
        }
        if (!Solo.enabled() || now < nextClaimAt || Solo.claimed()) {
            return;
        }
        ThreadLog busy = null;
        int busyLogs = 0;
        int producing = 0;
        boolean others = false;
        for (ThreadLog log : active) {
            if (log.thread() == thread) {
                continue; // this loop's own log, if it has one, never logs
            }
            long p = log.lvProducerIndex();
            boolean produced = p != log.producedAtLastLook;
            log.producingAtLastLook = produced;
            producing += produced ? 1 : 0;
            boolean quiet = !produced && log.lpConsumerIndex() == p; // every log is looked at: none stays stale
            log.producedAtLastLook = p;
            if (!quiet) {
                busyLogs++;
                busy = log;
            } else {
                others = true;
            }
        }
        if (busyLogs > 1) {
            if (producing > 1) {
                busyTogether(); // threads that logged since the last look, not ones only waiting to be fed
            }
            return;
        }
        Thread t = busy == null ? null : busy.thread();
        if (t == null || t.getState() == Thread.State.TERMINATED || !Solo.claim(busy)) {
            return;
        }
        claims++;
        nextClaimAt = now + claimGap;
        long sweepStart = System.nanoTime();
        // a log created before the claim, not yet taken in, is taken in by the first drain: its events are fed and
        // it is fenced. Only the other logs are drained to their ends: the busy thread goes on logging meanwhile,
        // and draining until it pauses could take as long as it runs
        if (!feedOthers(busy)) {
            claimLost(busy, sweepStart);
            return;
        }
        for (ThreadLog log : active) {
            others |= log != busy && log.thread() != thread;
        }
        if (others) {
            long giveUpAt = sweepStart + MAX_SWEEP_NANOS;
            for (int s = 0; s < Stripes.COUNT; s++) {
                // a stripe is held for one access and its log entry: spin first. Drain only when the holder may be
                // waiting for room in its log: draining at every collision with the busy thread's stripes fed its
                // backlog (up to a ring's worth each time) and made a claim take tens of milliseconds
                for (int spins = 0; !Stripes.tryLock(s); spins++) {
                    if (spins < SWEEP_SPINS || !drainAll()) {
                        Thread.onSpinWait();
                    }
                    if ((spins & 1023) == 1023 && (stop || failure != null || System.nanoTime() > giveUpAt
                            || !Solo.claimedFor(busy))) {
                        // a stripe held for long (a thread blocked in an atomic's update function holds its own),
                        // the run ending, or the claim taken away: no period this time
                        claimLost(busy, sweepStart);
                        return;
                    }
                }
                Stripes.unlock(s);
            }
            // every event another thread published before the sweep ended, fed
            if (!feedOthers(busy)) {
                claimLost(busy, sweepStart);
                return;
            }
        }
        if (!Solo.claimedFor(busy)) {
            // another thread logged since the claim (feedOthers stops on that only while a log is unfed) or the run
            // declared transactions: no period, and no fences, which would fall wherever that thread is now (inside
            // a transaction, say, where a report would show a fence with no place in the source)
            claimLost(busy, sweepStart);
            return;
        }
        for (ThreadLog log : active) {
            if (log != busy && log.thread() != thread && failure == null && checker.storesBuffered(log.serial())) {
                // a quiet thread with a store still buffered: the busy thread's accesses, left out, could be the
                // ones that store is raced by (a hand-over that follows the store at once in another schedule), and
                // a fence of it here would be one the program did not make. No period until it has none.
                claimsUnfenced++;
                claimLost(busy, sweepStart);
                return;
            }
        }
        claimCost = System.nanoTime() - sweepStart;
        claimNanos += claimCost;
        boolean lone = true;
        for (ThreadLog log : active) {
            lone &= log == busy || log.thread() == thread;
        }
        if (Solo.confirm(busy, lone)) {
            soloGrants++;
            grantedAt = System.nanoTime();
        } else {
            claimGap = Math.min(MAX_CLAIM_GAP, claimGap * 2);
        }
    }

    /**
     * Drains until every log but {@code busy}'s (and this loop's own) is fed to its end, fresh logs taken in;
     * returns false, having stopped, once the claim for {@code busy} is taken away (another thread logged) or
     * checking has stopped.
     */
    private boolean feedOthers(ThreadLog busy) {
        while (true) {
            boolean progress = drainAll();
            boolean fed = true;
            for (int i = 0; i < active.size() && fed; i++) {
                ThreadLog log = active.get(i);
                fed = log == busy || log.thread() == thread || log.lpConsumerIndex() == log.lvProducerIndex();
            }
            if (fed) {
                return failure == null;
            }
            if (failure != null || !Solo.claimedFor(busy)) {
                return false;
            }
            if (!progress) {
                Thread.onSpinWait();
            }
        }
    }

    /** Gives up the claim for {@code busy}: another thread logged meanwhile; the next claim waits longer. */
    private void claimLost(ThreadLog busy, long since) {
        Solo.confirmNot(busy);
        claimGap = Math.min(MAX_CLAIM_GAP, claimGap * 2);
        claimNanos += System.nanoTime() - since;
    }

    /**
     * Counts a look that found two or more threads logging since the last look, by name, for the report's
     * run.soloBusyTogether: a thread that logs beside every other (one spinning or polling, left running by an
     * earlier test) keeps any period from being claimed.
     */
    private void busyTogether() {
        for (ThreadLog log : active) {
            if (log.producingAtLastLook && log.thread() != thread) {
                soloBusyTogether.merge(log.name(), 1L, Long::sum);
            }
        }
    }

    /** Drains every log once (new ones taken in), without housekeeping; returns whether any event was taken. */
    private boolean drainAll() {
        ThreadLog fresh;
        while ((fresh = EventLog.pollFresh()) != null) {
            active.add(fresh);
            names.thread(fresh.serial(), fresh.name());
        }
        boolean progress = false;
        for (int i = 0; i < active.size(); i++) {
            progress |= drain(active.get(i));
        }
        return progress;
    }

    private void housekeeping(long now) {
        updateAddressLimit();
        heap.expunge(a -> {
            added += failure == null ? 1 : 0;
            emit(Kinds.ADDRESS_DEAD, 0, a, -1);
            if (selfCheck != null) {
                selfCheck.forget(a);
            }
        });
        for (Iterator<ThreadLog> it = active.iterator(); it.hasNext();) {
            ThreadLog log = it.next();
            Thread t = log.thread();
            // TERMINATED, not !isAlive(): a log exists from Thread.start on, before the thread is alive; and a
            // thread with no event of its own ends only after its start (an event of it ends the log after its start
            // anyway: its begin follows the start on the start's stripe)
            long produced = log.lvProducerIndex();
            if ((t == null || t.getState() == Thread.State.TERMINATED)
                    && log.lpConsumerIndex() == produced && (produced > 0 || log.startFed || failure != null)) {
                added += failure == null ? 1 : 0;
                emit(Kinds.THREAD_END, log.serial(), -1, -1);
                log.release();
                it.remove();
                producedByEnded += log.lvProducerIndex();
                ended.put(log, now);
            }
        }
        for (Iterator<Map.Entry<ThreadLog, Long>> it = ended.entrySet().iterator(); it.hasNext();) {
            Map.Entry<ThreadLog, Long> e = it.next();
            if (now - e.getValue() > FORGET_AFTER_NANOS) {
                // its counts stay in the totals after it is forgotten
                for (Count c : Count.values()) {
                    forgotten[c.ordinal()] += c.of.applyAsLong(e.getKey());
                }
                Thread t = e.getKey().thread();
                if (t != null) {
                    EventLog.forget(t);
                }
                it.remove();
            }
        }
    }

    /** Stops the loop after a final drain and waits for it. From the shutdown hook. */
    public void finish() throws InterruptedException {
        stop = true;
        LockSupport.unpark(thread);
        thread.join();
    }

    // ------------------------------------------------------------------ results (after finish)

    public Checker checker() {
        return checker;
    }

    public long consumed() {
        return consumed;
    }

    /** Events the application's threads published, ended threads included. */
    public long produced() {
        long p = producedByEnded;
        for (ThreadLog log : active) {
            p += log.lvProducerIndex();
        }
        return p;
    }

    /** The total of {@code c} over every thread's log, forgotten ones included (racy reads). */
    public long total(Count c) {
        long n = forgotten[c.ordinal()];
        for (ThreadLog log : active) {
            n += c.of.applyAsLong(log);
        }
        for (ThreadLog log : ended.keySet()) {
            n += c.of.applyAsLong(log);
        }
        return n;
    }

    /** Objects the checker still tracked at the end (Heap: collected ones are forgotten as the collector clears them). */
    public int objectsTracked() {
        return heap.objects();
    }

    /** Address ids in use at the end. */
    public int addressesTracked() {
        return heap.addresses();
    }

    /** Accesses that ran nested inside another access's probes and were not logged. */
    public long nestedAccesses() {
        return total(Count.NESTED);
    }

    /** Repeated loads the threads did not log (docs/agent.md, "Loads that are not logged"). */
    public long loadsLeftOut() {
        return total(Count.LOADS_LEFT_OUT);
    }

    /** Synchronization accesses of unsampled objects logged only as fences, or not at all (sync=fences). */
    public long syncAsFences() {
        return total(Count.SYNC_AS_FENCES);
    }

    /** Times producers waited because their log was full. */
    public long backPressureWaits() {
        return total(Count.BACK_PRESSURE_WAITS);
    }

    /**
     * Checking stopped for a reason the run gave, not a fault of the checker (a solo period's end that could not
     * be handed over exactly): reported as an incomplete note of kind {@link #kind}, with no stack.
     */
    public static final class Stopped extends RuntimeException {
        private final String kind;

        Stopped(String kind, String message) {
            super(message, null, false, false);
            this.kind = kind;
        }

        /** The note's kind in the report. */
        public String kind() {
            return kind;
        }
    }

    /** The failure that stopped checking, or null. */
    public Throwable failure() {
        return failure;
    }

    /** Events consumed before the failure, or -1 when none. */
    public long failureAt() {
        return failureAt;
    }

    /** Solo periods granted (runtime.Solo). */
    public long soloGrants() {
        return soloGrants;
    }

    /** Milliseconds the checker thread spent claiming solo periods (sweeping the stripes, feeding the other logs). */
    public long soloClaimMillis() {
        return claimNanos / 1_000_000;
    }

    /** Accesses and fences fed from solo periods' hand-over rings. */
    public long soloRingFed() {
        return ringFed;
    }

    /** Claims of solo periods given up because a quiet thread still had a store buffered. */
    public long soloClaimsUnfenced() {
        return claimsUnfenced;
    }

    /** Ends of solo periods handed over. */
    public long soloHandOvers() {
        return soloHandOvers;
    }

    /**
     * The threads that ended solo periods most often, by name, with the periods each ended (the solo thread's own
     * name when it started a thread), at most {@code max}, most first. After {@link #finish}.
     */
    public Map<String, Long> soloEndedBy(int max) {
        return top(soloEndedBy, max);
    }

    /**
     * The threads most often found busy beside another when the checker looked for a solo period (every
     * millisecond), by name, with the number of such looks, at most {@code max}, most first. After {@link #finish}.
     */
    public Map<String, Long> soloBusyTogether(int max) {
        return top(soloBusyTogether, max);
    }

    private static Map<String, Long> top(Map<String, Long> counts, int max) {
        Map<String, Long> top = new java.util.LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(max)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /** Thread-begin events taken from the rings: they order a thread after its start and reach no analysis. */
    public long begins() {
        return begins;
    }

    /** Events the checker thread added to the stream: addresses dead, threads ended. */
    public long added() {
        return added;
    }

    /** Events consumed after checking stopped, not checked. */
    public long unchecked() {
        return unchecked;
    }

    /** Makes the loop fail at its {@code event}-th event (for testing how failures are reported). */
    public void failAt(long event) {
        failAt = event;
    }

    public SelfCheck selfCheck() {
        return selfCheck;
    }

    public Heap heap() {
        return heap;
    }
}
