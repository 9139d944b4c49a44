package dev.mmcheck.checker.report;

import dev.mmcheck.checker.report.Violation;

/**
 * Distinct violations keyed by (analysis, store site, prev site, access site), in an open-addressing
 * table so that counting a repeat allocates nothing. Checker thread only.
 */
final class ViolationTable {

    private long[] keyHigh = new long[64];
    private long[] keyLow = new long[64];
    private Violation[] values = new Violation[64];
    private int size;

    Violation get(int analysis, int storeSite, int prevSite, int accessSite) {
        long hi = ((long) analysis << 32) | (storeSite & 0xffffffffL);
        long lo = ((long) prevSite << 32) | (accessSite & 0xffffffffL);
        int mask = values.length - 1;
        for (int i = hash(hi, lo) & mask; values[i] != null; i = (i + 1) & mask) {
            if (keyHigh[i] == hi && keyLow[i] == lo) {
                return values[i];
            }
        }
        return null;
    }

    void put(int analysis, int storeSite, int prevSite, int accessSite, Violation v) {
        if (2 * (size + 1) > values.length) {
            rehash();
        }
        long hi = ((long) analysis << 32) | (storeSite & 0xffffffffL);
        long lo = ((long) prevSite << 32) | (accessSite & 0xffffffffL);
        insert(hi, lo, v);
        size++;
    }

    private void insert(long hi, long lo, Violation v) {
        int mask = values.length - 1;
        int i = hash(hi, lo) & mask;
        while (values[i] != null) {
            i = (i + 1) & mask;
        }
        keyHigh[i] = hi;
        keyLow[i] = lo;
        values[i] = v;
    }

    private void rehash() {
        long[] h = keyHigh;
        long[] l = keyLow;
        Violation[] v = values;
        keyHigh = new long[h.length * 2];
        keyLow = new long[h.length * 2];
        values = new Violation[h.length * 2];
        for (int i = 0; i < v.length; i++) {
            if (v[i] != null) {
                insert(h[i], l[i], v[i]);
            }
        }
    }

    private static int hash(long hi, long lo) {
        long x = hi * 0x9E3779B97F4A7C15L ^ lo * 0xC2B2AE3D27D4EB4FL;
        return (int) (x ^ (x >>> 31));
    }
}
