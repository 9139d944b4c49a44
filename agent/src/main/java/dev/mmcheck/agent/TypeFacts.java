package dev.mmcheck.agent;

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

    /** Where a field lives: its declaring class (binary name) and whether it is volatile. */
    record FieldFacts(String declaringClass, boolean isVolatile) {
    }

    private final TypePool pool;
    private final Map<String, FieldFacts> fields = new HashMap<>();
    private final Map<String, Boolean> threads = new HashMap<>();

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
                        return new FieldFacts(d.getName(), f.isVolatile());
                    }
                }
            }
        } catch (RuntimeException e) {
            // unresolvable (missing class, several matches): fall through
        }
        return new FieldFacts(binary, false);
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
