package dev.mmcheck.agent.check;

import java.util.EnumMap;
import java.util.Map;

/**
 * What the checker loop counted over the run, in one record taken once after {@link CheckerLoop#finish}: the run's
 * facts ({@code RunEnd}) read it instead of asking the loop for each count.
 *
 * @param produced          events the application's threads published, ended threads included
 * @param consumed          events the checker thread took
 * @param unchecked         events taken after checking stopped, not checked
 * @param added             events the checker thread added to the stream: addresses dead, threads ended
 * @param begins            thread-begin events taken from the rings (they order a thread after its start)
 * @param cpuMillis         the checker thread's CPU time, -1 when the JVM does not measure it
 * @param objectsTracked    objects the checker still tracked at the end
 * @param addressesTracked  address ids in use at the end
 * @param stripesHeldAtExit stripes still held when the last drain gave up on them
 * @param totals            what every thread's log counted, forgotten logs included
 * @param solo              the solo periods' counts
 */
public record LoopCounts(long produced, long consumed, long unchecked, long added, long begins, long cpuMillis,
        int objectsTracked, int addressesTracked, long stripesHeldAtExit, Map<LogCount, Long> totals, Solo solo) {

    /** Counts made defensive copies of. */
    public LoopCounts {
        totals = Map.copyOf(totals);
    }

    /**
     * The solo periods' counts.
     *
     * @param grants         periods granted
     * @param claimMillis    milliseconds the checker thread spent claiming periods
     * @param ringFed        accesses and fences fed from the periods' hand-over rings
     * @param claimsUnfenced claims given up because a quiet thread still had a store buffered
     * @param endedBy        the threads that ended periods most often (at most 10), most first
     * @param busyTogether   the threads most often found busy beside another at a look (at most 10)
     */
    public record Solo(long grants, long claimMillis, long ringFed, long claimsUnfenced, Map<String, Long> endedBy,
            Map<String, Long> busyTogether) {
    }

    /** The total of {@code c} over every thread's log. */
    public long total(LogCount c) {
        return totals.getOrDefault(c, 0L);
    }

    /** Totals of every {@link LogCount}, read from {@code logs}. */
    static Map<LogCount, Long> totals(Logs logs) {
        Map<LogCount, Long> m = new EnumMap<>(LogCount.class);
        for (LogCount c : LogCount.values()) {
            m.put(c, logs.total(c));
        }
        return m;
    }
}
