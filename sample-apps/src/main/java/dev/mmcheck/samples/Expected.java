package dev.mmcheck.samples;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A sample's expected verdict under each model, declared next to it (as jcstress declares outcomes).
 * Lines that a report must name carry a comment marker: {@code // mmcheck:store} on the store that
 * can stay buffered and {@code // mmcheck:access} on the access of the other thread that misses it;
 * the integration tests check every reported line against the markers.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Expected {

    /** Whether monitor_TSO must report. */
    boolean tso();

    /** Whether monitor_PSO must report. */
    boolean pso();

    /** Why, in a sentence. */
    String why();
}
