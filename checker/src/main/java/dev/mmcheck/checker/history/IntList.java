package dev.mmcheck.checker.history;

import java.util.Arrays;

/** A growable list of ints. */
final class IntList {

    private int[] a;
    private int size;

    IntList() {
        this(8);
    }

    IntList(int capacity) {
        a = new int[Math.max(1, capacity)];
    }

    void add(int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, size * 2);
        }
        a[size++] = v;
    }

    int get(int i) {
        return a[i];
    }

    void set(int i, int v) {
        a[i] = v;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int removeLast() {
        return a[--size];
    }

    int last() {
        return a[size - 1];
    }

    void truncate(int newSize) {
        size = newSize;
    }

    void clear() {
        size = 0;
    }

    int[] toArray() {
        return Arrays.copyOf(a, size);
    }
}
