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
