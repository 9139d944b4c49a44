package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.MergeOrder;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.Sampling;
import dev.mmcheck.runtime.Stripes;
import dev.mmcheck.runtime.ThreadLog;

/**
 * The merge: takes an event from the head of its thread's log once it is <em>ready</em> (its stripe's previous events
 * taken, for a join all of the joined thread's events, under sample=R the flushes in ticket order: MergeOrder) and
 * hands it to the {@link Feed}. Owns the stripes' expected sequence numbers and the events consumed. Checker thread
 * only.
 */
final class StripeMerge {

    private final CheckerLoop loop;
    private final Feed feed;
    private final SoloPeriods<ThreadLog> solo;
    /** Per stripe, the sequence number of its next event to take. */
    private final int[] expected = new int[Stripes.COUNT];
    /** sample=R is on (read once: Sampling is configured before the loop is made). */
    private final boolean sampling = Sampling.on();
    /** Under sample=R: the flushes fed so far, which are those with the lowest tickets (Flushes). */
    private long flushesFed;
    /** Events taken from the logs, checked or not. */
    long consumed;
    /** Events taken after checking stopped, not checked. */
    long unchecked;

    /** The merge of {@code loop}'s logs into {@code feed}, handing solo periods' ends to {@code solo}. */
    StripeMerge(CheckerLoop loop, Feed feed, SoloPeriods<ThreadLog> solo) {
        this.loop = loop;
        this.feed = feed;
        this.solo = solo;
    }

    /** Takes every ready event at the head of {@code log}, in order; returns whether any was taken. */
    boolean drain(ThreadLog log) {
        long c = log.lpConsumerIndex();
        long start = c;
        long p = log.lvProducerIndex();
        if (loop.failure() != null) {
            // checking stopped: take everything, in any order
            log.soConsumerIndex(p);
            consumed += p - start;
            unchecked += p - start;
            return p > start;
        }
        long hold = log.lvHoldAt(); // after the producer index: a hold is set before the events it holds back
        if (hold >= 0 && hold < p) {
            if (c >= hold) {
                solo.handOver(log, hold); // a solo period this thread ended itself: its fence, exactly where it ended it
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
                feed.process(log, c, kind, consumed);
            } catch (RuntimeException | Error e) {
                consumed += c - start; // those before it were checked; this one and the rest are not
                log.soConsumerIndex(c);
                loop.stopChecking(e);
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
}
