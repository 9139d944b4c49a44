package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.SiteModes;
import dev.mmcheck.checker.event.Symbols;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * A recorded run as it would have run with some {@link Change}s made: an {@link EventSink} that passes each event on
 * to another with the changed instructions' events given their stronger kind or mode and the fences inserted, in the
 * same thread, right before or after each execution of the instruction (docs/fix.md, "Replaying a fix"). The order
 * of the run is kept: a fence inserted runs where the program would run it, so the replayed run is the recorded one
 * of the changed program. A fence before an instruction is passed on right before it, one after it right before the
 * thread's next event (or at the end of the run): the latest points the program may run them at, so the other
 * threads' events between see the thread's stores as long unfenced as any placement would. New sites (an access with a stronger mode, a fence at a line) are defined in the run's
 * {@link Symbols} as they are needed. Not thread-safe.
 */
final class Rewrite implements EventSink {

    private static final int NONE = -1;

    private final Symbols symbols;
    private final EventSink out;
    private final int sites;
    private final int[][] before;        // per site id: fence events (kind, site) to insert before each execution
    private final int[][] after;         // ... and after
    private final int[] storeKind;       // per site id: the kind its stores become, or NONE
    private final String[] loadMode;     // per site id: the mode its loads take, or null
    private final Set<String> volatileFields = new HashSet<>();
    private boolean[] volatileAddress = new boolean[0];
    private boolean[] addressKnown = new boolean[0];
    private int[][] pending = new int[4][];   // per thread: the fences due after its last event, not yet passed on
    private int[] strongerSite = new int[0];   // per site id and mode (empty, acquire, volatile): that site, else NONE

    /** Replays into {@code out} the run {@code symbols} names, with {@code changes} made. */
    Rewrite(Symbols symbols, Collection<Change> changes, EventSink out) {
        this.symbols = symbols;
        this.out = out;
        this.sites = symbols.siteCount();
        before = new int[sites][];
        after = new int[sites][];
        storeKind = new int[sites];
        loadMode = new String[sites];
        Arrays.fill(storeKind, NONE);
        for (Change c : changes) {
            if (c.kind() == Change.Kind.VOLATILE_FIELD) {
                volatileFields.add(c.field());
            }
        }
        for (int id = 0; id < sites; id++) {
            Site s = symbols.siteOf(id);
            for (Change c : changes) {
                if (c.kind() == Change.Kind.VOLATILE_FIELD || !c.changes(s)) {
                    continue;
                }
                switch (c.kind()) {
                    case FULL_FENCE_BEFORE -> before[id] = add(before[id], EventKind.FULL_FENCE, fenceSite(s, ""));
                    case RELEASE_FENCE_BEFORE -> before[id] = add(before[id], EventKind.STORE_STORE_FENCE,
                            fenceSite(s, SiteModes.RELEASE));
                    case ACQUIRE_FENCE_BEFORE -> before[id] = add(before[id], EventKind.LOAD_FENCE,
                            fenceSite(s, SiteModes.ACQUIRE));
                    case FULL_FENCE_AFTER -> after[id] = add(after[id], EventKind.FULL_FENCE, fenceSite(s, ""));
                    case ACQUIRE_FENCE_AFTER -> after[id] = add(after[id], EventKind.LOAD_FENCE,
                            fenceSite(s, SiteModes.ACQUIRE));
                    case VOLATILE_STORE -> storeKind[id] = EventKind.VOLATILE_STORE.code();
                    case RELEASE_STORE -> {
                        if (storeKind[id] == NONE) {
                            storeKind[id] = EventKind.RELEASE_STORE.code();
                        }
                    }
                    case VOLATILE_LOAD -> loadMode[id] = SiteModes.VOLATILE;
                    case ACQUIRE_LOAD -> {
                        if (loadMode[id] == null) {
                            loadMode[id] = SiteModes.ACQUIRE;
                        }
                    }
                    default -> throw new IllegalStateException("unhandled change " + c.kind());
                }
            }
        }
    }

    /** Replays {@code run} into {@code out} with {@code changes} made. */
    static void replay(dev.mmcheck.checker.event.EventBuffer run, Symbols symbols, Collection<Change> changes,
            EventSink out) {
        Rewrite r = new Rewrite(symbols, changes, out);
        run.replay(r);
        r.finish();
    }

    /** The fences still due after each thread's last instruction, at the end of the run, thread by thread. */
    void finish() {
        for (int t = 0; t < pending.length; t++) {
            if (pending[t] != null) {
                fences(pending[t], t);
                pending[t] = null;
            }
        }
    }

    /**
     * The instruction a site is, whatever mode the run gave it: a change made at it applies to every execution (a
     * failed compare-and-set's too, and an access a change already gave a stronger mode).
     */
    static Site instruction(Site s) {
        return s.mode().isEmpty() ? s : new Site(s.className(), s.method(), s.file(), s.line(), s.bci(), "",
                s.caller());
    }

    @Override
    public void event(int kind, int thread, int operand, int site) {
        int at = site;
        boolean known = at >= 0 && at < sites;
        if (thread >= 0 && thread < pending.length && pending[thread] != null) {
            fences(pending[thread], thread); // the fences due after the thread's previous instruction
            pending[thread] = null;
        }
        if (known && before[at] != null) {
            fences(before[site], thread);
        }
        EventKind k = EventKind.of(kind);
        if (k == EventKind.STORE || k == EventKind.RELEASE_STORE || k == EventKind.LOAD) {
            boolean field = !volatileFields.isEmpty() && inVolatileField(operand);
            if (k == EventKind.LOAD) {
                String mode = field ? SiteModes.VOLATILE : known ? loadMode[site] : null;
                if (mode != null && !stronger(symbols.siteOf(site).mode(), mode)) {
                    site = withMode(site, mode);
                }
            } else {
                int to = field ? EventKind.VOLATILE_STORE.code() : known ? storeKind[site] : NONE;
                if (to != NONE && !(k == EventKind.RELEASE_STORE && to == EventKind.RELEASE_STORE.code())) {
                    kind = to;
                    site = withMode(site, "");
                }
            }
        }
        out.event(kind, thread, operand, site);
        if (known && after[at] != null) {
            // as late as the program could run them: right before the thread's next event, every other thread's events
            // between (a store stays buffered longest, so the replay has every finding some placement has)
            if (thread >= pending.length) {
                pending = Arrays.copyOf(pending, Math.max(thread + 1, 2 * pending.length));
            }
            pending[thread] = after[at];
        }
    }

    private void fences(int[] fences, int thread) {
        for (int i = 0; i < fences.length; i += 2) {
            out.event(fences[i], thread, -1, fences[i + 1]);
        }
    }

    /** Whether a load's present mode is already at least {@code wanted}. */
    private static boolean stronger(String present, String wanted) {
        return present.equals(SiteModes.VOLATILE) || present.equals(wanted);
    }

    private boolean inVolatileField(int address) {
        if (address < 0) {
            return false;
        }
        if (address >= addressKnown.length) {
            int n = Math.max(address + 1, 2 * addressKnown.length);
            addressKnown = Arrays.copyOf(addressKnown, n);
            volatileAddress = Arrays.copyOf(volatileAddress, n);
        }
        if (!addressKnown[address]) {
            addressKnown[address] = true;
            volatileAddress[address] = volatileFields.contains(Names.withoutObject(symbols.addressName(address)));
        }
        return volatileAddress[address];
    }

    /** The site {@code site} is with mode {@code mode} (empty, acquire or volatile; defined when new). */
    private int withMode(int site, String mode) {
        if (site < 0) {
            return site;
        }
        Site s = symbols.siteOf(site);
        if (s.mode().equals(mode)) {
            return site;
        }
        int m = mode.isEmpty() ? 0 : mode.equals(SiteModes.ACQUIRE) ? 1 : 2;
        int i = site * 3 + m;
        if (i >= strongerSite.length) {
            int old = strongerSite.length;
            strongerSite = Arrays.copyOf(strongerSite, Math.max(i + 3, 2 * old));
            Arrays.fill(strongerSite, old, strongerSite.length, NONE);
        }
        if (strongerSite[i] == NONE) {
            strongerSite[i] = symbols.site(new Site(s.className(), s.method(), s.file(), s.line(), s.bci(), mode,
                    s.caller()));
        }
        return strongerSite[i];
    }

    private int fenceSite(Site s, String mode) {
        return symbols.site(new Site(s.className(), s.method(), s.file(), s.line(), -1, mode, s.caller()));
    }

    private static int[] add(int[] fences, EventKind kind, int site) {
        int[] more = fences == null ? new int[2] : Arrays.copyOf(fences, fences.length + 2);
        more[more.length - 2] = kind.code();
        more[more.length - 1] = site;
        return more;
    }
}
