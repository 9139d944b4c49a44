package dev.mmcheck.checker.jmm;

import java.util.Arrays;

/**
 * A location clock: for each location, the stamp of a write to it (0 is the initial value, known to
 * every thread). Dense, grown on demand; joins and copies reuse the array, so the common path allocates
 * only when a new location id first appears. Three ways to touch fewer entries, each giving what the whole-view
 * operation gives: a logged view keeps its latest raises, which another view replays to catch up with it
 * ({@link #raisesSince}); a view still the unchanged copy of another takes only that one's raises since at its next
 * copy ({@link #assign}); a reset is lazy ({@link #reset}).
 */
final class View {

    private int[] s;
    private int n;  // s[n..] are all 0
    private long version;  // counts the changes: unchanged version, unchanged content (to skip a join that is a no-op)
    private int resetX = -1;  // >= 0: the content is resetK at resetX alone, s not yet made so (reset)
    private int resetK;
    // a logged view's last LOG single-entry raises, by version (the raise that made version v is at v % LOG), and the
    // version of its last other change (a join, copy or reset): raisesSince replays them into another view
    static final int LOG = 16;
    // the most raises replayed instead of a copy, and instead of a join (both of those loops are vectorized, a replay
    // is not): chosen on W01 and W08, docs/performance.md
    static final int COPY_RAISES = 6;
    static final int JOIN_RAISES = 12;
    private int[] logX;
    private int[] logK;
    private long bulkAt;
    // the view this one was last made a copy of (assign), its version then, and this one's version right after
    private View copiedFrom;
    private long copiedAt;
    private long copiedVersion;
    private int copiedExtra = -1; // >= 0: the copy was raised at this location too (assignRaised)

    /** An empty view: every location at its initial value. */
    View() {
        this(new int[4], 0, 0);
    }

    /** An empty view that logs its latest raises when {@code logged} ({@link #raisesSince}). */
    View(boolean logged) {
        this();
        if (logged) {
            logX = new int[LOG];
            logK = new int[LOG];
        }
    }

    private View(int[] s, int n, long version) {
        this.s = s;
        this.n = n;
        this.version = version;
    }

    /** A number that changes whenever this view's content may have: equal numbers, equal content. */
    long version() {
        return version;
    }

    /** The stamp for location {@code x}. */
    int get(int x) {
        settle();
        return x < n ? s[x] : 0;
    }

    /** Raises the entry of {@code x} to at least {@code k}. */
    void raise(int x, int k) {
        if (k == 0) {
            return;
        }
        settle();
        if (x >= n) {
            ensure(x + 1);
            n = x + 1;
        }
        if (s[x] < k) {
            s[x] = k;
            version++;
            if (logX != null) {
                int i = (int) version & (LOG - 1);
                logX[i] = x;
                logK[i] = k;
            }
        }
    }

    /**
     * This ⊔= {@code o}. Two passes the JIT vectorizes (an or-reduction, then a max): the first finds whether anything
     * changes (stamps are non-negative ints, so {@code s[i] - o[i]} is negative exactly when {@code o} is ahead), which
     * most joins do not, and only then the second.
     */
    void join(View o) {
        settle();
        o.settle();
        int on = o.n;
        int[] a = o.s;
        int[] b = s;
        int common = Math.min(on, n);
        int behind = 0;
        for (int i = 0; i < common; i++) {
            behind |= b[i] - a[i];
        }
        boolean changed = false;
        if (on > n) {
            int ahead = 0;
            for (int i = n; i < on; i++) {
                ahead |= a[i];
            }
            ensure(on);
            b = s;
            System.arraycopy(a, n, b, n, on - n); // s[n..] were all 0: o's entries are the max
            n = on;
            changed = ahead != 0;
        }
        if (behind < 0) {
            for (int i = 0; i < common; i++) {
                b[i] = Math.max(b[i], a[i]);
            }
            changed = true;
        }
        if (changed) {
            bulkAt = ++version;
        }
    }

    /**
     * Raises {@code target} by what this view gained since its version was {@code from}, and true, when every change
     * since was a single-entry raise still logged; false, and nothing done, when not (then a join is needed). So a
     * view that was above this one at {@code from} is above it again at the cost of its few latest raises.
     */
    boolean raisesSince(long from, View target) {
        return raisesSince(from, target, LOG);
    }

    /** {@link #raisesSince(long, View)}, false too when there were more than {@code most} raises. */
    boolean raisesSince(long from, View target, int most) {
        if (logX == null || from < bulkAt || version - from > most) {
            return false;
        }
        if (target.logX != null) {
            for (long v = from + 1; v <= version; v++) {
                int i = (int) v & (LOG - 1);
                target.raise(logX[i], logK[i]);
            }
            return true;
        }
        // an unlogged target: the raises in place, its version moved once
        target.settle();
        boolean changed = false;
        for (long v = from + 1; v <= version; v++) {
            int i = (int) v & (LOG - 1);
            int x = logX[i];
            int k = logK[i];
            if (x >= target.n) {
                target.ensure(x + 1);
                target.n = x + 1;
            }
            if (target.s[x] < k) {
                target.s[x] = k;
                changed = true;
            }
        }
        if (changed) {
            target.version++;
        }
        return true;
    }

    /**
     * This := {@code o}. When this view is still the copy it was made at its last assign from {@code o} (its version
     * unchanged since) and {@code o} has only had logged raises since, those raises make it {@code o} again: a thread
     * writing one location after another copies only what changed between its writes.
     */
    void assign(View o) {
        if (o == copiedFrom && version == copiedVersion && copiedExtra < 0 && o.raisesSince(copiedAt, this, COPY_RAISES)) {
            copiedAt = o.version;
            copiedVersion = version;
            return;
        }
        copy(o);
        copiedExtra = -1;
    }

    /**
     * This := {@code o} ⊔ {@code k} at {@code x}, as {@link #assign} and {@link #raise}: when this is still the copy it
     * was made at its last such assign from {@code o} with the same {@code x} and a stamp no greater, the raises of
     * {@code o} since and this raise make it what it should be (a location's message after each plain write).
     */
    void assignRaised(View o, int x, int k) {
        if (o == copiedFrom && version == copiedVersion && copiedExtra == x && get(x) <= k
                && o.raisesSince(copiedAt, this, COPY_RAISES)) {
            raise(x, k);
            copiedAt = o.version;
            copiedVersion = version;
            return;
        }
        copy(o);
        raise(x, k);
        copiedExtra = x;
        copiedVersion = version;
    }

    /** This := {@code o} entry by entry, remembered as {@code o}'s copy. */
    private void copy(View o) {
        o.settle();
        resetX = -1; // overwritten whole
        int on = o.n;
        ensure(on);
        System.arraycopy(o.s, 0, s, 0, on);
        if (n > on) {
            Arrays.fill(s, on, n, 0);
        }
        n = on;
        bulkAt = ++version;
        copiedFrom = o;
        copiedAt = o.version;
        copiedVersion = version;
    }

    /**
     * This := only {@code k} at {@code x} (every other location at its initial value). Lazy: the entries are cleared
     * when the view is next read, changed or joined, not when it is next overwritten whole ({@link #assign}), which
     * is what most views reset so meet first (a retired location's views at its next write).
     */
    void reset(int x, int k) {
        resetX = x;
        resetK = k;
        bulkAt = ++version;
    }

    /** Whether this view holds at most one entry, at {@code x}, as a {@link #reset} left it (not yet changed since). */
    boolean onlyAt(int x) {
        return resetX == x;
    }

    /** Makes the entries what a pending {@link #reset} says. */
    private void settle() {
        int x = resetX;
        if (x < 0) {
            return;
        }
        resetX = -1;
        Arrays.fill(s, 0, n, 0);
        n = 0;
        if (resetK != 0) {
            ensure(x + 1);
            n = x + 1;
            s[x] = resetK;
        }
    }

    /** A copy of this view. */
    View duplicate() {
        settle();
        View d = new View(s.clone(), n, version);
        if (logX != null) {
            d.logX = logX.clone();
            d.logK = logK.clone();
            d.bulkAt = bulkAt;
        }
        return d;
    }

    private void ensure(int size) {
        if (size > s.length) {
            s = Arrays.copyOf(s, Math.max(size, s.length * 2));
        }
    }

    @Override
    public String toString() {
        settle();
        return Arrays.toString(Arrays.copyOf(s, n));
    }
}
