package dev.mmcheck.agent.check;

import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.ThreadLog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The threads' logs as the checker thread knows them: the live ones in the order taken in, the ended ones until they
 * are forgotten, and the counts of the forgotten ones, kept in the totals. Written by the checker thread only; the
 * totals are read racily after the run.
 */
final class Logs {

    private static final long FORGET_AFTER_NANOS = 5_000_000_000L;

    /** The live logs, in the order they were taken in. */
    final List<ThreadLog> active = new ArrayList<>();
    /** Logs whose thread's end was fed, with when: forgotten {@link #FORGET_AFTER_NANOS} later. */
    private final Map<ThreadLog, Long> ended = new HashMap<>();
    /** The counts of the logs forgotten. */
    private final long[] forgotten = new long[LogCount.values().length];
    /** Events the ended threads published. */
    private long producedByEnded;
    /** The checker thread's cursor of each log it has met, until the log is forgotten. */
    private final Map<ThreadLog, LogCursor> cursors = new HashMap<>();

    /** The checker thread's cursor of {@code log}, made when first asked for (a log may be met before it is taken in: its start). */
    LogCursor cursor(ThreadLog log) {
        LogCursor c = cursors.get(log);
        if (c == null) {
            c = new LogCursor();
            cursors.put(log, c);
        }
        return c;
    }

    /** Takes in the logs created since the last call, naming their threads in {@code names}. */
    void takeFresh(AgentNames names) {
        ThreadLog fresh;
        while ((fresh = EventLog.pollFresh()) != null) {
            active.add(fresh);
            names.thread(fresh.serial(), fresh.name());
        }
    }

    /**
     * Ends every log whose thread has terminated and whose events are all fed (and which had one, or whose start was
     * fed, or {@code failed}), telling {@code end} first.
     */
    void endTerminated(long now, boolean failed, Consumer<ThreadLog> end) {
        for (Iterator<ThreadLog> it = active.iterator(); it.hasNext();) {
            ThreadLog log = it.next();
            Thread t = log.thread();
            // TERMINATED, not !isAlive(): a log exists from Thread.start on, before the thread is alive; and a
            // thread with no event of its own ends only after its start (an event of it ends the log after its start
            // anyway: its begin follows the start on the start's stripe)
            long produced = log.lvProducerIndex();
            if ((t == null || t.getState() == Thread.State.TERMINATED)
                    && log.lpConsumerIndex() == produced && (produced > 0 || failed || cursor(log).startFed)) {
                end.accept(log);
                log.release();
                it.remove();
                producedByEnded += log.lvProducerIndex();
                ended.put(log, now);
            }
        }
    }

    /** Forgets the logs ended long enough ago (the runtime drops them too); their counts stay in the totals. */
    void forgetEnded(long now) {
        for (Iterator<Map.Entry<ThreadLog, Long>> it = ended.entrySet().iterator(); it.hasNext();) {
            Map.Entry<ThreadLog, Long> e = it.next();
            if (now - e.getValue() > FORGET_AFTER_NANOS) {
                // its counts stay in the totals after it is forgotten
                for (LogCount c : LogCount.values()) {
                    forgotten[c.ordinal()] += c.of(e.getKey());
                }
                Thread t = e.getKey().thread();
                if (t != null) {
                    EventLog.forget(t);
                }
                cursors.remove(e.getKey());
                it.remove();
            }
        }
    }

    /** Events the application's threads published, ended threads included. */
    long produced() {
        long p = producedByEnded;
        for (ThreadLog log : active) {
            p += log.lvProducerIndex();
        }
        return p;
    }

    /** The total of {@code c} over every thread's log, forgotten ones included (racy reads). */
    long total(LogCount c) {
        long n = forgotten[c.ordinal()];
        for (ThreadLog log : active) {
            n += c.of(log);
        }
        for (ThreadLog log : ended.keySet()) {
            n += c.of(log);
        }
        return n;
    }
}
