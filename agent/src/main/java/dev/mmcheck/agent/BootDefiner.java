package dev.mmcheck.agent;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;

/**
 * Defines classes where no class loader of the application's can: in the bootstrap class loader, and in
 * package {@code java.lang}. {@link Boot} loads a copy of this class alone into a class loader of its own and
 * opens what it needs of {@code java.base} to that loader's unnamed module only, so that nothing changes for
 * the application's code (after JaCoCo's {@code AgentModule}). It uses nothing but {@code java.base}: its copy's
 * loader sees nothing else.
 */
public final class BootDefiner {

    private BootDefiner() {
    }

    /**
     * Defines class {@code name} (binary name) from {@code bytes} in the bootstrap class loader, with the JDK's
     * internal {@code Unsafe.defineClass} (in {@code jdk.internal.misc}, the same in Java 17 and 25).
     */
    public static Class<?> inBootLoader(String name, byte[] bytes) throws ReflectiveOperationException {
        Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
        Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
        Method define = unsafeClass.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
                ClassLoader.class, ProtectionDomain.class);
        return (Class<?>) define.invoke(unsafe, name, bytes, 0, bytes.length, null, null);
    }

    /** Defines a class of package {@code java.lang} from {@code bytes}, as {@code Lookup.defineClass} does. */
    public static Class<?> inJavaLang(byte[] bytes) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(Object.class, MethodHandles.lookup()).defineClass(bytes);
    }
}
