package dev.mmcheck.runtime;

import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.invoke.VarHandle;
import java.lang.invoke.VarHandle.VarHandleDesc;

import java.lang.reflect.Field;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the indirect accessors point at: which field a field updater or a VarHandle accesses, and
 * which field an Unsafe offset denotes. Filled when application code creates them (probes around
 * {@code newUpdater}, {@code findVarHandle}, {@code objectFieldOffset}), read by the access probes.
 * An updater or offset created where nothing observed it gets an id of its own, so its accesses still
 * agree with each other (and are counted as unresolved); a VarHandle is resolved from its nominal
 * descriptor at its first access ({@link #describe}), or its accesses are counted as unlogged. Any thread.
 */
public final class Targets {

    private Targets() {
    }

    /** A VarHandle's target: a field (static or not), array elements, or a view of bytes as wider values. */
    static final class Handle {
        final int slot;          // field id; unused for arrays
        final boolean isStatic;  // a static field's (no coordinates)
        final boolean array;
        /** For a view of a byte array or ByteBuffer as shorts, ints, longs...: the bytes one access touches; else 0. */
        final int view;
        /** Whether that view's coordinate is a ByteBuffer (else a byte[]). */
        final boolean buffer;

        Handle(int slot, boolean isStatic, boolean array) {
            this(slot, isStatic, array, 0, false);
        }

        Handle(int slot, boolean isStatic, boolean array, int view, boolean buffer) {
            this.slot = slot;
            this.isStatic = isStatic;
            this.array = array;
            this.view = view;
            this.buffer = buffer;
        }
    }

    /**
     * A view VarHandle ({@code MethodHandles.byteArrayViewVarHandle}, {@code byteBufferViewVarHandle}: the JDK's
     * VarHandleByteArrayAs* classes, in Java 17 to 25), whatever made it: an access of N bytes at a byte index, the
     * byte elements index..index+N-1 of the array or buffer ({@link Views}); null for any other handle.
     */
    static Handle view(VarHandle h) {
        if (!h.getClass().getName().startsWith("java.lang.invoke.VarHandleByteArrayAs")
                || h.coordinateTypes().size() != 2 || h.coordinateTypes().get(1) != int.class) {
            return null;
        }
        Class<?> v = h.varType();
        int size = v == short.class || v == char.class ? 2 : v == int.class || v == float.class ? 4
                : v == long.class || v == double.class ? 8 : 0;
        Class<?> c0 = h.coordinateTypes().get(0);
        if (size == 0 || (c0 != byte[].class && c0 != java.nio.ByteBuffer.class)) {
            return null;
        }
        return new Handle(0, false, false, size, c0 == java.nio.ByteBuffer.class);
    }

    private static volatile FieldResolver resolver = new FieldResolver() {
        @Override
        public int fieldId(Class<?> owner, String name) {
            return staticFieldId(owner.getName(), name);
        }

        @Override
        public int staticFieldId(String declaringClass, String name) {
            return (declaringClass + "." + name).hashCode() | 1 << 30;
        }
    };
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
    /** Classes whose fields' offsets were all registered after an offset no probe saw computed. */
    private static final java.util.Set<Class<?>> SCANNED = ConcurrentHashMap.newKeySet();

    /**
     * The field id at {@code offset} in objects of class {@code c} (declared there or in a superclass), or
     * Integer.MIN_VALUE. An offset no probe saw computed (one computed in code that is not instrumented, or
     * for another class of the same layout: jctools' NonBlockingIdentityHashMap uses NonBlockingHashMap's
     * _kvs offset) is looked up among the fields of c and its superclasses, whose offsets are all
     * registered at the first such miss for c. Not for a Class: a static field reached through Unsafe's
     * staticFieldBase (the class's mirror) is no field of java.lang.Class, whatever field its offset matches.
     */
    private static int fieldAt(Class<?> c, long offset) {
        int id = registered(c, offset);
        if (id == Integer.MIN_VALUE && c != Class.class && SCANNED.add(c)) {
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    long o = java.lang.reflect.Modifier.isStatic(f.getModifiers()) ? -1 : UnsafeAccess.fieldOffset(f);
                    if (o >= 0) {
                        offset(f, o);
                    }
                }
            }
            id = registered(c, offset);
        }
        return id;
    }

    /** The field id registered for {@code offset} in {@code c} or a superclass, or Integer.MIN_VALUE. */
    private static int registered(Class<?> c, long offset) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Offsets m = OFFSETS.get(k);
            if (m != null) {
                int id = m.get(offset);
                if (id != Integer.MIN_VALUE) {
                    return id;
                }
            }
        }
        return Integer.MIN_VALUE;
    }
    private static volatile long unloggedHandles;

    /** Installs the agent's field resolver. */
    public static void resolver(FieldResolver r) {
        resolver = r;
    }

    /** Accesses through an updater or Unsafe offset that no probe saw being created (checked under an address of their own). */
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
        // created where no probe saw it: the JDK's updater keeps the field's offset and class, read once
        Class<?> c = UnsafeAccess.updaterClass(updater);
        long offset = UnsafeAccess.updaterOffset(updater);
        int found = c == null || offset < 0 ? Integer.MIN_VALUE : fieldAt(c, offset);
        if (found != Integer.MIN_VALUE) {
            UPDATERS.put(updater, found);
            return found;
        }
        unresolved++;
        return Probes.UNRESOLVED - (System.identityHashCode(updater) & 0xffff);
    }

    static void fieldHandle(Object handle, Class<?> owner, String name, boolean isStatic) {
        HANDLES.put(handle, new Handle(resolver.fieldId(owner, name), isStatic, false));
    }

    static void arrayHandle(Object handle) {
        HANDLES.put(handle, new Handle(0, false, true));
    }

    static Handle handle(Object handle) {
        return HANDLES.get(handle);
    }

    /** What {@link #describe} remembers of a handle it cannot resolve, so that it does not try again. */
    static final Handle UNKNOWN = new Handle(0, false, false);

    /**
     * The target of a VarHandle no probe saw being created ({@code unreflectVarHandle}, a handle made by
     * code that is not instrumented), read from its nominal descriptor ({@link VarHandle#describeConstable}:
     * the declaring class and name of a field, or an array type) and remembered; {@code receiver} is the
     * object of an instance field access (a field handle is resolved through its class); a view of a byte array
     * or buffer by its class ({@link #view}). {@link #UNKNOWN},
     * remembered, when the handle has no descriptor (a handle with
     * adapted coordinates, a hidden class's field) or describing it fails (a protected field's handle made
     * in a subclass: the JDK looks for the field in the subclass and throws InternalError); null, and
     * nothing remembered, when the field's class is not among the receiver's (the access throws). Once
     * per handle, on the application thread, with no stripe held: reflection, no application code.
     */
    static Handle describe(Object handle, Object receiver) {
        if (!(handle instanceof VarHandle)) {
            return null;
        }
        Handle view = view((VarHandle) handle);
        if (view != null) {
            HANDLES.put(handle, view);
            return view;
        }
        VarHandleDesc d;
        try {
            d = ((VarHandle) handle).describeConstable().orElse(null);
        } catch (InternalError | RuntimeException | LinkageError e) {
            d = null; // the JDK could not describe it (InternalError: "Field not found at offset")
        }
        ConstantDesc[] args = d == null ? new ConstantDesc[0] : d.bootstrapArgs();
        if (args.length == 0 || !(args[0] instanceof ClassDesc)) {
            HANDLES.put(handle, UNKNOWN);
            return UNKNOWN;
        }
        String declaring = ((ClassDesc) args[0]).descriptorString();
        Handle h;
        switch (d.bootstrapMethod().methodName()) {
            case "arrayVarHandle" -> h = new Handle(0, false, true);
            case "fieldVarHandle" -> {
                Class<?> k = receiver == null ? null : receiver.getClass();
                while (k != null && !k.descriptorString().equals(declaring)) {
                    k = k.getSuperclass();
                }
                if (k == null) {
                    return null;
                }
                h = new Handle(resolver.fieldId(k, d.constantName()), false, false);
            }
            case "staticFieldVarHandle" -> {
                // the id GETSTATIC uses is by class name; the owner token goes by that id (StaticOwners)
                String binary = declaring.substring(1, declaring.length() - 1).replace('/', '.');
                h = new Handle(resolver.staticFieldId(binary, d.constantName()), true, false);
            }
            default -> h = UNKNOWN;
        }
        HANDLES.put(handle, h);
        return h;
    }

    /** Counts an access through a VarHandle whose target could not be determined: it is not logged. */
    static void countUnloggedHandle() {
        unloggedHandles++;
    }

    /**
     * Accesses through VarHandles whose target could not be determined (no probe saw the handle created,
     * and it has no nominal descriptor: adapted coordinates; a view of a buffer whose memory cannot be told): not logged,
     * so not checked. Any thread (racy read).
     */
    public static long unloggedHandles() {
        return unloggedHandles;
    }

    static void offset(Field field, long offset) {
        OFFSETS.computeIfAbsent(field.getDeclaringClass(), c -> new Offsets())
                .put(offset, resolver.fieldId(field.getDeclaringClass(), field.getName()));
    }

    /** The field id of {@code offset} in objects of class {@code c} (or a superclass). */
    static int offsetSlot(Class<?> c, long offset) {
        int id = fieldAt(c, offset);
        if (id != Integer.MIN_VALUE) {
            return id;
        }
        unresolved++;
        return Probes.UNRESOLVED - (int) (offset & 0xffff);
    }
}
