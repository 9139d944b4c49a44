package dev.mmcheck.agent.ids;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Field ids: one per (declaring class, field name), assigned when instrumentation first meets the
 * field, the same id for GETFIELD/PUTFIELD and for updaters, VarHandles and Unsafe offsets resolved
 * to that field. Any thread (synchronized; used at instrumentation time and for reports).
 */
public final class FieldTable {

    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> names = new ArrayList<>();
    private static final java.lang.invoke.VarHandle BITS = java.lang.invoke.MethodHandles.arrayElementVarHandle(long[].class);
    /** Bit per id: a volatile field. Written under the lock, read by the checker thread without it. */
    private volatile long[] volatileBits = new long[16];
    /** Bit per id: some instruction reaches the field through the plain-access probe. */
    private volatile long[] plainBits = new long[16];

    /** The id of field {@code name} declared by class {@code declaringClass} (binary name with dots). */
    public synchronized int id(String declaringClass, String name) {
        String key = declaringClass + "." + name;
        Integer id = ids.get(key);
        if (id == null) {
            id = names.size();
            ids.put(key, id);
            names.add(simple(declaringClass) + "." + name);
        }
        return id;
    }

    /** Records that field {@code id} is volatile (every access to it is then logged). Any thread. */
    public synchronized void markVolatile(int id) {
        volatileBits = set(volatileBits, id);
    }

    /**
     * Records that some instruction reaches field {@code id} through the plain-access probe (its
     * declaration could not be read, so it was taken for a plain field): it no longer counts as volatile.
     */
    public synchronized void markPlain(int id) {
        plainBits = set(plainBits, id);
    }

    /** Sets bit {@code id} of {@code bits}, grown (doubled) if needed; under the lock. */
    private static long[] set(long[] bits, int id) {
        int w = id >>> 6;
        long[] b = w < bits.length ? bits : java.util.Arrays.copyOf(bits, Math.max(w + 1, 2 * bits.length));
        BITS.setVolatile(b, w, (long) BITS.getVolatile(b, w) | (1L << id));
        return b;
    }

    private static boolean test(long[] bits, int id) {
        int w = id >>> 6;
        return w < bits.length && ((long) BITS.getVolatile(bits, w) & (1L << id)) != 0;
    }

    /**
     * Whether field {@code id} is volatile and no instruction reaches it through the plain-access probe:
     * then every access to it is logged. Any thread, without locking.
     */
    public boolean isVolatile(int id) {
        return id >= 0 && test(volatileBits, id) && !test(plainBits, id);
    }

    /** {@code Class.field} for field {@code id}, with the class's simple name. */
    public synchronized String name(int id) {
        return id >= 0 && id < names.size() ? names.get(id) : "field#" + id;
    }

    /** The id of field {@code name} of {@code owner} or its nearest superclass declaring it. */
    public int resolve(Class<?> owner, String name) {
        for (Class<?> c = owner; c != null; c = c.getSuperclass()) {
            for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    int id = id(c.getName(), name);
                    if (java.lang.reflect.Modifier.isVolatile(f.getModifiers())) {
                        markVolatile(id);
                    }
                    return id;
                }
            }
        }
        return id(owner.getName(), name);
    }

    /** This table as the runtime's resolver of fields named at run time (updaters, VarHandles, offsets). */
    public dev.mmcheck.runtime.FieldResolver resolver() {
        return new dev.mmcheck.runtime.FieldResolver() {
            @Override
            public int fieldId(Class<?> owner, String name) {
                return resolve(owner, name);
            }

            @Override
            public int staticFieldId(String declaringClass, String name) {
                return id(declaringClass, name);
            }
        };
    }

    static String simple(String className) {
        int dot = className.lastIndexOf('.');
        return className.substring(dot + 1);
    }
}
