package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.ThreadLog;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

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
 * <p>Its parts, each the one owner of its state: {@link StripeMerge} (the order above), {@link Feed} (an entry to the
 * checker's events), {@link Addresses} (exact address ids under the memory bound), {@link Logs} (the threads' logs,
 * ended and forgotten), {@link SoloPeriods} (runtime.Solo's checker side), {@link TestBoundaries}, {@link Progress},
 * {@link Exit} (the last drain). Here: the passes, housekeeping, failure, and the results. Runs on its own daemon
 * thread; {@link #finish()} is called once, from the shutdown hook.
 */
public final class CheckerLoop implements Runnable {

    private static final long HOUSEKEEPING_NANOS = 10_000_000L;

    private final Checker checker;
    private final Heap heap;
    private final AgentNames names;
    private final SelfCheck selfCheck;
    private final EventSink trace;
    private final Logs logs = new Logs();
    private final List<ThreadLog> active = logs.active;
    private volatile boolean stop;
    private volatile Throwable failure;
    private long failureAt = -1;
    private long added;
    private final TestBoundaries boundaries;
    private final FindingsView view;
    private final Addresses addresses;
    private final SoloPeriods<ThreadLog> solo;
    private final Feed feed;
    private final StripeMerge merge;
    private Progress progress;
    private long stripesHeldAtExit;
    private long lastHousekeeping;
    private Thread thread;

    /**
     * The loop feeding {@code checker}, mapping objects to addresses through {@code heap}, naming new
     * threads in {@code names}, optionally self-checking and teeing the stream to {@code trace} (null:
     * none); the checker's per-address tables are bounded by {@code memoryBound} bytes. {@code view} shows the
     * findings so far as the report words them (test boundaries, progress lines).
     */
    public CheckerLoop(Checker checker, Heap heap, AgentNames names, boolean selfCheck, EventSink trace, long memoryBound,
            FindingsView view) {
        this.checker = checker;
        this.heap = heap;
        this.names = names;
        this.selfCheck = selfCheck ? new SelfCheck() : null;
        this.trace = trace;
        this.view = view;
        this.boundaries = new TestBoundaries(view, trace instanceof TraceTee t ? t : null);
        this.addresses = new Addresses(checker, heap, trace, this.selfCheck, memoryBound);
        this.solo = new SoloPeriods<>(new RuntimeSolo(), new LoopFeed(this, checker), active, logs::cursor);
        this.feed = new Feed(this, checker, heap, names, addresses, this.selfCheck, trace);
        this.merge = new StripeMerge(this, feed, solo);
    }

    /**
     * For measuring mmcheck's own cost layer by layer (the agent's overhead= option): the loop still takes every event
     * in order, but gives addresses their ids only if {@code identify}, and hands nothing to the checker unless
     * {@code analyze}. Before {@link #start}.
     */
    public void layers(boolean identify, boolean analyze) {
        feed.identify = identify;
        feed.analyze = analyze;
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
                    if (progress != null && progress.due()) {
                        progress.print(this, checker, view, addresses);
                    }
                    if (!boundaries.isEmpty()) {
                        boundaries.serve(this, checker);
                    }
                }
                boundaries.endAll(); // the run is ending: nobody is to wait on the checker
                // final drain: the application has stopped logging (EventLog is closed)
                stripesHeldAtExit = Exit.drain(this::pass);
                cpuNanos = CpuTime.ownNanos();
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
    public CompletableFuture<String[]> testBoundary(String test, boolean begins) {
        return boundaries.add(test, begins);
    }

    /** Test {@code test}'s own trace file, once its end was served (trace= with {@code %t}), or null. Any thread. */
    public java.nio.file.Path testTrace(String test) {
        return boundaries.trace(test);
    }

    /** The tests during which each finding (by key) was first seen. After {@link #finish}. */
    public Map<String, List<String>> testsByKey() {
        return boundaries.testsByKey();
    }

    /** Prints a progress line to {@code out} every {@code seconds} seconds (progress=). Before {@link #start}. */
    public void reportProgress(int seconds, Consumer<String> out) {
        progress = new Progress(seconds, out);
    }

    /**
     * After a failure of the loop itself (not of one analysis: the checker isolates those), checking
     * stops but draining goes on, so the application never waits on a dead consumer and every event is
     * still counted: the ones from here on as unchecked.
     */
    void stopChecking(Throwable t) {
        failureAt = merge.consumed;
        failure = t;
    }

    /** Stripes still held when the last drain gave up on them (Exit). */
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
        solo.maybeLook(now);
        return progress;
    }

    /** Hands {@code kind}, the events of the log's entry, to the checker through {@link #feed}. */
    void emit(int kind, int serial, int operand, int site) {
        feed.emit(kind, serial, operand, site);
    }

    /** Drains every log once (new ones taken in), without housekeeping; returns whether any event was taken. */
    boolean drainAll() {
        logs.takeFresh(names);
        boolean progress = false;
        for (int i = 0; i < active.size(); i++) {
            progress |= merge.drain(active.get(i));
        }
        return progress;
    }

    /** Addresses of collected objects dead; logs of terminated threads ended, ended ones forgotten after a while. */
    private void housekeeping(long now) {
        addresses.update();
        heap.expunge(a -> {
            added += failure == null ? 1 : 0;
            emit(Kinds.ADDRESS_DEAD, 0, a, -1);
            if (selfCheck != null) {
                selfCheck.forget(a);
            }
        });
        logs.endTerminated(now, failure != null, log -> {
            added += failure == null ? 1 : 0;
            emit(Kinds.THREAD_END, log.serial(), -1, -1);
        });
        logs.forgetEnded(now);
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
        return merge.consumed;
    }

    /** Events the application's threads published, ended threads included. */
    public long produced() {
        return logs.produced();
    }

    /** Everything the loop counted, once the run ended. After {@link #finish}. */
    public LoopCounts counts() {
        return new LoopCounts(produced(), consumed(), merge.unchecked, added, feed.begins, cpuMillis(), heap.objects(),
                heap.addresses(), stripesHeldAtExit, LoopCounts.totals(logs), new LoopCounts.Solo(solo.grants(),
                        solo.claimMillis(), solo.ringFed(), solo.claimsUnfenced(), solo.endedBy(10),
                        solo.busyTogether(10)));
    }

    /** The failure that stopped checking, or null. */
    public Throwable failure() {
        return failure;
    }

    /** Events consumed before the failure, or -1 when none. */
    public long failureAt() {
        return failureAt;
    }

    // ------------------------------------------------------------------ for the parts of the loop

    /** The checker thread, declared to the runtime as the one that never logs. */
    Thread thread() {
        return thread;
    }

    /** Whether the loop has been asked to stop. */
    boolean stopping() {
        return stop;
    }

    /** Whether accessed addresses get their ids (not overhead=log). */
    boolean identifies() {
        return feed.identify;
    }

    /** Address identities under the memory bound. */
    Addresses addresses() {
        return addresses;
    }

    /** The logs as the checker thread knows them, with its cursor of each. */
    Logs logs() {
        return logs;
    }

    /** The solo periods' side of the loop. */
    SoloPeriods<ThreadLog> solo() {
        return solo;
    }

    /** Counts an event the checker thread added to the stream. */
    void countAdded() {
        added++;
    }

    /** Makes the loop fail at its {@code event}-th event (for testing how failures are reported). */
    public void failAt(long event) {
        feed.failAt = event;
    }

    public SelfCheck selfCheck() {
        return selfCheck;
    }
}
