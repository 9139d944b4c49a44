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

    static long arrayBase(Class<?> arrayClass) {
        return UNSAFE == null ? 0 : UNSAFE.arrayBaseOffset(arrayClass);
    }

    static long arrayScale(Class<?> arrayClass) {
        return UNSAFE == null ? 0 : UNSAFE.arrayIndexScale(arrayClass);
    }
}
