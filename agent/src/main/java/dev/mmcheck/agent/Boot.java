package dev.mmcheck.agent;

import org.objectweb.asm.ClassReader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * Defines the runtime's classes in the bootstrap class loader, so that classes of every class loader that
 * delegates to its parents reach them (and the runtime's JCTools never meets the application's), without
 * appending anything to the bootstrap class path: an append after start-up makes the JVM print
 * <em>"Sharing is only supported for boot loader classes because bootstrap classpath has been appended"</em>
 * and share (CDS) only boot classes from then on. Then defines the probes' bridge in {@code java.lang}
 * ({@code rewrite.ProbeBridge}), which the code of loaders that do not delegate calls instead. A
 * {@link BootDefiner} loaded alone into a class loader of its own does the defining; {@code java.base}
 * exports {@code jdk.internal.misc} and opens {@code java.lang} to that loader's unnamed module only, so the
 * application's code sees no change.
 */
final class Boot {

    private static final String DEFINER = "dev.mmcheck.agent.BootDefiner";

    /** The class loader of BootDefiner's copy: its parent is the bootstrap loader, so it sees java.base alone. */
    private static final class Isolated extends ClassLoader {
        Isolated() {
            super("mmcheck-boot", null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    private final Instrumentation inst;
    private final Class<?> definer;

    private Boot(Instrumentation inst, Class<?> definer) {
        this.inst = inst;
        this.definer = definer;
    }

    /** Loads BootDefiner's copy and grants it what it needs of java.base. */
    static Boot open(Instrumentation inst) throws IOException {
        byte[] bytes;
        try (InputStream in = Boot.class.getResourceAsStream("/" + DEFINER.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new IOException("the agent jar has no " + DEFINER + " (a broken build?)");
            }
            bytes = in.readAllBytes();
        }
        Isolated loader = new Isolated();
        Class<?> definer = loader.define(DEFINER, bytes);
        Module own = loader.getUnnamedModule();
        inst.redefineModule(Object.class.getModule(), Set.of(), Map.of("jdk.internal.misc", Set.of(own)),
                Map.of("java.lang", Set.of(own)), Set.of(), Map.of());
        return new Boot(inst, definer);
    }

    /**
     * Defines every class of the runtime's jar {@code jar} in the bootstrap class loader, each after its
     * superclass and interfaces (a class's other references resolve when it first runs, by then all defined).
     * Returns null, or why a class could not be defined: the caller then appends the jar to the bootstrap
     * class path, which finds the rest (the classes defined so far are the jar's own).
     */
    String defineRuntime(byte[] jar) throws IOException {
        Map<String, byte[]> classes = new TreeMap<>();
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
            for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                String n = e.getName();
                if (n.endsWith(".class") && !n.endsWith("module-info.class")) {
                    classes.put(n.substring(0, n.length() - ".class".length()), in.readAllBytes());
                }
            }
        }
        if (classes.isEmpty()) {
            return "the runtime's jar has no classes";
        }
        Set<String> defined = new HashSet<>();
        try {
            for (String name : classes.keySet()) {
                define(name, classes, defined);
            }
        } catch (InvocationTargetException e) {
            return String.valueOf(e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return e.toString();
        }
        return null;
    }

    /**
     * Defines the class {@code bytes} of package {@code java.lang} (the probes' bridge, named {@code name}), after
     * letting {@code java.base} read the module of the runtime's classes, which the bridge calls.
     */
    void defineBridge(String name, byte[] bytes) throws IOException {
        try {
            Module runtime = Class.forName("dev.mmcheck.runtime.Probes", false, null).getModule();
            inst.redefineModule(Object.class.getModule(), Set.of(runtime), Map.of(), Map.of(), Set.of(), Map.of());
            Class<?> bridge = (Class<?>) definer.getMethod("inJavaLang", byte[].class).invoke(null, (Object) bytes);
            if (!bridge.getName().equals(name.replace('/', '.')) || bridge.getClassLoader() != null) {
                throw new IOException("the probes' bridge came out as " + bridge + " of " + bridge.getClassLoader());
            }
        } catch (InvocationTargetException e) {
            throw new IOException("cannot define the probes' bridge " + name + ": " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new IOException("cannot define the probes' bridge " + name + ": " + e, e);
        }
    }

    /** Defines {@code name} (internal name) after the supertypes of it that the jar holds. */
    private void define(String name, Map<String, byte[]> classes, Set<String> defined)
            throws ReflectiveOperationException {
        if (!defined.add(name)) {
            return;
        }
        byte[] bytes = classes.get(name);
        ClassReader header = new ClassReader(bytes);
        if (header.getSuperName() != null && classes.containsKey(header.getSuperName())) {
            define(header.getSuperName(), classes, defined);
        }
        for (String i : header.getInterfaces()) {
            if (classes.containsKey(i)) {
                define(i, classes, defined);
            }
        }
        definer.getMethod("inBootLoader", String.class, byte[].class).invoke(null, name.replace('/', '.'), bytes);
    }
}
