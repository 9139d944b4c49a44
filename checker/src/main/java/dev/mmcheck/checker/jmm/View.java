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
        return x < n ? s[x] : 0;
    }

    /** Raises the entry of {@code x} to at least {@code k}. */
    void raise(int x, int k) {
        if (k == 0) {
            return;
        }
        if (x >= n) {
            ensure(x + 1);
            n = x + 1;
        }
        if (s[x] < k) {
            s[x] = k;
            version++;
        }
    }

    /** This ⊔= {@code o}. */
    void join(View o) {
        int on = o.n;
        if (on > n) {
            ensure(on);
            n = on;
        }
        int[] a = o.s;
        int[] b = s;
        boolean changed = false;
        for (int i = 0; i < on; i++) {
            if (b[i] < a[i]) {
                b[i] = a[i];
                changed = true;
            }
        }
        if (changed) {
            version++;
        }
    }

    /** This := {@code o}. */
    void assign(View o) {
        int on = o.n;
        ensure(on);
        System.arraycopy(o.s, 0, s, 0, on);
        if (n > on) {
            Arrays.fill(s, on, n, 0);
        }
        n = on;
        version++;
    }

    /** Every location back at its initial value. */
    void clear() {
        Arrays.fill(s, 0, n, 0);
        n = 0;
        version++;
    }

    /** A copy of this view. */
    View duplicate() {
        return new View(s.clone(), n, version);
    }

    private void ensure(int size) {
        if (size > s.length) {
            s = Arrays.copyOf(s, Math.max(size, s.length * 2));
        }
    }

    @Override
    public String toString() {
        return Arrays.toString(Arrays.copyOf(s, n));
    }
}
