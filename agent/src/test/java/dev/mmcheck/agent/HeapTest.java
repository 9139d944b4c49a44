package dev.mmcheck.agent;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Exact identities: one address per (object, slot), never confused, released when the object dies. */
class HeapTest {

    @Test
    void addressesAreExactPerObjectAndSlot() {
        FieldTable fields = new FieldTable();
        int next = fields.id("com.x.Node", "next");
        int value = fields.id("com.x.Node", "value");
        Heap heap = new Heap(fields);
        List<Object> objects = new ArrayList<>();
        List<Integer> seen = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            Object o = new Object();
            objects.add(o);
            seen.add(heap.address(o, next));
            seen.add(heap.address(o, value));
        }
        assertEquals(seen.size(), new java.util.HashSet<>(seen).size(), "no two addresses share an id");
        for (int i = 0; i < objects.size(); i++) {
            assertEquals(seen.get(2 * i), heap.address(objects.get(i), next), "stable");
            assertEquals(seen.get(2 * i + 1), heap.address(objects.get(i), value));
        }
        int[] array = new int[4];
        assertNotEquals(heap.address(array, 1), heap.address(array, 2));
        assertTrue(heap.name(heap.address(array, 2)).matches("int\\[]#\\d+\\[2]"), heap.name(heap.address(array, 2)));
        assertTrue(heap.name(seen.get(0)).matches("Node#\\d+\\.next"), heap.name(seen.get(0)));
    }

    @Test
    void collectedObjectsReleaseTheirAddresses() throws Exception {
        Heap heap = new Heap(new FieldTable());
        List<Integer> dead = new ArrayList<>();
        int a = address(heap);
        for (int attempt = 0; attempt < 50 && dead.isEmpty(); attempt++) {
            System.gc();
            Thread.sleep(20);
            heap.expunge(dead::add);
        }
        assertEquals(List.of(a), dead, "the object's one address is reported dead");
        assertEquals(0, heap.objects());
        assertEquals(a, address(heap), "and its id is reused");
    }

    private static int address(Heap heap) {
        return heap.address(new Object(), 7); // the object is garbage as soon as this returns
    }
}
