package dev.mmcheck.runtime;

import java.lang.reflect.Field;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the indirect accessors point at: which field a field updater or a VarHandle accesses, and
 * which field an Unsafe offset denotes. Filled when application code creates them (probes around
 * {@code newUpdater}, {@code findVarHandle}, {@code objectFieldOffset}), read by the access probes.
 * Accessors created where nothing observed them get ids of their own, so their accesses still agree
 * with each other (and are counted as unresolved). Any thread.
 */
public final class Targets {

    private Targets() {
    }

    /** A VarHandle's target: a field (static or not) or array elements. */
    static final class Handle {
        final int slot;          // field id; unused for arrays
        final Class<?> owner;    // for static fields: the declaring class
        final boolean array;

        Handle(int slot, Class<?> owner, boolean array) {
            this.slot = slot;
            this.owner = owner;
            this.array = array;
        }
    }

    private static volatile FieldResolver resolver = (owner, name) -> (owner.getName() + "." + name).hashCode() | 1 << 30;
    private static final ConcurrentHashMap<Object, Integer> UPDATERS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Object, Handle> HANDLES = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Class<?>, Offsets> OFFSETS = new ConcurrentHashMap<>();

    /** A class's known field offsets, copied on write (registration is rare, lookups allocate nothing). */
    private static final class Offsets {
        volatile long[] offsets = new long[0];
        volatile int[] ids = new int[0];

        synchronized void put(long offset, int id) {
            int n = offsets.length;
            long[] o = java.util.Arrays.copyOf(offsets, n + 1);
            int[] i = java.util.Arrays.copyOf(ids, n + 1);
            o[n] = offset;
            i[n] = id;
            ids = i;
            offsets = o;
        }

        int get(long offset) {
            long[] o = offsets;
            int[] i = ids;
            for (int k = 0; k < o.length && k < i.length; k++) {
                if (o[k] == offset) {
                    return i[k];
                }
            }
            return Integer.MIN_VALUE;
        }
    }
    private static volatile long unresolved;

    /** Installs the agent's field resolver. */
    public static void resolver(FieldResolver r) {
        resolver = r;
    }

    /** Accesses through an updater, VarHandle or offset that no probe saw being created. */
    public static long unresolved() {
        return unresolved;
    }

    static void updater(Object updater, Class<?> owner, String name) {
        UPDATERS.put(updater, resolver.fieldId(owner, name));
    }

    static int updaterSlot(Object updater) {
        Integer id = UPDATERS.get(updater);
        if (id != null) {
            return id;
        }
        unresolved++;
        return Probes.UNRESOLVED - (System.identityHashCode(updater) & 0xffff);
    }

    static void fieldHandle(Object handle, Class<?> owner, String name, boolean isStatic) {
        HANDLES.put(handle, new Handle(resolver.fieldId(owner, name), isStatic ? owner : null, false));
    }

    static void arrayHandle(Object handle) {
        HANDLES.put(handle, new Handle(0, null, true));
    }

    static Handle handle(Object handle) {
        return HANDLES.get(handle);
    }

    static void countUnresolved() {
        unresolved++;
    }

    static void offset(Field field, long offset) {
        OFFSETS.computeIfAbsent(field.getDeclaringClass(), c -> new Offsets())
                .put(offset, resolver.fieldId(field.getDeclaringClass(), field.getName()));
    }

    /** The field id of {@code offset} in objects of class {@code c} (or a superclass). */
    static int offsetSlot(Class<?> c, long offset) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Offsets m = OFFSETS.get(k);
            if (m != null) {
                int id = m.get(offset);
                if (id != Integer.MIN_VALUE) {
                    return id;
                }
            }
        }
        unresolved++;
        return Probes.UNRESOLVED - (int) (offset & 0xffff);
    }
}
