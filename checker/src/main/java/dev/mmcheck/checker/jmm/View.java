package dev.mmcheck.checker.jmm;

import java.util.Arrays;

/**
 * A location clock: for each location, the stamp of a write to it (0 is the initial value, known to
 * every thread). Dense, grown on demand. Copies are lazy: {@link #assign} and {@link #duplicate} share the
 * other view's array, and whichever view changes a shared array first copies it (copy on write). A store
 * publishes the writer's knowledge into four of its location's views at once, most of which are read
 * and replaced before anyone changes them: each such copy was a pass over every location tracked.
 */
final class View {

    private int[] s;
    private int n;  // s[n..] are all 0
    private long version;  // counts the changes: unchanged version, unchanged content (to skip a join that is a no-op)
    // s may be held by another view too: it must not be written in place (set on both sides when shared; the last
    // holder copies once more than it needs to, which is cheaper than counting holders)
    private boolean shared;

    /** An empty view: every location at its initial value. */
    View() {
        this(new int[4], 0, 0, false);
    }

    private View(int[] s, int n, long version, boolean shared) {
        this.s = s;
        this.n = n;
        this.version = version;
        this.shared = shared;
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
        if (x < n && s[x] >= k) {
            return;
        }
        own(x + 1);
        if (x >= n) {
            n = x + 1;
        }
        s[x] = k;
        version++;
    }

    /** This ⊔= {@code o}. */
    void join(View o) {
        int[] a = o.s;
        int on = o.n;
        if (a == s && on <= n) {
            return; // the same content, or a prefix of it (a shared array only grows past n when it is copied)
        }
        // find the first entry that grows before writing anything: a join that changes nothing copies nothing
        int[] b = s;
        int common = Math.min(on, n);
        int i = 0;
        while (i < common && b[i] >= a[i]) {
            i++;
        }
        if (i == common) {
            // entries past n are 0 here: only a non-zero one of o's past n changes this view
            while (i < on && a[i] == 0) {
                i++;
            }
            if (i == on) {
                return;
            }
        }
        own(on);
        b = s;
        if (on > n) {
            n = on;
        }
        for (; i < on; i++) {
            if (b[i] < a[i]) {
                b[i] = a[i];
            }
        }
        version++;
    }

    /** This := {@code o}. */
    void assign(View o) {
        if (o == this) {
            return;
        }
        s = o.s;
        n = o.n;
        shared = true;
        o.shared = true;
        version++;
    }

    /** Every location back at its initial value. */
    void clear() {
        if (shared) {
            s = new int[4];
            shared = false;
        } else {
            Arrays.fill(s, 0, n, 0);
        }
        n = 0;
        version++;
    }

    /** A copy of this view (sharing its array until one of them changes). */
    View duplicate() {
        shared = true;
        return new View(s, n, version, true);
    }

    /**
     * Makes {@code s} this view's own array, with room for {@code size} entries: a shared one is copied (every holder
     * of an array has the same n, since none changes it in place), an own one grown when too small.
     */
    private void own(int size) {
        if (shared) {
            int[] c = new int[Math.max(Math.max(size, n), 4)];
            System.arraycopy(s, 0, c, 0, n);
            s = c;
            shared = false;
        } else if (size > s.length) {
            s = Arrays.copyOf(s, Math.max(size, s.length * 2));
        }
    }

    @Override
    public String toString() {
        return Arrays.toString(Arrays.copyOf(s, n));
    }
}
