package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.FieldTable;
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

    /** sample=R: which addresses the checker may keep a store to buffered (every access to them logged). */
    static final class Holder {
        volatile long index;
        long plain;
    }

    @Test
    void underSamplingVolatileFieldsAreFullyLoggedOnEveryObject() {
        FieldTable fields = new FieldTable();
        int index = fields.resolve(Holder.class, "index");
        int plain = fields.resolve(Holder.class, "plain");
        long[] unresolved = {0};
        Heap heap = new Heap(fields, () -> unresolved[0]);
        dev.mmcheck.runtime.Sampling.configure(0.01, 9);
        try {
            Holder h;
            do {
                h = new Holder();
            } while (dev.mmcheck.runtime.Sampling.sampled(h));
            assertTrue(heap.fullyLogged(h, index), "a volatile field: synchronization, logged on every object");
            assertTrue(!heap.fullyLogged(h, plain), "a plain field of an unsampled object: its plain accesses are not logged");
            assertTrue(heap.fullyLogged(h, -1), "its monitor");
            unresolved[0] = 1;
            assertTrue(!heap.fullyLogged(h, index), "once an accessor reached a field unknown, the volatile field "
                    + "may have been reached unlogged too");
            unresolved[0] = 0;
            long[] array = new long[4];
            while (dev.mmcheck.runtime.Sampling.sampled(array)) {
                array = new long[4];
            }
            assertTrue(!heap.fullyLogged(array, index), "an element of an unsampled array, whatever its index");
        } finally {
            dev.mmcheck.runtime.Sampling.configure(1, 0);
        }
        assertTrue(heap.fullyLogged(new Holder(), plain), "without sampling everything is logged");
    }

    /**
     * The table against a model, through many objects made and dropped (the tables grow, buckets are rebuilt with
     * cleared references not yet expunged among them, chains hold several objects, ids are reused, arrays take
     * elements in their pages and a monitor beyond their first addresses): while an object lives each of its slots
     * keeps one address id, no two live addresses share one, and each address of a collected object is reported dead
     * once, before its id is given again.
     */
    @Test
    void churnAgainstAModelKeepsEveryAddressExact() throws Exception {
        Churn churn = new Churn(new Heap(new FieldTable()));
        for (int round = 0; round < 6; round++) {
            churn.round(4_000);
            System.gc();
            Thread.sleep(20);
            churn.expunge();
        }
        for (int attempt = 0; attempt < 50 && !churn.dying.isEmpty(); attempt++) {
            System.gc();
            Thread.sleep(20);
            churn.expunge();
        }
        assertEquals(java.util.Set.of(), churn.dying, "every address of a collected object reported dead");
        assertEquals(churn.slotsOf.stream().filter(m -> !m.isEmpty()).count(), churn.heap.objects(), "the live objects seen");
        assertEquals(churn.owner.size(), churn.heap.addresses());
        assertTrue(churn.made > 3_000, "made " + churn.made);
        assertTrue(churn.mostTracked > 1024, "the buckets grew: at most " + churn.mostTracked + " objects tracked");
        for (int k = 0; k < churn.live.size(); k++) {
            for (java.util.Map.Entry<Integer, Integer> e : churn.slotsOf.get(k).entrySet()) {
                assertEquals(e.getValue(), churn.heap.address(churn.live.get(k), e.getKey()), "stable at the end");
            }
        }
    }

    /** The churn of {@link #churnAgainstAModelKeepsEveryAddressExact} and its model; dropped objects are held nowhere. */
    private static final class Churn {
        final java.util.Random random = new java.util.Random(7);
        final Heap heap;
        final List<Object> live = new ArrayList<>();
        final List<java.util.Map<Integer, Integer>> slotsOf = new ArrayList<>(); // by position in live: slot -> id
        final java.util.Map<Integer, String> owner = new java.util.HashMap<>(); // live or not yet reported dead
        final java.util.Set<Integer> dying = new java.util.HashSet<>();
        int made;
        int mostTracked;

        Churn(Heap heap) {
            this.heap = heap;
        }

        /** Makes, uses and drops objects for {@code steps} steps, checking each address against the model. */
        void round(int steps) {
            for (int step = 0; step < steps; step++) {
                if (live.size() < 1_500 && random.nextInt(3) > 0) {
                    int kind = random.nextInt(3);
                    live.add(kind == 0 ? new Object() : kind == 1 ? new long[1 + random.nextInt(3_000)] : new StringBuilder());
                    slotsOf.add(new java.util.HashMap<>());
                    made++;
                }
                if (live.isEmpty()) {
                    continue;
                }
                int k = random.nextInt(live.size());
                int slot = slot(live.get(k));
                int a = heap.address(live.get(k), slot);
                Integer before = slotsOf.get(k).putIfAbsent(slot, a);
                if (before == null) {
                    String who = "object " + System.identityHashCode(live.get(k)) + " slot " + slot;
                    assertEquals(null, owner.put(a, who), "a fresh id for " + who);
                } else {
                    assertEquals(before, a, "stable while the object lives");
                }
                mostTracked = Math.max(mostTracked, heap.objects());
                if (random.nextInt(10) == 0) { // drop one
                    int d = random.nextInt(live.size());
                    dying.addAll(slotsOf.get(d).values());
                    live.set(d, live.get(live.size() - 1));
                    slotsOf.set(d, slotsOf.get(slotsOf.size() - 1));
                    live.remove(live.size() - 1);
                    slotsOf.remove(slotsOf.size() - 1);
                }
            }
        }

        /** A slot of {@code o}: an element or the monitor of an array, or one of 20 fields. */
        private int slot(Object o) {
            if (o instanceof long[] l) {
                int r = random.nextInt(8);
                return r == 0 ? dev.mmcheck.runtime.Probes.MONITOR : r < 5 ? random.nextInt(l.length) : random.nextInt(20);
            }
            return random.nextInt(20);
        }

        /** Takes the collector's dead objects, each address of which must be of a dropped one. */
        void expunge() {
            heap.expunge(a -> {
                assertTrue(dying.remove(a), "address " + a + " reported dead was not of a dropped object");
                owner.remove(a);
            });
        }
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

    @Test
    void arrayElementsAndTheArraysOtherSlotsAreDistinctAndStable() {
        Heap heap = new Heap(new FieldTable());
        long[] big = new long[3000]; // three pages, the last one partly used
        Object[] small = new Object[1];
        java.util.Map<Integer, String> byId = new java.util.HashMap<>();
        for (int i = big.length - 1; i >= 0; i -= 7) {
            assertEquals(null, byId.put(heap.address(big, i), "big " + i));
        }
        assertEquals(null, byId.put(heap.address(small, 0), "small 0"));
        // a monitor on an array is a pseudo-slot, not an element
        assertEquals(null, byId.put(heap.address(big, dev.mmcheck.runtime.Probes.MONITOR), "big monitor"));
        for (int i = big.length - 1; i >= 0; i -= 7) {
            assertEquals("big " + i, byId.get(heap.address(big, i)), "stable");
        }
        assertEquals("small 0", byId.get(heap.address(small, 0)));
        assertEquals("big monitor", byId.get(heap.address(big, dev.mmcheck.runtime.Probes.MONITOR)));
        assertEquals(byId.size(), heap.addresses());
        assertTrue(heap.name(heap.address(big, 2999)).matches("long\\[]#\\d+\\[2999]"), heap.name(heap.address(big, 2999)));
    }

    @Test
    void objectsWithManyFieldsAndInterleavedObjectsKeepExactAddresses() throws Exception {
        FieldTable fields = new FieldTable();
        int[] ids = new int[20]; // more fields than an object's inline slots
        for (int f = 0; f < ids.length; f++) {
            ids[f] = fields.id("com.x.Wide", "f" + f);
        }
        Heap heap = new Heap(fields);
        Object a = new Object();
        Object b = new Object();
        Object c = new Object();
        java.util.Map<Integer, String> byId = new java.util.HashMap<>();
        // three objects in turn (the two most recent ones are remembered, the third is looked up)
        for (int f = 0; f < ids.length; f++) {
            for (Object[] o : new Object[][] {{a, "a"}, {b, "b"}, {c, "c"}}) {
                String name = o[1] + "." + f;
                Integer id = heap.address(o[0], ids[f]);
                assertEquals(null, byId.put(id, name), "a fresh id for " + name);
            }
        }
        for (int f = ids.length - 1; f >= 0; f--) {
            assertEquals("c." + f, byId.get(heap.address(c, ids[f])));
            assertEquals("a." + f, byId.get(heap.address(a, ids[f])));
            assertEquals("b." + f, byId.get(heap.address(b, ids[f])));
        }
        assertEquals(60, heap.addresses());
        int[] array = new int[100];
        for (int i = 0; i < 10; i++) {
            heap.address(array, i);
        }
        int monitor = heap.address(array, dev.mmcheck.runtime.Probes.MONITOR);
        assertEquals(monitor, heap.address(array, dev.mmcheck.runtime.Probes.MONITOR));
        assertEquals(71, heap.addresses());
    }

    @Test
    void aCollectedWideObjectReleasesEveryAddress() throws Exception {
        Heap heap = new Heap(new FieldTable());
        int count = wideAddresses(heap);
        List<Integer> dead = new ArrayList<>();
        for (int attempt = 0; attempt < 50 && dead.size() < count; attempt++) {
            System.gc();
            Thread.sleep(20);
            heap.expunge(dead::add);
        }
        assertEquals(count, new java.util.HashSet<>(dead).size());
        assertEquals(0, heap.addresses());
        assertEquals(0, heap.objects());
    }

    private static int wideAddresses(Heap heap) {
        Object o = new Object(); // garbage as soon as this returns
        for (int f = 0; f < 20; f++) {
            heap.address(o, f);
        }
        return 20;
    }

    @Test
    void aCollectedArrayReleasesItsElementsAndMonitor() throws Exception {
        Heap heap = new Heap(new FieldTable());
        int[] ids = arrayAddresses(heap);
        List<Integer> dead = new ArrayList<>();
        for (int attempt = 0; attempt < 50 && dead.size() < ids.length; attempt++) {
            System.gc();
            Thread.sleep(20);
            heap.expunge(dead::add);
        }
        java.util.Collections.sort(dead);
        java.util.Arrays.sort(ids);
        assertEquals(java.util.Arrays.stream(ids).boxed().toList(), dead);
        assertEquals(0, heap.addresses());
        assertEquals(0, heap.objects());
    }

    private static int[] arrayAddresses(Heap heap) {
        int[] array = new int[2048]; // garbage as soon as this returns
        return new int[] {heap.address(array, 0), heap.address(array, 1500), heap.address(array, 2047),
            heap.address(array, dev.mmcheck.runtime.Probes.MONITOR)};
    }

    private static int address(Heap heap) {
        return heap.address(new Object(), 7); // the object is garbage as soon as this returns
    }

    /**
     * Naming is total: addresses of every kind (fields known and unknown, elements of arrays and of
     * atomic arrays at indices beyond the number of known fields, pseudo-slots, statics, unresolved
     * accessors, ids never given or already freed) get a name and never an exception. The checker
     * thread died on an AtomicReferenceArray element named as a field (field#NNNN) before.
     */
    @Test
    void namingRandomAddressesOfEveryKindNeverFails() {
        FieldTable fields = new FieldTable();
        int known = fields.id("com.x.Node", "next");
        Heap heap = new Heap(fields);
        java.util.Random random = new java.util.Random(20261126);
        List<Object> keep = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            int kind = random.nextInt(12);
            int index = random.nextInt(5000);
            Object o;
            int slot;
            switch (kind) {
                case 0 -> { o = new Object(); slot = known; }
                case 1 -> { o = new Object(); slot = 10_000 + random.nextInt(100_000); } // no such field id
                case 2 -> { o = new int[5000]; slot = index; }
                case 3 -> { o = new Object[5000]; slot = index; }
                case 4 -> { o = new java.util.concurrent.atomic.AtomicReferenceArray<>(5000); slot = index; }
                case 5 -> { o = new java.util.concurrent.atomic.AtomicIntegerArray(5000); slot = index; }
                case 6 -> { o = new java.util.concurrent.atomic.AtomicLongArray(5000); slot = index; }
                case 7 -> { o = new java.util.concurrent.atomic.AtomicReference<>(); slot = dev.mmcheck.runtime.Probes.VALUE; }
                case 8 -> { o = new Object(); slot = dev.mmcheck.runtime.Probes.MONITOR; }
                case 9 -> { o = new Thread(() -> { }); slot = dev.mmcheck.runtime.Probes.START; }
                case 10 -> { o = new Object(); slot = dev.mmcheck.runtime.Probes.UNRESOLVED - random.nextInt(1 << 16); }
                default -> { o = new Object(); slot = -5 - random.nextInt(100); } // a pseudo-slot nobody defined
            }
            keep.add(o);
            int a = heap.address(o, slot);
            ids.add(a);
            String name = heap.name(a);
            if (kind == 1) {
                // a field id no table gave: named by its number, on the object's type and id
                assertTrue(name != null && name.matches("Object#\\d+\\.field#" + slot), kind + ": " + name);
            } else {
                assertTrue(name != null && !name.isEmpty() && !name.contains("field#"), kind + ": " + name);
            }
            if (kind >= 4 && kind <= 6) {
                assertTrue(name.matches("Atomic(Reference|Integer|Long)Array#\\d+\\[" + index + "]"), name);
            }
        }
        for (int i = 0; i < 1000; i++) {
            int id = random.nextInt(1 << 20) - 1000; // negative, unused and in-use ids alike
            assertTrue(!heap.name(id).isEmpty());
        }
        assertEquals(ids.size(), new java.util.HashSet<>(ids).size(), "no two addresses share an id");
    }
}
