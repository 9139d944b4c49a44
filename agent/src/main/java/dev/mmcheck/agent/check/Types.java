package dev.mmcheck.agent.check;

import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.runtime.Probes;
import dev.mmcheck.runtime.StaticOwners;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link Heap}'s objects' types, by type id, and the readable names of its addresses. Checker thread only (names
 * also after the run).
 */
final class Types {

    private static final String STATIC = "static:";
    private static final String JUC = "java.util.concurrent";
    private static final String IO = "java.io";
    private static final String SEEDER = "java.util.concurrent.ThreadLocalRandom";

    private final FieldTable fields;
    private final Map<Class<?>, Integer> typeIds = new HashMap<>();
    // type names by type id: 0 to 3 are the statics', java.util.concurrent's, java.io's and the random seeder's
    // pseudo-objects (typeId)
    private final List<String> types = new ArrayList<>(List.of(STATIC, JUC, IO, SEEDER));

    /** Types whose static fields are named through {@code fields}. */
    Types(FieldTable fields) {
        this.fields = fields;
    }

    /**
     * The name of {@code slot} of the {@code object}-th object, of type {@code typeId}, an array element if
     * {@code indexed}: see {@link Heap#name}.
     */
    String name(int typeId, int object, int slot, boolean indexed) {
        String type = types.get(typeId);
        if (type.equals(STATIC)) {
            return fields.name(slot);
        }
        if (type.equals(JUC)) {
            return "<java.util.concurrent executors and futures>";
        }
        if (type.equals(IO)) {
            return "<java.io synchronization>";
        }
        if (type.equals(SEEDER)) {
            return "<ThreadLocalRandom's seeder>";
        }
        if (indexed && slot >= 0) {
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
            case Probes.REFERENT:
                return type + "#" + object + ".referent";
            case Probes.INTERRUPTED:
                return type + "#" + object + ".<interrupt status>";
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

    /** The type id of {@code o}: its index in {@code types}. */
    int typeId(Object o) {
        if (o instanceof StaticOwners.Token) {
            return 0;
        }
        if (o == Probes.JUC_OBJECT) {
            return 1;
        }
        if (o == Probes.IO_OBJECT) {
            return 2;
        }
        if (o == Probes.RANDOM_SEEDER) {
            return 3;
        }
        Class<?> c = o.getClass();
        for (int k = 0; k < RECENT_TYPES; k++) {
            if (recentTypes[k] == c) {
                return recentTypeIds[k];
            }
        }
        Integer t = typeIds.get(c);
        if (t == null) {
            t = types.size();
            types.add(simpleTypeName(c));
            typeIds.put(c, t);
        }
        int k = nextRecentType++ & (RECENT_TYPES - 1);
        recentTypes[k] = c;
        recentTypeIds[k] = t;
        return t;
    }

    // the classes of the last objects given an id, and their type ids (replaced in turn): most new objects are of a
    // class seen a few objects before (a queue's node and its AtomicReference, in turn), and the map of types costs a
    // hash probe and a cache miss or two
    private static final int RECENT_TYPES = 4;
    private final Class<?>[] recentTypes = new Class<?>[RECENT_TYPES];
    private final int[] recentTypeIds = new int[RECENT_TYPES];
    private int nextRecentType;

    private static String simpleTypeName(Class<?> c) {
        if (c.isArray()) {
            return c.getComponentType().getSimpleName() + "[]";
        }
        String n = c.getName();
        return n.substring(n.lastIndexOf('.') + 1);
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
        if (o instanceof ByteBuffer b && b.isDirect()) {
            return b.capacity(); // a direct buffer's memory, whose bytes view VarHandles address by index (runtime Views)
        }
        return -1;
    }
}
