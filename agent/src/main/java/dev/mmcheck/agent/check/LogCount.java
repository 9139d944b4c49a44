package dev.mmcheck.agent.check;

import dev.mmcheck.runtime.ThreadLog;

import java.util.function.ToLongFunction;

/** What each thread's log counts, kept in the totals after the log is forgotten. */
public enum LogCount {
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
    PAUSES_ALONE(ThreadLog::pausesAlone),
    /** Load windows' pauses left out because another thread was pausing at the time. */
    PAUSES_TOGETHER(ThreadLog::pausesTogether);

    private final ToLongFunction<ThreadLog> of;

    LogCount(ToLongFunction<ThreadLog> of) {
        this.of = of;
    }

    /** What {@code log} counts of this. */
    long of(ThreadLog log) {
        return of.applyAsLong(log);
    }
}
