package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.runtime.Sampling;
import dev.mmcheck.runtime.Probes;
import dev.mmcheck.runtime.StaticOwners;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;

/**
 * Exact identities for the checker: objects (by identity, through weak references, so that nothing
 * is kept alive) get dense ids, and each (object, slot) pair a dense address id. When an object is
 * collected, its addresses are reported dead and their ids reused. Checker thread only.
 */
public final class Heap {

    /** An object the checker has seen: a weak reference carrying its id and its addresses. */
    private static final class Ref extends WeakReference<Object> {
        final int id;
        final int hash;
        final String type;
        /** For an array: its elements' address ids + 1 (0 none yet), in pages allocated on first use. */
        final int[][] pages;
        /** Its first two addresses' slots and ids, in the record itself (most objects have one or two). */
        int slot0;
        int address0;
        int slot1;
        int address1;
        /** Its later addresses, in pairs (slot, id), allocated at the third. */
        int[] more;
        /** How many addresses it has: the k-th first used is {@link #slotAt}(k), {@link #addressAt}(k). */
        int count;
        Ref next;

        Ref(Object o, int id, int hash, ReferenceQueue<Object> queue, String type) {
            super(o, queue);
            this.id = id;
            this.hash = hash;
            this.type = type;
            int length = length(o);
            this.pages = length >= 0 ? new int[(length + PAGE - 1) >>> PAGE_BITS][] : null;
        }

        /** The slot of its {@code k}-th address. */
        int slotAt(int k) {
            return k == 0 ? slot0 : k == 1 ? slot1 : more[2 * (k - 2)];
        }

        /** The id of its {@code k}-th address. */
        int addressAt(int k) {
            return k == 0 ? address0 : k == 1 ? address1 : more[2 * (k - 2) + 1];
        }

        /** Records its next address: slot {@code slot}, id {@code a}. */
        void add(int slot, int a) {
            int k = count++;
            if (k == 0) {
                slot0 = slot;
                address0 = a;
            } else if (k == 1) {
                slot1 = slot;
                address1 = a;
            } else {
                int at = 2 * (k - 2);
                if (more == null) {
                    more = new int[4];
                } else if (at == more.length) {
                    more = Arrays.copyOf(more, more.length * 2);
                }
                more[at] = slot;
                more[at + 1] = a;
            }
        }
    }

    private static final int PAGE_BITS = 10;
    /** Elements per page of an array's address table. */
    private static final int PAGE = 1 << PAGE_BITS;

    /**
     * An object's first INLINE addresses other than array elements are found by scanning its own
     * slots (an object has few fields, and its record is already at hand); later ones in the table.
     */
    private static final int INLINE = 8;

    private static final long EMPTY = Long.MIN_VALUE;

    private final FieldTable fields;
    // replaced when everything is forgotten: the old generation's references enqueue where nobody looks
    private ReferenceQueue<Object> queue = new ReferenceQueue<>();
    private Ref[] buckets = new Ref[1024];
    private int objects;
    private int[] freeObjectIds = new int[16];
    private int freeObjects;
    private int nextObjectId;

    // (object id, slot) -> address id, open addressing
    private long[] keys = new long[1024];
    private int[] values = new int[1024];
    private int size;
    // array elements with an address id (in their arrays' pages, not in the table)
    private int elements;
    // addresses found by scanning their object's first INLINE slots (not in the table)
    private int inline;
    // by address id
    private long[] keyOf = new long[256];
    private String[] typeOf = new String[256];
    private boolean[] indexed = new boolean[256];  // an element of an array or atomic array
    private int[] freeAddresses = new int[16];
    private int freeCount;
    private int nextAddress;

    /**
     * Whether every access to address ({@code object}, {@code slot}) is logged under {@code sample=R}:
     * what {@link Sampling#fullyLogged} says, and also a volatile field of an unsampled object, whose
     * accesses are all synchronization (a release store to it, JCTools' {@code soProducerIndex}, may then
     * stay buffered and be checked). Checker thread.
     */
    boolean fullyLogged(Object object, int slot) {
        // not once an accessor went unresolved: which field it reached, unlogged, is not known
        return Sampling.fullyLogged(object, slot) || (slot >= 0 && !object.getClass().isArray() && fields.isVolatile(slot)
                && unresolvedAccesses.getAsLong() == 0);
    }

    /** Accesses through accessors whose field is not known: the volatile-field rule is off once there are any. */
    private final java.util.function.LongSupplier unresolvedAccesses;

    /** A heap whose volatile-field rule yields to the runtime's count of unresolved or unlogged accessor accesses. */
    public Heap(FieldTable fields) {
        this(fields, () -> dev.mmcheck.runtime.Targets.unresolved() + dev.mmcheck.runtime.Targets.unloggedHandles());
    }

    /** A heap whose volatile-field rule yields once {@code unresolvedAccesses} counts any (for tests). */
    Heap(FieldTable fields, java.util.function.LongSupplier unresolvedAccesses) {
        this.fields = fields;
        this.unresolvedAccesses = unresolvedAccesses;
        Arrays.fill(keys, EMPTY);
    }

    /**
     * Forgets every object and address id, as if all had died at once (the checker has forgotten all
     * history, at its memory bound): ids start again from 0, and objects seen again get fresh ones.
     * No dead address is reported for what is forgotten here.
     */
    void forgetAll() {
        queue = new ReferenceQueue<>();
        buckets = new Ref[1024];
        objects = 0;
        freeObjectIds = new int[16];
        freeObjects = 0;
        nextObjectId = 0;
        keys = new long[1024];
        Arrays.fill(keys, EMPTY);
        values = new int[1024];
        size = 0;
        elements = 0;
        inline = 0;
        keyOf = new long[256];
        typeOf = new String[256];
        indexed = new boolean[256];
        freeAddresses = new int[16];
        freeCount = 0;
        nextAddress = 0;
        lastRef = null;
        prevRef = null;
    }

    /** Bytes this table holds per address id in use, roughly (the object's record, the id's entries). */
    static final int BYTES_PER_ADDRESS = 96;

    /** The largest address id handed out so far, plus one (ids below it may be free). */
    int addressIdBound() {
        return nextAddress;
    }

    /**
     * The address id of slot {@code slot} of {@code o}. Array elements are found by index in the array's
     * own pages (no hashing: a loop over a large array would otherwise miss the caches on every event);
     * fields and pseudo-slots (monitor, start) among the object's first slots, then in the hash table.
     */
    int address(Object o, int slot) {
        Ref r = ref(o);
        if (inPages(r, slot)) {
            int[][] pages = r.pages;
            int[] page = pages[slot >>> PAGE_BITS];
            if (page == null) {
                page = new int[PAGE];
                pages[slot >>> PAGE_BITS] = page;
            }
            int a = page[slot & (PAGE - 1)] - 1;
            if (a < 0) {
                a = newAddress(r, slot);
                page[slot & (PAGE - 1)] = a + 1;
                elements++;
            }
            return a;
        }
        int n = r.count;
        if (n > 0 && r.slot0 == slot) {
            return r.address0;
        }
        if (n > 1 && r.slot1 == slot) {
            return r.address1;
        }
        int[] more = r.more;
        for (int k = 0, m = 2 * (Math.min(n, INLINE) - 2); k < m; k += 2) {
            if (more[k] == slot) {
                return more[k + 1];
            }
        }
        if (r.count < INLINE) {
            inline++;
            return newAddress(r, slot);
        }
        long key = ((long) r.id << 32) | (slot & 0xffffffffL);
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        int a = newAddress(r, slot);
        keys[i] = key;
        values[i] = a;
        if (2 * ++size > keys.length) {
            rehash(keys.length * 2);
        }
        return a;
    }

    /**
     * The number of elements of an object whose slots are element indices (an array, or an
     * Atomic{Integer,Long,Reference}Array, whose elements the probes address by index), or -1.
     */
    static int length(Object o) {
        if (o.getClass().isArray()) {
            return Array.getLength(o);
        }
        if (o instanceof AtomicReferenceArray<?> a) {
            return a.length();
        }
        if (o instanceof AtomicIntegerArray a) {
            return a.length();
        }
        if (o instanceof AtomicLongArray a) {
            return a.length();
        }
        return -1;
    }

    /** Whether slot {@code slot} of {@code r}'s object has its address id in the object's pages. */
    private static boolean inPages(Ref r, int slot) {
        return r.pages != null && slot >= 0 && (slot >>> PAGE_BITS) < r.pages.length;
    }

    /** A fresh address id for slot {@code slot} of {@code r}'s object, recorded as one of its addresses. */
    private int newAddress(Ref r, int slot) {
        long key = ((long) r.id << 32) | (slot & 0xffffffffL);
        int a = freeCount > 0 ? freeAddresses[--freeCount] : nextAddress++;
        if (a >= keyOf.length) {
            keyOf = Arrays.copyOf(keyOf, a * 2);
            typeOf = Arrays.copyOf(typeOf, a * 2);
            indexed = Arrays.copyOf(indexed, a * 2);
        }
        keyOf[a] = key;
        typeOf[a] = r.type;
        indexed[a] = r.pages != null;
        r.add(slot, a);
        return a;
    }

    // the two objects used last: consecutive events on one object are common (a node's fields, a
    // lock), and so are events alternating between two (a queue and its node, two arrays)
    private Ref lastRef;
    private Ref prevRef;
    private final java.util.Map<Class<?>, String> typeNames = new java.util.HashMap<>();

    private Ref ref(Object o) {
        Ref last = lastRef;
        if (last != null && last.refersTo(o)) {
            return last;
        }
        Ref prev = prevRef;
        Ref r = prev != null && prev.refersTo(o) ? prev : lookup(o);
        prevRef = last;
        lastRef = r;
        return r;
    }

    private Ref lookup(Object o) {
        int h = System.identityHashCode(o);
        int b = h & (buckets.length - 1);
        for (Ref r = buckets[b]; r != null; r = r.next) {
            if (r.refersTo(o)) {
                return r;
            }
        }
        int id = freeObjects > 0 ? freeObjectIds[--freeObjects] : nextObjectId++;
        Ref r = new Ref(o, id, h, queue, typeName(o));
        r.next = buckets[b];
        buckets[b] = r;
        if (++objects > buckets.length) {
            grow();
        }
        return r;
    }

    private void grow() {
        Ref[] old = buckets;
        buckets = new Ref[old.length * 2];
        for (Ref head : old) {
            for (Ref r = head; r != null;) {
                Ref n = r.next;
                int b = r.hash & (buckets.length - 1);
                r.next = buckets[b];
                buckets[b] = r;
                r = n;
            }
        }
    }

    /** Reports the addresses of every object collected since the last call, and frees their ids. */
    void expunge(IntConsumer deadAddress) {
        Ref r;
        while ((r = (Ref) queue.poll()) != null) {
            for (int k = 0; k < r.count; k++) {
                int a = r.addressAt(k);
                deadAddress.accept(a);
                if (inPages(r, r.slotAt(k))) {
                    elements--; // in the array's pages, which go with it
                } else if (k < INLINE) {
                    inline--; // in the object's own slots
                } else {
                    remove(keyOf[a]);
                }
                typeOf[a] = null;
                if (freeCount == freeAddresses.length) {
                    freeAddresses = Arrays.copyOf(freeAddresses, freeCount * 2);
                }
                freeAddresses[freeCount++] = a;
            }
            unlink(r);
            if (lastRef == r) {
                lastRef = null;
            }
            if (prevRef == r) {
                prevRef = null;
            }
            if (freeObjects == freeObjectIds.length) {
                freeObjectIds = Arrays.copyOf(freeObjectIds, freeObjects * 2);
            }
            freeObjectIds[freeObjects++] = r.id;
        }
    }

    private void unlink(Ref dead) {
        int b = dead.hash & (buckets.length - 1);
        Ref prev = null;
        for (Ref r = buckets[b]; r != null; prev = r, r = r.next) {
            if (r == dead) {
                if (prev == null) {
                    buckets[b] = r.next;
                } else {
                    prev.next = r.next;
                }
                objects--;
                return;
            }
        }
    }

    private void remove(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != key) {
            if (keys[i] == EMPTY) {
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = EMPTY;
        size--;
        // re-insert the rest of the cluster
        for (int j = (i + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            long k = keys[j];
            int v = values[j];
            keys[j] = EMPTY;
            int t = mix(k) & mask;
            while (keys[t] != EMPTY) {
                t = (t + 1) & mask;
            }
            keys[t] = k;
            values[t] = v;
        }
    }

    private void rehash(int capacity) {
        long[] k = keys;
        int[] v = values;
        keys = new long[capacity];
        values = new int[capacity];
        Arrays.fill(keys, EMPTY);
        int mask = capacity - 1;
        for (int i = 0; i < k.length; i++) {
            if (k[i] != EMPTY) {
                int t = mix(k[i]) & mask;
                while (keys[t] != EMPTY) {
                    t = (t + 1) & mask;
                }
                keys[t] = k[i];
                values[t] = v[i];
            }
        }
    }

    private static int mix(long key) {
        long x = key * 0x9E3779B97F4A7C15L;
        return (int) (x ^ (x >>> 29));
    }

    /** Objects currently tracked. */
    int objects() {
        return objects;
    }

    /** Address ids currently in use. */
    int addresses() {
        return size + elements + inline;
    }

    /**
     * A readable name of address {@code a}: {@code Node#3.next}, {@code int[]#7[2]},
     * {@code AtomicReferenceArray#4[5]}, {@code Main.counter}. Total: any id gets a name, never an
     * exception (a report must not fail on a name).
     */
    String name(int a) {
        if (a < 0 || a >= keyOf.length || typeOf[a] == null) {
            return "address#" + a;
        }
        int object = (int) (keyOf[a] >>> 32);
        int slot = (int) keyOf[a];
        String type = typeOf[a];
        if (type.equals(STATIC)) {
            return fields.name(slot);
        }
        if (type.equals(JUC)) {
            return "<java.util.concurrent synchronization>";
        }
        if (indexed[a] && slot >= 0) {
            return type + "#" + object + "[" + slot + "]";
        }
        switch (slot) {
            case Probes.MONITOR:
                return type + "#" + object + ".<monitor>";
            case Probes.START:
                return type + "#" + object + ".<start>";
            case Probes.VALUE:
                return type + "#" + object + ".value";
            case Probes.JUC:
                return type + "#" + object + ".<synchronization>";
            default:
                break;
        }
        if (slot <= Probes.UNRESOLVED) {
            return type + "#" + object + ".<field through an unresolved updater/VarHandle/offset>";
        }
        if (slot < 0) {
            return type + "#" + object + ".<slot " + slot + ">";
        }
        String f = fields.name(slot); // Declaring.field, or field#N when the id is unknown
        int dot = f.lastIndexOf('.');
        return dot < 0 ? type + "#" + object + "." + f : f.substring(0, dot) + "#" + object + f.substring(dot);
    }

    private static final String STATIC = "static:";
    private static final String JUC = "java.util.concurrent";

    private String typeName(Object o) {
        if (o instanceof StaticOwners.Token) {
            return STATIC;
        }
        if (o == Probes.JUC_OBJECT) {
            return JUC;
        }
        return typeNames.computeIfAbsent(o.getClass(), Heap::simpleTypeName);
    }

    private static String simpleTypeName(Class<?> c) {
        if (c.isArray()) {
            return c.getComponentType().getSimpleName() + "[]";
        }
        String n = c.getName();
        return n.substring(n.lastIndexOf('.') + 1);
    }
}
