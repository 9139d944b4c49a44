package dev.mmcheck.checker.report;

import java.util.Map;

/**
 * The agent's facts about how a run's events were obtained: the report's {@code run} object
 * (docs/report-format.md), built once when the run ends. The JSON object is flat; the nested records
 * group the facts that belong together and are written in the order of their components, the optional
 * groups ({@code sampleSeed}, the active schedule's, the self-check's) only when present.
 *
 * @param id          this JVM's run id: {@code mmcheck merge} refuses two reports of one run
 * @param events      what the application's threads produced and the checker took
 * @param checker     the checker thread's costs and tables
 * @param classes     what was instrumented
 * @param accesses    accesses left out or checked another way
 * @param solo        the solo periods
 * @param overhead    {@code check}, or the layer a measuring run stopped at
 * @param schedule    {@code os} or {@code active}
 * @param sampling    how the objects were sampled
 * @param active      the active schedule's choices, null with {@code schedule=os}
 * @param selfCheck   the self-check's counts, null without {@code selfCheck=true}
 */
public record RunFacts(String id, Events events, CheckerThread checker, Classes classes, Accesses accesses,
        Solo solo, String overhead, String schedule, Sampling sampling, ActiveSchedule active,
        SelfCheck selfCheck) implements Report.Run {

    /**
     * Events counted at both ends ({@code eventsProduced}, {@code eventsConsumed}, {@code eventsUnchecked},
     * {@code eventsAdded}, {@code threadBegins}).
     */
    public record Events(long produced, long consumed, long unchecked, long added, long threadBegins) {
    }

    /**
     * The checker thread's {@code checkerCpuMillis}, {@code objectsTracked}, {@code addressesTracked} and
     * {@code backPressureWaits}.
     */
    public record CheckerThread(long cpuMillis, long objectsTracked, long addressesTracked, long backPressureWaits) {
    }

    /** {@code classesInstrumented}, {@code classesFailed} and {@code sites}. */
    public record Classes(long instrumented, long failed, long sites) {
    }

    /**
     * {@code unresolvedAccessors}, {@code unloggedHandleAccesses}, {@code nestedAccesses},
     * {@code unmodelledCalls} (by {@code Owner.method}, in the map's order), {@code repeatedLoadsLeftOut}
     * and {@code storeStoreFencesLeftOut}.
     */
    public record Accesses(long unresolvedAccessors, long unloggedHandleAccesses, long nested,
            Map<String, Long> unmodelledCalls, long repeatedLoadsLeftOut, long storeStoreFencesLeftOut) {
    }

    /**
     * {@code solo} ({@code on} or {@code off}), {@code soloPeriods}, {@code soloAccessesLeftOut},
     * {@code soloEndedBy} (most first), {@code soloClaimMillis}, {@code soloRingFed}, {@code soloRingDropped},
     * {@code soloRingDroppedAlone}, {@code soloUnseenStarts}, {@code soloClaimsUnfenced} and
     * {@code soloBusyTogether} (most first).
     */
    public record Solo(String state, long periods, long accessesLeftOut, Map<String, Long> endedBy, long claimMillis,
            long ringFed, long ringDropped, long ringDroppedAlone, long unseenStarts, long claimsUnfenced,
            Map<String, Long> busyTogether) {
    }

    /**
     * {@code sample}, {@code sampleSync} ({@code addresses} or {@code fences}), {@code syncAccessesAsFences},
     * and {@code sampleSeed}, null (not written) when every object was drawn.
     */
    public record Sampling(double sample, String sync, long syncAccessesAsFences, Long seed) {
    }

    /** {@code seed}, {@code pauses}, {@code pausedMillis}, {@code pausesOverBudget}, {@code pausesAlone} and {@code pausesTogether}. */
    public record ActiveSchedule(long seed, long pauses, long pausedMillis, long pausesOverBudget, long pausesAlone,
            long pausesTogether) {
    }

    /** {@code selfCheckReads} and {@code selfCheckMismatches}. */
    public record SelfCheck(long reads, long mismatches) {
    }
}
