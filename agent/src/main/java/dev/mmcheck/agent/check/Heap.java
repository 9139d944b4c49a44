package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.runtime.Sampling;
import dev.mmcheck.runtime.Targets;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * Exact identities for the checker: objects (by identity, through weak references, so that nothing
 * is kept alive) get dense ids, and each (object, slot) pair a dense address id. When an object is
 * collected, its addresses are reported dead and their ids reused. Checker thread only.
 */
public final class Heap {

    /**
     * An object the checker has seen: a weak reference carrying only its id (32 bytes), everything else in the
     * tables by object id. Small on purpose: every record is copied by the young collection after it is made, and
     * a record that overflows survivor space into the old generation is no longer cleared by young collections
     * (docs/agent.md, "Identities").
     */
    private static final class Ref extends WeakReference<Object> {
        final int id;

        Ref(Object o, int id, ReferenceQueue<Object> queue) {
            super(o, queue);
            this.id = id;
        }
    }

    // an object's entry in `info`, by object id: INFO ints from id * INFO
    private static final int HASH = 0;
    private static final int TYPE = 1;
    /** The next object id + 1 in its bucket's chain (0: the end). */
    private static final int CHAIN = 2;
    /** How many addresses it has: the k-th first used is {@link #slotAt}, {@link #addressAt}. */
    private static final int COUNT = 3;
    /** Its first two addresses' slots and ids (most objects have one or two). */
    private static final int SLOT0 = 4;
    private static final int ADDRESS0 = 5;
    private static final int SLOT1 = 6;
    private static final int ADDRESS1 = 7;
    private static final int INFO = 8;

    private static final int PAGE_BITS = 10;
    /** Elements per page of an array's address table. */
    private static final int PAGE = 1 << PAGE_BITS;

    /**
     * An object's first INLINE addresses other than array elements are found by scanning its own
     * list (an object has few fields, and its entry is already at hand); later ones in the table.
     */
    private static final int INLINE = 8;

    private static final long EMPTY = Long.MIN_VALUE;

    private final FieldTable fields;
    /** The objects' types and the addresses' names. */
    private final Types types;
    // replaced when everything is forgotten: the old generation's references enqueue where nobody looks
    private ReferenceQueue<Object> queue = new ReferenceQueue<>();
    // object id + 1 of each bucket's first object (0: none); the chain goes on through info[CHAIN]
    private int[] buckets = new int[1024];
    private int objects;
    private int[] freeObjectIds = new int[16];
    private int freeObjects;
    private int nextObjectId;
    // by object id: its record, its entry (INFO ints), its addresses from the third on in pairs (slot, id), and
    // for an array its elements' address ids + 1 (0 none yet) in pages allocated on first use
    private Ref[] refs = new Ref[256];
    private int[] info = new int[256 * INFO];
    private int[][] more = new int[256][];
    private int[][][] pages = new int[256][][];

    // (object id, slot) -> address id, open addressing
    private long[] keys = new long[1024];
    private int[] values = new int[1024];
    private int size;
    // array elements with an address id (in their arrays' pages, not in the table)
    private int elements;
    // addresses found by scanning their object's first INLINE addresses (not in the table)
    private int inline;
    // by address id: its (object id, slot), its object's type + 1 in `types` (0: free), and whether it is an
    // element of an array or atomic array
    private long[] keyOf = new long[256];
    private int[] typeOf = new int[256];
    private boolean[] indexed = new boolean[256];
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
    private final LongSupplier unresolvedAccesses;

    /** A heap whose volatile-field rule yields to the runtime's count of unresolved or unlogged accessor accesses. */
    public Heap(FieldTable fields) {
        this(fields, () -> Targets.unresolved() + Targets.unloggedHandles());
    }

    /** A heap whose volatile-field rule yields once {@code unresolvedAccesses} counts any (for tests). */
    Heap(FieldTable fields, LongSupplier unresolvedAccesses) {
        this.fields = fields;
        this.types = new Types(fields);
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
        buckets = new int[1024];
        objects = 0;
        freeObjectIds = new int[16];
        freeObjects = 0;
        nextObjectId = 0;
        refs = new Ref[256];
        info = new int[256 * INFO];
        more = new int[256][];
        pages = new int[256][][];
        keys = new long[1024];
        Arrays.fill(keys, EMPTY);
        values = new int[1024];
        size = 0;
        elements = 0;
        inline = 0;
        keyOf = new long[256];
        typeOf = new int[256];
        indexed = new boolean[256];
        freeAddresses = new int[16];
        freeCount = 0;
        nextAddress = 0;
        lastId = -1;
        prevId = -1;
    }

    /**
     * Bytes this table holds per address id in use (the object's record and entry, the id's entries), for the memory
     * bound: the cost with one address per object, the costliest case (an object's record is shared by its addresses),
     * as HeapBytesPerAddressTest measures it on JDK 17 (138 bytes under the serial collector, 164 under G1, 201 in
     * Surefire's JVM after other tests), which keeps the measure within 1.5 times of it. It was 96, from a manual
     * run with several addresses per object, which let the bound under-count memory by up to two times.
     */
    static final int BYTES_PER_ADDRESS = 160;

    /** The largest address id handed out so far, plus one (ids below it may be free). */
    int addressIdBound() {
        return nextAddress;
    }

    /**
     * The address id of slot {@code slot} of {@code o}. Array elements are found by index in the array's
     * own pages (no hashing: a loop over a large array would otherwise miss the caches on every event);
     * fields and pseudo-slots (monitor, start) among the object's first addresses, then in the hash table.
     */
    int address(Object o, int slot) {
        int id = id(o);
        int[][] p = pages[id];
        if (p != null && slot >= 0 && (slot >>> PAGE_BITS) < p.length) {
            int[] page = p[slot >>> PAGE_BITS];
            if (page == null) {
                page = new int[PAGE];
                p[slot >>> PAGE_BITS] = page;
            }
            int a = page[slot & (PAGE - 1)] - 1;
            if (a < 0) {
                a = newAddress(id, slot);
                page[slot & (PAGE - 1)] = a + 1;
                elements++;
            }
            return a;
        }
        int[] in = info;
        int at = id * INFO;
        int n = in[at + COUNT];
        if (n > 0 && in[at + SLOT0] == slot) {
            return in[at + ADDRESS0];
        }
        if (n > 1 && in[at + SLOT1] == slot) {
            return in[at + ADDRESS1];
        }
        if (n > 2) {
            int[] m = more[id];
            for (int k = 0, end = 2 * (Math.min(n, INLINE) - 2); k < end; k += 2) {
                if (m[k] == slot) {
                    return m[k + 1];
                }
            }
        }
        if (n < INLINE) {
            inline++;
            return newAddress(id, slot);
        }
        long key = ((long) id << 32) | (slot & 0xffffffffL);
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        int a = newAddress(id, slot);
        keys[i] = key;
        values[i] = a;
        if (2 * ++size > keys.length) {
            rehash(keys.length * 2);
        }
        return a;
    }

    /** Whether slot {@code slot} of object {@code id} has its address id in the object's pages. */
    private boolean inPages(int id, int slot) {
        int[][] p = pages[id];
        return p != null && slot >= 0 && (slot >>> PAGE_BITS) < p.length;
    }

    /** The slot of the {@code k}-th address of object {@code id}. */
    private int slotAt(int id, int k) {
        return k == 0 ? info[id * INFO + SLOT0] : k == 1 ? info[id * INFO + SLOT1] : more[id][2 * (k - 2)];
    }

    /** The id of the {@code k}-th address of object {@code id}. */
    private int addressAt(int id, int k) {
        return k == 0 ? info[id * INFO + ADDRESS0] : k == 1 ? info[id * INFO + ADDRESS1] : more[id][2 * (k - 2) + 1];
    }

    /** A fresh address id for slot {@code slot} of object {@code id}, recorded as one of its addresses. */
    private int newAddress(int id, int slot) {
        long key = ((long) id << 32) | (slot & 0xffffffffL);
        int a = freeCount > 0 ? freeAddresses[--freeCount] : nextAddress++;
        if (a >= keyOf.length) {
            keyOf = Arrays.copyOf(keyOf, a * 2);
            typeOf = Arrays.copyOf(typeOf, a * 2);
            indexed = Arrays.copyOf(indexed, a * 2);
        }
        int at = id * INFO;
        keyOf[a] = key;
        typeOf[a] = info[at + TYPE] + 1;
        indexed[a] = pages[id] != null;
        int k = info[at + COUNT]++;
        if (k == 0) {
            info[at + SLOT0] = slot;
            info[at + ADDRESS0] = a;
        } else if (k == 1) {
            info[at + SLOT1] = slot;
            info[at + ADDRESS1] = a;
        } else {
            int[] m = more[id];
            int i = 2 * (k - 2);
            if (m == null) {
                m = new int[4];
                more[id] = m;
            } else if (i == m.length) {
                m = Arrays.copyOf(m, m.length * 2);
                more[id] = m;
            }
            m[i] = slot;
            m[i + 1] = a;
        }
        return a;
    }

    // the ids of the two objects used last (-1: none): consecutive events on one object are common (a node's
    // fields, a lock), and so are events alternating between two (a queue and its node, two arrays); ints, so
    // that remembering them stores no reference (each such store into this long-lived table costs a card mark)
    private int lastId = -1;
    private int prevId = -1;
    /** The object id of {@code o}, given now if it has none. */
    private int id(Object o) {
        int last = lastId;
        if (last >= 0 && refs[last].refersTo(o)) {
            return last;
        }
        int prev = prevId;
        int id = prev >= 0 && refs[prev].refersTo(o) ? prev : lookup(o);
        prevId = last;
        lastId = id;
        return id;
    }

    private int lookup(Object o) {
        int h = System.identityHashCode(o);
        int b = h & (buckets.length - 1);
        int[] in = info;
        for (int id = buckets[b] - 1; id >= 0; id = in[id * INFO + CHAIN] - 1) {
            if (in[id * INFO + HASH] == h && refs[id].refersTo(o)) {
                return id;
            }
        }
        int id = freeObjects > 0 ? freeObjectIds[--freeObjects] : nextObjectId++;
        if (id >= refs.length) {
            int n = refs.length * 2;
            refs = Arrays.copyOf(refs, n);
            info = Arrays.copyOf(info, n * INFO);
            more = Arrays.copyOf(more, n);
            pages = Arrays.copyOf(pages, n);
        }
        refs[id] = new Ref(o, id, queue);
        int length = Types.length(o);
        pages[id] = length >= 0 ? new int[(length + PAGE - 1) >>> PAGE_BITS][] : null;
        int at = id * INFO;
        info[at + HASH] = h;
        info[at + TYPE] = types.typeId(o);
        info[at + COUNT] = 0;
        info[at + CHAIN] = buckets[b];
        buckets[b] = id + 1;
        if (++objects > buckets.length) {
            grow();
        }
        return id;
    }

    private void grow() {
        int[] grown = new int[buckets.length * 2];
        int mask = grown.length - 1;
        // by id, not by chain: the entries are read in order (a walk of the old chains missed the caches at each)
        for (int id = 0; id < nextObjectId; id++) {
            if (refs[id] != null) {
                int at = id * INFO;
                int b = info[at + HASH] & mask;
                info[at + CHAIN] = grown[b];
                grown[b] = id + 1;
            }
        }
        buckets = grown;
    }

    /** Reports the addresses of every object collected since the last call, and frees their ids. */
    void expunge(IntConsumer deadAddress) {
        Ref r;
        while ((r = (Ref) queue.poll()) != null) {
            int id = r.id;
            for (int k = 0, n = info[id * INFO + COUNT]; k < n; k++) {
                int a = addressAt(id, k);
                deadAddress.accept(a);
                if (inPages(id, slotAt(id, k))) {
                    elements--; // in the array's pages, which go with it
                } else if (k < INLINE) {
                    inline--; // in the object's own list
                } else {
                    remove(keyOf[a]);
                }
                typeOf[a] = 0;
                if (freeCount == freeAddresses.length) {
                    freeAddresses = Arrays.copyOf(freeAddresses, freeCount * 2);
                }
                freeAddresses[freeCount++] = a;
            }
            unlink(id);
            refs[id] = null;
            more[id] = null;
            pages[id] = null;
            if (lastId == id) {
                lastId = -1;
            }
            if (prevId == id) {
                prevId = -1;
            }
            if (freeObjects == freeObjectIds.length) {
                freeObjectIds = Arrays.copyOf(freeObjectIds, freeObjects * 2);
            }
            freeObjectIds[freeObjects++] = id;
        }
    }

    private void unlink(int dead) {
        int b = info[dead * INFO + HASH] & (buckets.length - 1);
        int prev = -1;
        for (int id = buckets[b] - 1; id >= 0; prev = id, id = info[id * INFO + CHAIN] - 1) {
            if (id == dead) {
                if (prev < 0) {
                    buckets[b] = info[id * INFO + CHAIN];
                } else {
                    info[prev * INFO + CHAIN] = info[id * INFO + CHAIN];
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
        if (a < 0 || a >= keyOf.length || typeOf[a] == 0) {
            return "address#" + a;
        }
        return types.name(typeOf[a] - 1, (int) (keyOf[a] >>> 32), (int) keyOf[a], indexed[a]);
    }

    /**
     * What address {@code a} is with its object left out (checker.event.Names#addressShape): its object's type
     * and its field or pseudo-field, or the type alone for an array element. At least as fine as {@link #name}
     * with object numbers and indices dropped. Allocates nothing.
     */
    long shape(int a) {
        if (a < 0 || a >= keyOf.length || typeOf[a] == 0) {
            return -1 - (long) a; // named address#a: one of its own
        }
        int slot = (int) keyOf[a];
        int what = indexed[a] && slot >= 0 ? Integer.MIN_VALUE : slot; // any element of the array type is one
        return ((long) typeOf[a] << 32) | (what & 0xffffffffL);
    }
}
