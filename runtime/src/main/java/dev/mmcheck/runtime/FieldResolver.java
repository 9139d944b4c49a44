package dev.mmcheck.runtime;

/**
 * Resolves a field named at run time (by a field updater, a VarHandle lookup or an Unsafe offset) to
 * the field id that instrumented GETFIELD/PUTFIELD instructions use for it, so that all of them
 * address the same location. Installed by the agent; called on application threads, rarely (once per
 * updater, VarHandle or offset), never per access.
 */
public interface FieldResolver {

    /** The id of field {@code name} as seen from class {@code owner} (declared there or inherited). */
    int fieldId(Class<?> owner, String name);

    /**
     * The id of static field {@code name} declared by the class named {@code declaringClass} (a binary
     * name, {@code a.b.C$D}), as GETSTATIC/PUTSTATIC use it: for a VarHandle whose creation no probe saw,
     * resolved from its nominal descriptor, which names the declaring class but does not hand out the
     * class itself.
     */
    int staticFieldId(String declaringClass, String name);
}
