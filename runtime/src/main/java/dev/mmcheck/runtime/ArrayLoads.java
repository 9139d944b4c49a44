package dev.mmcheck.runtime;

import java.lang.invoke.VarHandle;

/**
 * Primitive array element loads, which the probe performs itself (the rewriter replaces IALOAD and its
 * kin by {@code Probes.loadElement*}): a load that repeats the thread's last access to the element, with
 * no write since, takes no stripe at all (a seqlock-style optimistic read, validated afterwards); any
 * other takes the stripe and is logged. Called by {@link Probes} on the application thread.
 */
final class ArrayLoads {

    private ArrayLoads() {
    }


    /**
     * Whether a load of {@code a[i]} (stripe {@code s}) repeats this thread's last access to it with no
     * write to the stripe since and nothing logged by the thread since but repeated loads (its knowledge
     * count unmoved: StripeProtocol.write), judged without taking the stripe (a seqlock-style optimistic read, as
     * StampedLock's): the caller loads, then {@link #validated} confirms that no write began or ended
     * meanwhile. Every logged access ends with a full fence (Stripes.unlock), so this thread's earlier
     * accesses are visible before the optimistic load, and the run stays sequentially consistent.
     */
    static boolean optimistic(ThreadLog t, Object a, int i, int s) {
        int c = ThreadLog.cacheIndex(s, i);
        if (EventLog.everyLoad || t.held >= 0 || Solo.epoch != t.seenEpoch || t.cacheStripe[c] != s
                || t.cacheObject[c] != a || t.cacheSlot[c] != i || t.cacheKnowledge[c] != t.knowledge) {
            return false;
        }
        int w = Stripes.writesAcquire(s);
        if (w != t.cacheWrites[c] || Stripes.locked(s)) {
            return false;
        }
        t.optimisticWrites = w;
        return true;
    }

    /** Whether the optimistic load just made saw no write begin or end meanwhile. */
    static boolean validated(ThreadLog t, int s) {
        VarHandle.loadLoadFence();
        if (Stripes.writesAcquire(s) == t.optimisticWrites && !Stripes.locked(s)) {
            t.elided++;
            return true;
        }
        return false;
    }


    /** Replaces IALOAD: loads {@code a[i]}, logging it unless it repeats the thread's last access. */
    static int loadI(int[] a, int i, ThreadLog t, int site) {
        if (a == null || i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
            return a[i]; // throws, or runs unlogged
        }
        if (Solo.open(t)) { // a solo period leaves it out
            int v = a[i];
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            Solo.close(t);
            return v;
        }
        int s = Stripes.of(a, i);
        if (optimistic(t, a, i, s)) {
            int v = a[i];
            if (validated(t, s)) {
                return v;
            }
        }
        StripeProtocol.take(t, a, i);
        int v = a[i];
        StripeProtocol.logValue(t, Kinds.LOAD, site, v);
        StripeProtocol.unlock(t);
        return v;
    }

    /** Replaces LALOAD. */
    static long loadJ(long[] a, int i, ThreadLog t, int site) {
        if (a == null || i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
            return a[i];
        }
        if (Solo.open(t)) { // a solo period leaves it out
            long v = a[i];
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            Solo.close(t);
            return v;
        }
        int s = Stripes.of(a, i);
        if (optimistic(t, a, i, s)) {
            long v = a[i];
            if (validated(t, s)) {
                return v;
            }
        }
        StripeProtocol.take(t, a, i);
        long v = a[i];
        StripeProtocol.logValue(t, Kinds.LOAD, site, v);
        StripeProtocol.unlock(t);
        return v;
    }

    /** Replaces FALOAD. */
    static float loadF(float[] a, int i, ThreadLog t, int site) {
        if (a == null || i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
            return a[i];
        }
        if (Solo.open(t)) { // a solo period leaves it out
            float v = a[i];
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            Solo.close(t);
            return v;
        }
        int s = Stripes.of(a, i);
        if (optimistic(t, a, i, s)) {
            float v = a[i];
            if (validated(t, s)) {
                return v;
            }
        }
        StripeProtocol.take(t, a, i);
        float v = a[i];
        StripeProtocol.logValue(t, Kinds.LOAD, site, Float.floatToRawIntBits(v));
        StripeProtocol.unlock(t);
        return v;
    }

    /** Replaces DALOAD. */
    static double loadD(double[] a, int i, ThreadLog t, int site) {
        if (a == null || i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
            return a[i];
        }
        if (Solo.open(t)) { // a solo period leaves it out
            double v = a[i];
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            Solo.close(t);
            return v;
        }
        int s = Stripes.of(a, i);
        if (optimistic(t, a, i, s)) {
            double v = a[i];
            if (validated(t, s)) {
                return v;
            }
        }
        StripeProtocol.take(t, a, i);
        double v = a[i];
        StripeProtocol.logValue(t, Kinds.LOAD, site, Double.doubleToRawLongBits(v));
        StripeProtocol.unlock(t);
        return v;
    }

    /** Replaces CALOAD. */
    static int loadC(char[] a, int i, ThreadLog t, int site) {
        if (a == null || i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
            return a[i];
        }
        if (Solo.open(t)) { // a solo period leaves it out
            char v = a[i];
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            Solo.close(t);
            return v;
        }
        int s = Stripes.of(a, i);
        if (optimistic(t, a, i, s)) {
            char v = a[i];
            if (validated(t, s)) {
                return v;
            }
        }
        StripeProtocol.take(t, a, i);
        char v = a[i];
        StripeProtocol.logValue(t, Kinds.LOAD, site, v);
        StripeProtocol.unlock(t);
        return v;
    }

    /** Replaces SALOAD. */
    static int loadS(short[] a, int i, ThreadLog t, int site) {
        if (a == null || i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
            return a[i];
        }
        if (Solo.open(t)) { // a solo period leaves it out
            short v = a[i];
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            Solo.close(t);
            return v;
        }
        int s = Stripes.of(a, i);
        if (optimistic(t, a, i, s)) {
            short v = a[i];
            if (validated(t, s)) {
                return v;
            }
        }
        StripeProtocol.take(t, a, i);
        short v = a[i];
        StripeProtocol.logValue(t, Kinds.LOAD, site, v);
        StripeProtocol.unlock(t);
        return v;
    }

    /** Replaces BALOAD, on a byte[] or a boolean[] (which BALOAD also reads). */
    static int loadB(Object array, int i, ThreadLog t, int site) {
        if (array instanceof boolean[]) {
            boolean[] a = (boolean[]) array;
            if (i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
                return a[i] ? 1 : 0;
            }
            if (Solo.open(t)) { // a solo period leaves it out
                boolean v = a[i];
                Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
                Solo.close(t);
                return v ? 1 : 0;
            }
            int s = Stripes.of(a, i);
            if (optimistic(t, a, i, s)) {
                boolean v = a[i];
                if (validated(t, s)) {
                    return v ? 1 : 0;
                }
            }
            StripeProtocol.take(t, a, i);
            int v = a[i] ? 1 : 0;
            StripeProtocol.logValue(t, Kinds.LOAD, site, v);
            StripeProtocol.unlock(t);
            return v;
        }
        byte[] a = (byte[]) array;
        if (a == null || i < 0 || i >= a.length || StripeProtocol.off(t, a)) {
            return a[i];
        }
        if (Solo.open(t)) { // a solo period leaves it out
            byte v = a[i];
            Solo.recordAccess(t, Kinds.LOAD, a, i, site); // into the hand-over ring, if it keeps loads now
            Solo.close(t);
            return v;
        }
        int s = Stripes.of(a, i);
        if (optimistic(t, a, i, s)) {
            byte v = a[i];
            if (validated(t, s)) {
                return v;
            }
        }
        StripeProtocol.take(t, a, i);
        byte v = a[i];
        StripeProtocol.logValue(t, Kinds.LOAD, site, v);
        StripeProtocol.unlock(t);
        return v;
    }
}
