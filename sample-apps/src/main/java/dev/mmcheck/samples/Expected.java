package dev.mmcheck.samples;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A sample's expected verdict under each model, declared next to it (as jcstress declares outcomes).
 * Lines that a report must name carry a comment marker: {@code // mmcheck:store} on the store that
 * can stay buffered and {@code // mmcheck:access} on the access of the other thread that misses it;
 * the integration tests check every reported line against the markers. In a serializability
 * violation each access on an edge must be on a line marked {@code // mmcheck:access} or
 * {@code // mmcheck:store}, a store that commits late on one marked {@code // mmcheck:store}, and each
 * atomic method's transaction on the method's first line, marked {@code // mmcheck:tx}. A store or access
 * inside a helper (one whose field or element its caller chooses) is reported with the call that reached it,
 * which must be on a line marked {@code // mmcheck:call} when it is in the sample's file.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Expected {

    /** Whether monitor_TSO must report. */
    boolean tso();

    /** Whether monitor_PSO must report. */
    boolean pso();

    /**
     * Whether the sc-serializability check must report: some run of the sample's atomic methods
     * ({@link Atomic}) is not conflict-serializable as observed. False for samples without atomic methods.
     */
    boolean scser() default false;

    /**
     * Whether the tso-serializability check must report: some TSO run with the observed trace is not
     * serializable (Enea and Farzan). False for samples without atomic methods.
     */
    boolean tsoser() default false;

    /**
     * The verdict of the access-mode analysis (models=jmm, docs/jmm-model.md), for the samples written for it:
     * their runs then check it beside TSO and PSO. {@link Jmm#UNDECLARED} for the others, which run without it.
     */
    Jmm jmm() default Jmm.UNDECLARED;

    /** A sample's verdict under the access-mode analysis. */
    enum Jmm {
        /** Not declared: the sample is not run under the access-mode analysis. */
        UNDECLARED,
        /** The access-mode analysis must not report. */
        CLEAN,
        /** The access-mode analysis must report, at the marked lines. */
        VIOLATION
    }

    /** Why, in a sentence. */
    String why();
}
