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
}
