package dev.mmcheck.runtime;

import java.lang.reflect.Field;

/** Array base offsets and scales from sun.misc.Unsafe, to turn an Unsafe array offset into an index. */
final class UnsafeAccess {

    private static final sun.misc.Unsafe UNSAFE = load();

    private UnsafeAccess() {
    }

    private static sun.misc.Unsafe load() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    // every reference array shares one base and scale; each primitive array type has its own. Looked up
    // once: Unsafe.arrayBaseOffset/arrayIndexScale are native calls the JIT does not fold for a class it
    // only knows at run time, and lockUnsafe asks on every Unsafe array access (JCTools' queues)
    private static final long REF_BASE = raw(Object[].class, true);
    private static final long REF_SCALE = raw(Object[].class, false);
    private static final Class<?>[] PRIMITIVE = {int[].class, long[].class, byte[].class, boolean[].class,
        char[].class, short[].class, float[].class, double[].class};
    private static final long[] PRIMITIVE_BASE = new long[PRIMITIVE.length];
    private static final long[] PRIMITIVE_SCALE = new long[PRIMITIVE.length];

    static {
        for (int i = 0; i < PRIMITIVE.length; i++) {
            PRIMITIVE_BASE[i] = raw(PRIMITIVE[i], true);
            PRIMITIVE_SCALE[i] = raw(PRIMITIVE[i], false);
        }
    }

    private static long raw(Class<?> arrayClass, boolean base) {
        if (UNSAFE == null) {
            return 0;
        }
        return base ? UNSAFE.arrayBaseOffset(arrayClass) : UNSAFE.arrayIndexScale(arrayClass);
    }

    private static int primitive(Class<?> arrayClass) {
        for (int i = 0; i < PRIMITIVE.length; i++) {
            if (PRIMITIVE[i] == arrayClass) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The Unsafe offset of instance field {@code f}, or -1 when Unsafe cannot give it (a record's or a
     * hidden class's field, no Unsafe). Any thread.
     */
    @SuppressWarnings("deprecation")
    static long fieldOffset(Field f) {
        if (UNSAFE == null) {
            return -1;
        }
        try {
            return UNSAFE.objectFieldOffset(f);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * The field offset a JDK field updater (AtomicInteger/Long/ReferenceFieldUpdater's implementations)
     * was made for, read from its private {@code offset} field, or -1. Any thread.
     */
    static long updaterOffset(Object updater) {
        long at = privateField(updater, "offset");
        return at < 0 ? -1 : UNSAFE.getLong(updater, at);
    }

    /** The class whose field a JDK field updater was made for (its private {@code tclass}), or null. Any thread. */
    static Class<?> updaterClass(Object updater) {
        long at = privateField(updater, "tclass");
        Object c = at < 0 ? null : UNSAFE.getObject(updater, at);
        return c instanceof Class<?> ? (Class<?>) c : null;
    }

    // the offset of instance field `name` of the updater's class or a superclass, -1 when there is none
    private static long privateField(Object updater, String name) {
        if (UNSAFE == null || updater == null || !updater.getClass().getName().startsWith("java.util.concurrent.atomic.")) {
            return -1; // only the JDK's own updaters: a subclass written elsewhere may mean anything by "offset"
        }
        for (Class<?> k = updater.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
            try {
                return fieldOffset(k.getDeclaredField(name));
            } catch (NoSuchFieldException | RuntimeException e) {
                // not here: its superclass
            }
        }
        return -1;
    }

    /** The Unsafe base offset of arrays of class {@code arrayClass}. Any thread. */
    static long arrayBase(Class<?> arrayClass) {
        if (!arrayClass.getComponentType().isPrimitive()) {
            return REF_BASE;
        }
        int i = primitive(arrayClass);
        return i >= 0 ? PRIMITIVE_BASE[i] : raw(arrayClass, true);
    }

    /** The Unsafe index scale of arrays of class {@code arrayClass}. Any thread. */
    static long arrayScale(Class<?> arrayClass) {
        if (!arrayClass.getComponentType().isPrimitive()) {
            return REF_SCALE;
        }
        int i = primitive(arrayClass);
        return i >= 0 ? PRIMITIVE_SCALE[i] : raw(arrayClass, false);
    }
}
