package dev.mmcheck.agent.rewrite;

import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.pool.TypePool;

import java.util.HashMap;
import java.util.Map;

/**
 * What the rewriter needs to know about other classes, answered from Byte Buddy's {@link TypePool}
 * (class files, without loading them): where a field is declared and whether it is volatile, and
 * whether a class is a Thread. One instance per class being instrumented; not thread-safe.
 */
final class TypeFacts {

    /**
     * Where a field lives: its declaring class (binary name), whether it is volatile, whether it is
     * a static final field (assigned only while its class initializes, which every other thread waits for), and
     * whether it is a final instance field (JLS 17.5: read through a reference, it shows the constructor's value), and
     * whether it is synthetic (made by a compiler or by another agent, not declared in the source).
     */
    record FieldFacts(String declaringClass, boolean isVolatile, boolean isStaticFinal, boolean isFinalInstance,
            boolean isSynthetic) {
    }

    private final TypePool pool;
    private final Map<String, FieldFacts> fields = new HashMap<>();
    private final Map<String, Boolean> threads = new HashMap<>();
    private final Map<String, java.util.Optional<String>> inherited = new HashMap<>();

    TypeFacts(TypePool pool) {
        this.pool = pool;
    }

    /** The field {@code name} as reached through class {@code owner} (internal name). */
    FieldFacts field(String owner, String name) {
        return fields.computeIfAbsent(owner + '.' + name, k -> resolve(owner, name));
    }

    private FieldFacts resolve(String owner, String name) {
        String binary = owner.replace('/', '.');
        try {
            TypePool.Resolution r = pool.describe(binary);
            if (r.isResolved()) {
                for (TypeDefinition t = r.resolve(); t != null; t = t.getSuperClass()) {
                    TypeDescription d = t.asErasure();
                    var matching = d.getDeclaredFields().filter(ElementMatchers.named(name));
                    if (matching.size() == 1) {
                        FieldDescription f = matching.getOnly();
                        return new FieldFacts(d.getName(), f.isVolatile(), f.isStatic() && f.isFinal(),
                                !f.isStatic() && f.isFinal(), f.isSynthetic());
                    }
                }
            }
        } catch (RuntimeException e) {
            // unresolvable (missing class, several matches): fall through
        }
        return new FieldFacts(binary, false, false, false, false);
    }

    /**
     * For a call {@code owner.name desc} on an application class: the JDK class or interface (internal
     * name) whose method it reaches when {@code owner} inherits it without overriding (a class extending
     * AtomicReference calling {@code lazySet}, or {@code super.get()} through an intermediate class), so
     * that the call is modelled as the JDK's method is; null when an application class declares it, or
     * when it cannot be resolved.
     */
    String inheritedFromJdk(String owner, String name, String desc) {
        if (owner.startsWith("java/") || owner.startsWith("[")) {
            return null;
        }
        return inherited.computeIfAbsent(owner + '.' + name + desc, k -> {
            try {
                TypePool.Resolution r = pool.describe(owner.replace('/', '.'));
                if (!r.isResolved()) {
                    return NOT_INHERITED;
                }
                var matcher = ElementMatchers.<net.bytebuddy.description.method.MethodDescription>named(name)
                        .and(ElementMatchers.hasDescriptor(desc));
                java.util.ArrayDeque<TypeDescription> interfaces = new java.util.ArrayDeque<>();
                for (TypeDefinition t = r.resolve(); t != null; t = t.getSuperClass()) {
                    TypeDescription d = t.asErasure();
                    if (!d.getDeclaredMethods().filter(matcher).isEmpty()) {
                        return declaredBy(d);
                    }
                    d.getInterfaces().asErasures().forEach(interfaces::add);
                }
                java.util.Set<String> seen = new java.util.HashSet<>();
                while (!interfaces.isEmpty()) {
                    TypeDescription i = interfaces.poll();
                    if (!seen.add(i.getName())) {
                        continue;
                    }
                    if (!i.getDeclaredMethods().filter(matcher).isEmpty()) {
                        return declaredBy(i);
                    }
                    i.getInterfaces().asErasures().forEach(interfaces::add);
                }
            } catch (RuntimeException e) {
                // unresolvable (a missing class): left as it is
            }
            return NOT_INHERITED;
        }).orElse(null);
    }

    private static final java.util.Optional<String> NOT_INHERITED = java.util.Optional.empty();

    private static java.util.Optional<String> declaredBy(TypeDescription d) {
        String internal = d.getInternalName();
        return internal.startsWith("java/") ? java.util.Optional.of(internal) : NOT_INHERITED;
    }

    /** Whether class {@code owner} (internal name) is java.lang.Thread or a subclass. */
    boolean isThread(String owner) {
        if (owner.equals("java/lang/Thread")) {
            return true;
        }
        if (owner.startsWith("java/") || owner.startsWith("[")) {
            return false;
        }
        return threads.computeIfAbsent(owner, o -> {
            try {
                TypePool.Resolution r = pool.describe(o.replace('/', '.'));
                return r.isResolved() && r.resolve().isAssignableTo(Thread.class);
            } catch (RuntimeException e) {
                return false;
            }
        });
    }
}
