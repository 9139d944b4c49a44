package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.monitor.PartlyLogged;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.Sampling;
import dev.mmcheck.runtime.ThreadLog;

/**
 * Turns one log entry the merge found ready into the checker's events: the address's id, sample=R's kinds, the
 * self-check, the trace. Owns how far events go (overhead=) and the injected failure. Checker thread only.
 */
final class Feed {

    private final CheckerLoop loop;
    private final Checker checker;
    private final Heap heap;
    private final AgentNames names;
    private final Addresses addresses;
    private final SelfCheck selfCheck;
    private final EventSink trace;
    /** sample=R is on (read once: Sampling is configured before the loop is made). */
    private final boolean sampling = Sampling.on();
    /** Whether accessed addresses get their ids (overhead=ids and a normal run); false for overhead=log. */
    boolean identify = true;
    /** Whether the events reach the checker (a normal run); false for overhead=log and overhead=ids. */
    boolean analyze = true;
    /** The event at which to fail (testing how failures are reported), -1 for none. */
    long failAt = -1;
    /** Thread-begin events taken from the rings. */
    long begins;

    /** The feed of {@code loop}'s events to {@code checker} (and {@code trace}, if not null). */
    Feed(CheckerLoop loop, Checker checker, Heap heap, AgentNames names, Addresses addresses, SelfCheck selfCheck,
            EventSink trace) {
        this.loop = loop;
        this.checker = checker;
        this.heap = heap;
        this.names = names;
        this.addresses = addresses;
        this.selfCheck = selfCheck;
        this.trace = trace;
    }

    /** Feeds the entry {@code c} of {@code log}, of kind {@code kind}, {@code consumed} events taken before its log's. */
    void process(ThreadLog log, long c, int kind, long consumed) {
        if (failAt >= 0 && consumed + (c - log.lpConsumerIndex()) >= failAt) {
            throw new IllegalStateException("failure injected into checker-loop at event " + failAt);
        }
        int serial = log.serial();
        int site = log.lpInt(c, ThreadLog.SITE);
        switch (kind) {
            case Kinds.THREAD_BEGIN -> begins++; // ordered after its start by the stripe; nothing to check
            case Kinds.SOLO_END -> {
                begins++; // one of a thread's first events, which reach no analysis themselves
                loop.solo().handOver((ThreadLog) log.lpObject(c), log.lpValue(c));
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
                addresses.updateIfWidened();
                int a = addresses.of(object, slot);
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
                        loop.logs().cursor(other).startFed = true; // its log may end now, even with no event of its own (housekeeping)
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

    /** Hands one event to the checker and the trace, unless checking stopped or overhead= stops short of it. */
    void emit(int kind, int serial, int operand, int site) {
        if (loop.failure() != null || !analyze) {
            return;
        }
        checker.event(kind, serial, operand, site);
        if (trace != null) {
            trace.event(kind, serial, operand, site);
        }
    }
}
