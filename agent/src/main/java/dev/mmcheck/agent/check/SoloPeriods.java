package dev.mmcheck.agent.check;

import dev.mmcheck.runtime.Kinds;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The checker thread's side of the solo periods (runtime.Solo): looks for a thread logging alone, claims a period
 * for it, sweeps the stripes, feeds the other logs to their ends, confirms the period, and feeds its end (the
 * hand-over ring) where it belongs in the merge. Owns the periods' counts and the claims' pacing. Reaches the runtime
 * through {@link SoloRuntime} and the loop through {@link SoloFeed}, so that a unit test drives it with fakes
 * (SoloPeriodsTest); {@code L} is a thread's log (runtime.ThreadLog in a run). Checker thread only.
 */
final class SoloPeriods<L> {

    /** The least time between two claims: doubled when a claim or period is taken away soon, reset by a long period. */
    private static final long MIN_CLAIM_GAP = 2_000_000L;
    private static final long MAX_CLAIM_GAP = 2_000_000_000L;
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

    private final SoloRuntime<L> solo;
    private final SoloFeed loop;
    private final List<L> active;
    private final Function<L, LogCursor> cursors;
    /** Solo periods granted, and their ends fed. */
    private long soloGrants;
    private long soloHandOvers;
    /** Claims given up because a quiet thread still had a store buffered (no fence is made for a period any more). */
    private long claimsUnfenced;
    /** Accesses and fences the solo periods' hand-over rings fed (runtime.Solo). */
    private long ringFed;
    /** When the next claim may be made. */
    private long nextClaimAt;
    private long claimGap = MIN_CLAIM_GAP;
    private long lastSoloLook;
    /** Who ended solo periods: a thread's name, the periods it ended (the report's run.soloEndedBy). */
    private final Map<String, Long> soloEndedBy = new HashMap<>();
    /** Looks that found two threads busy at once, by thread name (the report's run.soloBusyTogether). */
    private final Map<String, Long> soloBusyTogether = new HashMap<>();
    /** When the current period was granted, and how long its claim took (the sweep, the fences). */
    private long grantedAt;
    private long claimCost;
    /** The checker's time spent claiming periods (sweeps, drains, fences), over the run. */
    private long claimNanos;

    /**
     * The periods of the runtime {@code solo} whose live logs are {@code active} (the checker's cursor of each from
     * {@code cursors}), fed through {@code loop}.
     */
    SoloPeriods(SoloRuntime<L> solo, SoloFeed loop, List<L> active, Function<L, LogCursor> cursors) {
        this.solo = solo;
        this.loop = loop;
        this.active = active;
        this.cursors = cursors;
    }

    /** Looks for a period to claim or an end to feed when a look is due and checking goes on. */
    void maybeLook(long now) {
        if (now - lastSoloLook > SOLO_LOOK_NANOS && !loop.failed()) {
            lastSoloLook = now;
            soloPeriods(now);
        }
    }

    /**
     * Tells schedule=active which thread, if one, has been the only one to log over the last two looks, with no
     * thread started and not yet begun (runtime.Solo#alone): a thread just started runs its first accesses before
     * it has logged anything a look could see.
     */
    private void lookAlone(long now) {
        L only = null;
        int producers = 0;
        boolean starting = false;
        for (L log : active) {
            long p = solo.produced(log);
            starting |= p == 0;
            LogCursor cursor = cursors.apply(log);
            if (p != cursor.producedAtAloneLook) {
                cursor.producedAtAloneLook = p;
                producers++;
                only = log;
            }
        }
        L alone = producers == 1 && !starting ? only : null;
        solo.lookedAlone(alone != null && alone == aloneAtLastLook ? alone : null, now);
        aloneAtLastLook = alone;
    }

    /** The thread found logging alone at the last look, or null. */
    private L aloneAtLastLook;

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
    void handOver(L soloLog, long count) {
        String broken = solo.broken();
        if (broken != null) {
            // the thread that ended the period could not wait for the solo thread: the hand-over cannot be placed
            // exactly, so checking stops before anything after that end is fed (loudly: the run is incomplete)
            throw new CheckerStopped("solo-hand-over", broken);
        }
        boolean pending = solo.pending() == soloLog;
        boolean held = solo.holdAt(soloLog) >= 0 && solo.consumed(soloLog) >= solo.holdAt(soloLog);
        if (held || pending && solo.consumed(soloLog) >= solo.pendingCount()) {
            feedRing(soloLog);
            solo.releaseHold(soloLog);
        }
        LogCursor cursor = cursors.apply(soloLog);
        if (cursor.handOverFed < count) {
            cursor.handOverFed = count;
            // a period that ended soon makes the next claim wait longer; a long one lets claims come often again
            long lasted = System.nanoTime() - grantedAt;
            claimGap = lasted < 4 * Math.max(claimCost, 1_000_000L) ? Math.min(MAX_CLAIM_GAP, claimGap * 2) : MIN_CLAIM_GAP;
            String by = solo.pendingEndedBy();
            if (by != null) {
                soloEndedBy.merge(by, 1L, Long::sum);
            }
            soloHandOvers++;
        }
        if (pending && solo.consumed(soloLog) >= solo.pendingCount()) {
            solo.handedOver(soloLog);
        }
    }

    /**
     * Feeds {@code log}'s hand-over ring, its fence first, as the events they are (each access's address found as
     * {@code Feed.process} finds it), and empties it. Nothing for a log no longer active (its thread's end was fed).
     */
    private void feedRing(L log) {
        int n = solo.ringSize(log);
        int fence = solo.ringFence(log);
        if (active.contains(log) && !loop.failed()) {
            int serial = solo.serial(log);
            if (fence != 0) {
                loop.feedFence(fence, serial, solo.ringFenceSite(log));
            }
            for (int i = 0; i < n; i++) {
                int kind = solo.ringKind(log, i);
                ringFed++;
                if (kind == Kinds.STORE_STORE_FENCE) {
                    loop.feedFence(kind, serial, solo.ringSite(log, i));
                } else {
                    loop.feedAccess(kind, serial, solo.ringObject(log, i), solo.ringSlot(log, i), solo.ringSite(log, i));
                }
            }
        }
        solo.clearRing(log);
    }

    /**
     * Solo periods (runtime.Solo): feeds a pending end whose log's events are fed (a period can end by a thread
     * that then never logs), then, if one live log is busy and every other is quiet (nothing produced since the
     * last look) and drained, claims a period for it, takes every stripe once (so that every event another
     * thread began before the claim is published), feeds the other logs to their ends again, and confirms the
     * period unless a quiet thread still has a store buffered (no fence is fed for a period: the claim is given up).
     * A claim or period taken away soon after makes the next claim wait longer, since each costs a sweep of the
     * stripes and drains of the quiet threads.
     */
    private void soloPeriods(long now) {
        lookAlone(now);
        L pending = solo.pending();
        if (pending != null) {
            long count = solo.pendingCount();
            if (solo.consumed(pending) >= count) {
                handOver(pending, count);
            }
            return;
        }
        if (!solo.enabled() || now < nextClaimAt || solo.claimed()) {
            return;
        }
        L busy = null;
        int busyLogs = 0;
        int producing = 0;
        boolean others = false;
        for (L log : active) {
            if (solo.thread(log) == loop.thread()) {
                continue; // this loop's own log, if it has one, never logs
            }
            long p = solo.produced(log);
            LogCursor cursor = cursors.apply(log);
            boolean produced = p != cursor.producedAtLastLook;
            cursor.producingAtLastLook = produced;
            producing += produced ? 1 : 0;
            boolean quiet = !produced && solo.consumed(log) == p; // every log is looked at: none stays stale
            cursor.producedAtLastLook = p;
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
        Thread t = busy == null ? null : solo.thread(busy);
        if (t == null || t.getState() == Thread.State.TERMINATED || !solo.claim(busy)) {
            return;
        }
        nextClaimAt = now + claimGap;
        long sweepStart = System.nanoTime();
        // a log created before the claim, not yet taken in, is taken in by the first drain: its events are fed and
        // it is fenced. Only the other logs are drained to their ends: the busy thread goes on logging meanwhile,
        // and draining until it pauses could take as long as it runs
        if (!feedOthers(busy)) {
            claimLost(busy, sweepStart);
            return;
        }
        for (L log : active) {
            others |= log != busy && solo.thread(log) != loop.thread();
        }
        if (others) {
            long giveUpAt = sweepStart + MAX_SWEEP_NANOS;
            int stripes = solo.stripes();
            for (int s = 0; s < stripes; s++) {
                // a stripe is held for one access and its log entry: spin first. Drain only when the holder may be
                // waiting for room in its log: draining at every collision with the busy thread's stripes fed its
                // backlog (up to a ring's worth each time) and made a claim take tens of milliseconds
                for (int spins = 0; !solo.tryLock(s); spins++) {
                    if (spins < SWEEP_SPINS || !loop.drainAll()) {
                        Thread.onSpinWait();
                    }
                    if ((spins & 1023) == 1023 && (loop.stopping() || loop.failed()
                            || System.nanoTime() > giveUpAt || !solo.claimedFor(busy))) {
                        // a stripe held for long (a thread blocked in an atomic's update function holds its own),
                        // the run ending, or the claim taken away: no period this time
                        claimLost(busy, sweepStart);
                        return;
                    }
                }
                solo.unlock(s);
            }
            // every event another thread published before the sweep ended, fed
            if (!feedOthers(busy)) {
                claimLost(busy, sweepStart);
                return;
            }
        }
        if (!solo.claimedFor(busy)) {
            // another thread logged since the claim (feedOthers stops on that only while a log is unfed) or the run
            // declared transactions: no period, and no fences, which would fall wherever that thread is now (inside
            // a transaction, say, where a report would show a fence with no place in the source)
            claimLost(busy, sweepStart);
            return;
        }
        for (L log : active) {
            if (log != busy && solo.thread(log) != loop.thread() && !loop.failed()
                    && loop.storesBuffered(solo.serial(log))) {
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
        for (L log : active) {
            lone &= log == busy || solo.thread(log) == loop.thread();
        }
        if (solo.confirm(busy, lone)) {
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
    private boolean feedOthers(L busy) {
        while (true) {
            boolean progress = loop.drainAll();
            boolean fed = true;
            for (int i = 0; i < active.size() && fed; i++) {
                L log = active.get(i);
                fed = log == busy || solo.thread(log) == loop.thread() || solo.consumed(log) == solo.produced(log);
            }
            if (fed) {
                return !loop.failed();
            }
            if (loop.failed() || !solo.claimedFor(busy)) {
                return false;
            }
            if (!progress) {
                Thread.onSpinWait();
            }
        }
    }

    /** Gives up the claim for {@code busy}: another thread logged meanwhile; the next claim waits longer. */
    private void claimLost(L busy, long since) {
        solo.confirmNot(busy);
        claimGap = Math.min(MAX_CLAIM_GAP, claimGap * 2);
        claimNanos += System.nanoTime() - since;
    }

    /**
     * Counts a look that found two or more threads logging since the last look, by name, for the report's
     * run.soloBusyTogether: a thread that logs beside every other (one spinning or polling, left running by an
     * earlier test) keeps any period from being claimed.
     */
    private void busyTogether() {
        for (L log : active) {
            if (cursors.apply(log).producingAtLastLook && solo.thread(log) != loop.thread()) {
                soloBusyTogether.merge(solo.name(log), 1L, Long::sum);
            }
        }
    }

    /** Solo periods granted (runtime.Solo). */
    long grants() {
        return soloGrants;
    }

    /** Milliseconds the checker thread spent claiming solo periods (sweeping the stripes, feeding the other logs). */
    long claimMillis() {
        return claimNanos / 1_000_000;
    }

    /** Accesses and fences fed from solo periods' hand-over rings. */
    long ringFed() {
        return ringFed;
    }

    /** Claims of solo periods given up because a quiet thread still had a store buffered. */
    long claimsUnfenced() {
        return claimsUnfenced;
    }

    /** Ends of solo periods handed over. */
    long handOvers() {
        return soloHandOvers;
    }

    /**
     * The threads that ended solo periods most often, by name, with the periods each ended (the solo thread's own
     * name when it started a thread), at most {@code max}, most first. After the loop has finished.
     */
    Map<String, Long> endedBy(int max) {
        return top(soloEndedBy, max);
    }

    /**
     * The threads most often found busy beside another when the checker looked for a solo period (every
     * millisecond), by name, with the number of such looks, at most {@code max}, most first. After the loop has finished.
     */
    Map<String, Long> busyTogether(int max) {
        return top(soloBusyTogether, max);
    }

    private static Map<String, Long> top(Map<String, Long> counts, int max) {
        Map<String, Long> top = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(max)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
