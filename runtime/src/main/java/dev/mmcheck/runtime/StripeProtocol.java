package dev.mmcheck.runtime;

/**
 * The stripe protocol behind every probe: an access and its event are one step per address, under the
 * address's stripe ({@link Stripes}). {@link #take} before the instruction, {@link #write} (through
 * {@link #log}/{@link #logValue}) and {@link #unlock} after it; {@link #offerUnordered} for events no
 * address orders. Also where a repeated load is left out ({@link #write}). Called only by
 * {@link Probes} and {@link ArrayLoads}, on the application thread that owns the log; allocates
 * nothing, logs nothing.
 */
final class StripeProtocol {

    /** The value of an event whose value is not recorded. */
    static final long NO_VALUE = 0;

    private StripeProtocol() {
    }

    /** Whether this thread's accesses go unlogged now: agent code, a muted user function, or after exit. */
    static boolean off(ThreadLog t) {
        return t.muted || t.mutedCalls > 0 || EventLog.closed;
    }

    /**
     * Whether a plain access of {@code object} goes unlogged now: {@link #off(ThreadLog)}, or
     * {@code sample=R} left the object out ({@link Sampling}).
     */
    static boolean off(ThreadLog t, Object object) {
        return !Sampling.sampled(object) || off(t);
    }

    /**
     * Takes the address's stripe for the access that follows. An access can run between another
     * access's lock and log probes only if code runs there that the agent did not foresee (class
     * initialization is forced before static accesses, user functions of atomics run muted); such a
     * nested access is not logged, and counted, rather than deadlock on a stripe its thread holds.
     */
    static void take(ThreadLog t, Object owner, int slot) {
        take(t, owner, slot, Stripes.of(owner, slot));
    }

    /**
     * {@link #take} before a bracketed call (an atomic, updater, VarHandle or Unsafe access), whose event
     * is written only after the call has run: under sampling the flush ticket of a call that writes
     * (Probes.bracketWrites says so) is taken here, while
     * the stripe is held and before the call can make a store visible, since a thread that reads it through
     * accesses that are not logged must already see the ticket counted (Flushes). The event written after
     * the call carries it, or, if none is written (a load left out, a call that threw), a no-op event does
     * when the stripe is released.
     */
    static void takeBracketed(ThreadLog t, Object owner, int slot) {
        boolean writes = t.bracketWrites; // a load flushes nothing: its event takes no ticket
        t.bracketWrites = false;
        int nested = t.nestedSkips;
        take(t, owner, slot);
        if (writes && Sampling.on && t.held >= 0 && t.nestedSkips == nested) {
            t.pendingTicket = Flushes.ticket();
        }
    }

    /** {@link #take} with the address's stripe {@code s} already computed. */
    static void take(ThreadLog t, Object owner, int slot, int s) {
        Solo.endGroupLeftOpen(t); // never wait for a stripe with a window open
        if (t.held >= 0) {
            t.nestedSkips++;
            t.nested++;
            return;
        }
        if (t.ringCount != 0 || t.ringFence != 0) {
            Solo.flushOrHold(t); // what a solo period left out for its hand-over comes before this event (Solo)
        }
        if (Sampling.syncAsFences && Sampling.syncAsFence(owner, slot)) {
            // sync=fences: an unsampled object's synchronization, logged (in write) as the fence it makes,
            // under the thread's handshake stripe as offerUnordered does; with no store logged since the
            // thread's last flush there is nothing for a fence to order, and a load is never logged
            t.syncAsFences++;
            if (!t.storesSinceFlush) {
                return;
            }
            s = t.handshakeStripe;
            t.fenceOnly = true;
        }
        Stripes.lock(s);
        if (EventLog.closed) {
            // re-checked under the stripe: after closing, the checker takes every stripe once before its
            // final drain, so an access that passed off() either logs before that or not at all
            Stripes.unlock(s);
            t.fenceOnly = false;
            return;
        }
        if (Solo.epoch != t.seenEpoch) {
            // read after the stripe's CAS: a solo period claimed since this thread's last event is taken away,
            // or its hand-over logged, before this event (Solo)
            Solo.passed(t);
        }
        t.held = s;
        t.heldObject = owner;
        t.heldSlot = slot;
    }

    /**
     * {@link #takeBracketed} for a view VarHandle's access of {@code size} bytes, elements first..first+size-1 of
     * {@code owner} (Views): the stripes of all of them, distinct, taken in ascending order (an access takes one stripe
     * at a time, a view access its stripes in one order, so no two threads wait for each other), so that the access
     * and its events are one step for every byte it touches. {@link #log} then writes an event per byte, and
     * {@link #unlock} releases them all.
     */
    static void takeRange(ThreadLog t, Object owner, int first, int size) {
        if (t.held >= 0 || Sampling.syncAsFences && Sampling.syncAsFence(owner, first)) {
            // nested (take counts it), or sync=fences on an object not drawn: one fence, as any handle access there
            takeBracketed(t, owner, first);
            return;
        }
        int[] s = t.rangeStripes;
        int n = 0;
        for (int k = 0; k < size && k < 8; k++) {
            int x = Stripes.of(owner, first + k);
            int at = 0;
            while (at < n && s[at] < x) {
                at++;
            }
            if (at < n && s[at] == x) {
                continue;
            }
            System.arraycopy(s, at, s, at + 1, n - at);
            s[at] = x;
            n++;
        }
        boolean writes = t.bracketWrites;
        t.bracketWrites = false;
        Solo.endGroupLeftOpen(t);
        for (int i = 0; i < n; i++) {
            Stripes.lock(s[i]);
        }
        if (EventLog.closed) {
            for (int i = n - 1; i >= 0; i--) {
                Stripes.unlock(s[i]);
            }
            return;
        }
        if (Solo.epoch != t.seenEpoch) {
            Solo.passed(t); // as in take
        }
        t.held = s[0];
        t.heldObject = owner;
        t.heldSlot = first;
        t.rangeStripeCount = n;
        t.rangeFirst = first;
        t.rangeSize = Math.min(size, 8);
        if (writes && Sampling.on) {
            t.pendingTicket = Flushes.ticket();
        }
    }

    /** The events of a view access under the stripes {@link #takeRange} took: one per byte, each under its stripe. */
    static void logRange(ThreadLog t, int kind, int site) {
        Object owner = t.heldObject;
        int first = t.rangeFirst;
        int s0 = t.held;
        for (int k = 0; k < t.rangeSize; k++) {
            t.held = Stripes.of(owner, first + k);
            t.heldObject = owner;
            t.heldSlot = first + k;
            write(t, kind, site, 0, NO_VALUE);
        }
        t.held = s0;
        t.heldObject = owner;
        t.heldSlot = first;
    }

    /** Writes the event of the access made under the held stripe (a value the self-check does not use). */
    static void log(ThreadLog t, int kind, int site, long value) {
        write(t, kind, site, 0, value);
    }

    /** Writes the event of an access whose value is the one read or written (checked by the self-check). */
    static void logValue(ThreadLog t, int kind, int site, long value) {
        if (t.held < 0) {
            if (t.soloPending) {
                Solo.record(t, kind, site); // left out by a solo period: into its hand-over ring
            }
            return; // nothing taken (an unsampled object, a muted thread): no volatile read of the switches
        }
        write(t, kind, site, EventLog.selfCheck ? ThreadLog.HAS_VALUE : 0, value);
    }

    /**
     * Writes the event of the access made under the held stripe, except a load that repeats this
     * thread's last access to the same address with no write to its stripe since (known from the
     * thread's own repeat cache, or from the stripe, whose last logged access was this thread's to this
     * address: then nothing at all happened under the stripe since, which also covers walks over more
     * addresses than the cache holds, such as a linked queue's {@code size()}) and with the thread's
     * knowledge count unmoved since that access ({@link ThreadLog#knowledge}: the thread has logged
     * nothing since but loads that themselves repeated). Such a load changes no report: it cannot expose
     * a buffered store (any store of another thread to the address was committed at the thread's last
     * access, and none came since), and the read-to-write edge it would give a later writer carries
     * nothing the last access's does not, but loads of the thread, which no store buffer holds
     * (docs/agent.md, "Loads that are not logged"; RepeatedLoadsDifferentialTest requires the same
     * reports). A load that repeats but finds the count moved is logged without moving it: it joins a
     * write its thread already knows. Every load is logged when {@link EventLog#everyLoad} is set: with
     * the self-check, with Sober, on request ({@code repeatedLoads=log}), and once transactions are
     * declared, since a repeated load can matter to the serializability checks
     * (docs/serializability.md, "Repeated loads").
     */
    static void write(ThreadLog t, int kind, int site, int flags, long value) {
        int s = t.held;
        if (s < 0 || t.nestedSkips > 0) {
            if (s < 0 && t.soloPending) {
                Solo.record(t, kind, site); // left out by a solo period: into its hand-over ring
            }
            return;
        }
        if (t.fenceOnly) {
            writeFence(t, kind, site);
            return;
        }
        if (Schedule.active) {
            Schedule.onEvent(t, kind, site);
        }
        if (Contexts.wanted(site)) {
            t.contextSite = site; // the site of a finding: record its callers once the stripe is released
        }
        int c = ThreadLog.cacheIndex(s, t.heldSlot);
        if (kind == Kinds.LOAD) {
            // this thread's own cache remembers its last access here, or the stripe's last access was this
            // thread's to this address (a walk over more addresses than the cache holds)
            boolean cached = repeats(t, s, c);
            boolean last = !cached && Stripes.lastWas(s, t.mark, t.heldObject, t.heldSlot);
            if ((cached || last) && !EventLog.everyLoad
                    && t.knowledge == (cached ? t.cacheKnowledge[c] : Stripes.lastKnowledge(s))) {
                t.elided++;
                return;
            }
            if (!cached && !last) {
                t.knowledge++; // it may join a write this thread did not know
            }
            t.cacheWrites[c] = Stripes.writes(s);
        } else {
            t.cacheWrites[c] = Stripes.countWrite(s);
        }
        t.offer(kind, site, t.heldObject, t.heldSlot, s, Stripes.nextSeq(s), flags, value); // counts a non-load
        t.cacheStripe[c] = s;
        t.cacheObject[c] = t.heldObject;
        t.cacheSlot[c] = t.heldSlot;
        t.cacheKnowledge[c] = t.knowledge; // just after the access
        Stripes.last(s, t.mark, t.heldObject, t.heldSlot, t.knowledge);
    }

    /**
     * sync=fences: the event of a synchronization access to an unsampled object, taken under the
     * handshake stripe (take): nothing for a load, a full fence with no address for anything that writes
     * (under sampling a release store flushes too: PartlyLogged), left out when the thread has logged no
     * store since its last flush (a StoreStore fence may have come since: it orders nothing more).
     */
    private static void writeFence(ThreadLog t, int kind, int site) {
        if (kind == Kinds.LOAD || !t.storesSinceFlush) {
            return; // a bracketed call's ticket, if any, is published by unlock
        }
        if (Schedule.active) {
            Schedule.onFence(t, Kinds.FULL_FENCE);
        }
        t.offer(Kinds.FULL_FENCE, site, null, 0, -1, 0, NO_VALUE);
    }

    /** Whether the held address is in this thread's repeat cache with no write to its stripe since. */
    static boolean repeats(ThreadLog t, int s, int c) {
        return t.cacheStripe[c] == s && t.cacheObject[c] == t.heldObject && t.cacheSlot[c] == t.heldSlot
                && t.cacheWrites[c] == Stripes.writes(s);
    }

    /**
     * Publishes an event that no address orders (stripe -1) under the thread's handshake stripe, checking
     * again under it that the log is open: as for accesses (take), an event in flight when the log
     * closes is then either published before the checker's final drain or not at all.
     */
    static void offerUnordered(ThreadLog t, int kind, int site, Object object, int slot, long value) {
        if (Schedule.active) {
            Schedule.onFence(t, kind);
        }
        if (t.held >= 0) { // cannot happen between probes; never spin on a stripe this thread may hold
            t.offer(kind, site, object, slot, -1, 0, value);
            return;
        }
        Solo.endGroupLeftOpen(t); // as in take
        if (t.ringCount != 0 || t.ringFence != 0) {
            Solo.flushOrHold(t); // as in take
        }
        int s = t.handshakeStripe;
        Stripes.lock(s);
        if (!EventLog.closed) {
            if (Solo.epoch != t.seenEpoch) {
                Solo.passed(t); // as in take
            }
            t.offer(kind, site, object, slot, -1, 0, value);
        }
        Stripes.unlock(s);
    }


    /** Releases the stripe taken by the last lock probe, if any (after a store instruction). */
    static void unlock(ThreadLog t) {
        if (t.nestedSkips > 0) {
            t.nestedSkips--; // the end of a nested access: the outer one still holds its stripe
            return;
        }
        if (t.rangeStripeCount > 0) {
            for (int i = t.rangeStripeCount - 1; i > 0; i--) {
                Stripes.unlock(t.rangeStripes[i]); // a view access's other stripes; the first is held's, below
            }
            t.rangeStripeCount = 0;
        }
        int s = t.held;
        if (s < 0) {
            if (t.soloPending) {
                t.soloPending = false; // an access left out that threw before its log probe: nothing to record
                t.soloObject = null;
            }
            if (t.wasSolo && !t.inGroup) {
                Solo.close(t); // after an access a solo period left out (a group's window closes at its end: Probes.endGroup)
            }
            return;
        }
        if (t.pendingTicket >= 0) {
            // a bracketed call's ticket with no event to carry it (a load left out, or the call threw):
            // a no-op event publishes it, still under the stripe, so the merge can go past it
            t.offer(Kinds.LOAD_FENCE, -1, null, 0, -1, 0, NO_VALUE);
        }
        t.held = -1;
        t.heldObject = null;
        t.fenceOnly = false;
        Stripes.unlock(s);
        if (t.contextSite >= 0) {
            Contexts.capture(t);
        }
        if (t.pauseSite >= 0) {
            Schedule.afterUnlock(t); // schedule=active: a window is open, and no stripe is held
        }
    }
}
