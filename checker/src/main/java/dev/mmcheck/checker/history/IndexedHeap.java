package dev.mmcheck.checker.history;

import java.util.Arrays;

/** A min-heap of variables keyed by their best ready candidate, with keys that can change. */
final class IndexedHeap {

    private final int[] heap;
    private final int[] at;
    private final long[] key;
    private int size;

    IndexedHeap(int n) {
        heap = new int[n];
        at = new int[n];
        key = new long[n];
        Arrays.fill(at, -1);
    }

    /** The variable with the least key, or -1 when empty. */
    int min() {
        return size == 0 ? -1 : heap[0];
    }

    /** Sets the key of {@code v}; {@link Long#MAX_VALUE} takes it off the heap. */
    void set(int v, long k) {
        if (k == Long.MAX_VALUE) {
            if (at[v] >= 0) {
                int i = at[v];
                int lastV = heap[--size];
                at[v] = -1;
                if (i < size) {
                    heap[i] = lastV;
                    at[lastV] = i;
                    down(i);
                    up(i);
                }
            }
            return;
        }
        key[v] = k;
        if (at[v] < 0) {
            heap[size] = v;
            at[v] = size;
            up(size++);
        } else {
            up(at[v]);
            down(at[v]);
        }
    }

    private boolean less(int a, int b) {
        return key[a] < key[b] || (key[a] == key[b] && a < b);
    }

    private void up(int i) {
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!less(heap[i], heap[p])) {
                return;
            }
            swap(i, p);
            i = p;
        }
    }

    private void down(int i) {
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                return;
            }
            if (c + 1 < size && less(heap[c + 1], heap[c])) {
                c++;
            }
            if (!less(heap[c], heap[i])) {
                return;
            }
            swap(i, c);
            i = c;
        }
    }

    private void swap(int i, int j) {
        int a = heap[i];
        heap[i] = heap[j];
        heap[j] = a;
        at[heap[i]] = i;
        at[heap[j]] = j;
    }
}
