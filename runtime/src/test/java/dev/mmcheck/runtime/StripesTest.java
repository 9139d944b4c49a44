package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where addresses go: one stripe per address always; an array's elements in order, four to a stripe. */
class StripesTest {

    @Test
    void anAddressAlwaysHasTheSameStripe() {
        Object o = new Object();
        long[] a = new long[100];
        for (int slot = -4; slot < 100; slot++) {
            assertEquals(Stripes.of(o, slot), Stripes.of(o, slot));
            assertEquals(Stripes.of(a, slot), Stripes.of(a, slot));
            assertTrue(Stripes.of(a, slot) >= 0 && Stripes.of(a, slot) < Stripes.COUNT);
        }
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
}
