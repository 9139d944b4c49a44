package dev.mmcheck.checker.jmm;

import java.util.Arrays;

/**
 * A location clock: for each location, the stamp of a write to it (0 is the initial value, known to
 * every thread). Dense, grown on demand; joins and copies reuse the array, so the common path allocates
 * only when a new location id first appears.
 */
final class View {

    private int[] s;
    private int n;  // s[n..] are all 0
    private long version;  // counts the changes: unchanged version, unchanged content (to skip a join that is a no-op)
    private int resetX = -1;  // >= 0: the content is resetK at resetX alone, s not yet made so (reset)
    private int resetK;

    /** An empty view: every location at its initial value. */
    View() {
        this(new int[4], 0, 0);
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
            version++;
        }
    }

    /** This := {@code o}. */
    void assign(View o) {
        o.settle();
        resetX = -1; // overwritten whole
        int on = o.n;
        ensure(on);
        System.arraycopy(o.s, 0, s, 0, on);
        if (n > on) {
            Arrays.fill(s, on, n, 0);
        }
        n = on;
        version++;
    }

    /**
     * This := only {@code k} at {@code x} (every other location at its initial value). Lazy: the entries are cleared
     * when the view is next read, changed or joined, not when it is next overwritten whole ({@link #assign}), which
     * is what most views reset so meet first (a retired location's views at its next write).
     */
    void reset(int x, int k) {
        resetX = x;
        resetK = k;
        version++;
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
        return new View(s.clone(), n, version);
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
