package dev.mmcheck.checker.result;

/**
 * Distinct violations keyed by (analysis, store site, prev site, access site, store shape, access shape: what
 * the store and the access reached, objects left out), in an open-addressing table so that counting a repeat
 * allocates nothing. Checker thread only.
 */
final class ViolationTable {

    private static final int WORDS = 4;

    private long[] keys = new long[64 * WORDS];
    private Violation[] values = new Violation[64];
    private int size;

    Violation get(int analysis, int storeSite, int prevSite, int accessSite, long storeShape, long accessShape) {
        long k0 = ((long) analysis << 32) | (storeSite & 0xffffffffL);
        long k1 = ((long) prevSite << 32) | (accessSite & 0xffffffffL);
        int mask = values.length - 1;
        for (int i = hash(k0, k1, storeShape, accessShape) & mask; values[i] != null; i = (i + 1) & mask) {
            int at = i * WORDS;
            if (keys[at] == k0 && keys[at + 1] == k1 && keys[at + 2] == storeShape && keys[at + 3] == accessShape) {
                return values[i];
            }
        }
        return null;
    }

    void put(int analysis, int storeSite, int prevSite, int accessSite, long storeShape, long accessShape,
            Violation v) {
        if (2 * (size + 1) > values.length) {
            rehash();
        }
        long k0 = ((long) analysis << 32) | (storeSite & 0xffffffffL);
        long k1 = ((long) prevSite << 32) | (accessSite & 0xffffffffL);
        insert(k0, k1, storeShape, accessShape, v);
        size++;
    }

    private void insert(long k0, long k1, long k2, long k3, Violation v) {
        int mask = values.length - 1;
        int i = hash(k0, k1, k2, k3) & mask;
        while (values[i] != null) {
            i = (i + 1) & mask;
        }
        int at = i * WORDS;
        keys[at] = k0;
        keys[at + 1] = k1;
        keys[at + 2] = k2;
        keys[at + 3] = k3;
        values[i] = v;
    }

    private void rehash() {
        long[] k = keys;
        Violation[] v = values;
        keys = new long[k.length * 2];
        values = new Violation[v.length * 2];
        for (int i = 0; i < v.length; i++) {
            if (v[i] != null) {
                int at = i * WORDS;
                insert(k[at], k[at + 1], k[at + 2], k[at + 3], v[i]);
            }
        }
    }

    private static int hash(long k0, long k1, long k2, long k3) {
        long x = k0 * 0x9E3779B97F4A7C15L ^ k1 * 0xC2B2AE3D27D4EB4FL ^ k2 * 0x165667B19E3779F9L
                ^ k3 * 0xD6E8FEB86659FD93L;
        return (int) (x ^ (x >>> 31));
    }
}
