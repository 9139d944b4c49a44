package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where addresses go: one stripe per address always; an array's elements in order, four to a stripe. */
class StripesTest {

    /**
     * An address keeps its stripe for its whole life, whatever the collector does to its object: the
     * stripes of many addresses, taken again after collections that move objects, are the same, and in
     * range.
     */
    @Test
    void anAddressKeepsItsStripeWhenTheCollectorMovesItsObject() {
        int n = 20_000;
        Object[] objects = new Object[n];
        int[] fieldStripes = new int[n];
        int[] elementStripes = new int[n];
        for (int i = 0; i < n; i++) {
            objects[i] = (i & 1) == 0 ? new Object() : new long[8];
            fieldStripes[i] = Stripes.of(objects[i], i % 7 - 4); // fields and pseudo-fields
            elementStripes[i] = Stripes.of(objects[i], i % 8);
        }
        for (int round = 0; round < 3; round++) {
            List<byte[]> garbage = new ArrayList<>();
            for (int k = 0; k < 2_000; k++) {
                garbage.add(new byte[1024]);
            }
            garbage.clear();
            System.gc();
        }
        for (int i = 0; i < n; i++) {
            assertEquals(fieldStripes[i], Stripes.of(objects[i], i % 7 - 4), "object " + i);
            assertEquals(elementStripes[i], Stripes.of(objects[i], i % 8), "element of " + i);
            assertTrue(fieldStripes[i] >= 0 && fieldStripes[i] < Stripes.COUNT);
        }
        Set<Integer> used = new HashSet<>();
        for (int s : fieldStripes) {
            used.add(s);
        }
        assertTrue(used.size() > n / 4, "addresses spread over the stripes: " + used.size() + " used by " + n);
    }

    @Test
    void anArraysElementsGoFourToAStripeOnConsecutiveStripes() {
        double[] a = new double[1 << 12];
        int first = Stripes.of(a, 0);
        for (int i = 0; i < a.length; i++) {
            assertEquals((first + i / 4) & (Stripes.COUNT - 1), Stripes.of(a, i), "element " + i);
        }
        // the four elements that share a stripe have four different entries in the repeat cache, and a
        // stretch of CACHE elements fills the whole cache
        Set<Integer> entries = new HashSet<>();
        for (int i = 0; i < ThreadLog.CACHE; i++) {
            entries.add(ThreadLog.cacheIndex(Stripes.of(a, i), i));
        }
        assertEquals(ThreadLog.CACHE, entries.size());
    }

    @Test
    void theFieldsOfAnObjectAreSpreadByHash() {
        Object o = new Object();
        Set<Integer> stripes = new HashSet<>();
        for (int field = 0; field < 64; field++) {
            stripes.add(Stripes.of(o, field));
        }
        assertTrue(stripes.size() > 48, "64 fields of one object on " + stripes.size() + " stripes");
    }

    /**
     * Each stripe's last object has a place of its own (the places are a permutation), neighbouring stripes' places are
     * a cache line apart, and what one stripe records is what it answers, whatever the others record.
     */
    @Test
    void everyStripeRemembersItsOwnLastObjectInAPlaceOfItsOwn() {
        boolean[] taken = new boolean[Stripes.COUNT];
        for (int s = 0; s < Stripes.COUNT; s++) {
            int at = Stripes.lastIndex(s);
            assertTrue(at >= 0 && at < Stripes.COUNT && !taken[at], "stripe " + s + " at " + at);
            taken[at] = true;
            if (s > 0) {
                assertTrue(Math.abs(at - Stripes.lastIndex(s - 1)) >= 16, "stripes " + (s - 1) + " and " + s);
            }
        }
        Object[] objects = new Object[Stripes.COUNT];
        for (int s = 0; s < Stripes.COUNT; s++) {
            objects[s] = new Object();
            Stripes.lock(s);
            Stripes.last(s, 7, objects[s], s & 3, 0);
            Stripes.unlock(s);
        }
        for (int s = 0; s < Stripes.COUNT; s++) {
            Stripes.lock(s);
            assertTrue(Stripes.lastWas(s, 7, objects[s], s & 3), "stripe " + s);
            assertTrue(!Stripes.lastWas(s, 7, objects[(s + 1) % Stripes.COUNT], s & 3), "another stripe's object");
            assertTrue(!Stripes.lastWas(s, 8, objects[s], s & 3), "another thread");
            Stripes.last(s, -1, null, 0, 0); // back to "none" (mark -1 is stored as 0): nothing left for the other tests
            Stripes.unlock(s);
        }
    }
}
