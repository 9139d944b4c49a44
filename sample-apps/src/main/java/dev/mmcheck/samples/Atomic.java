package dev.mmcheck.samples;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method whose every invocation is meant to appear atomic. mmcheck recognizes any annotation
 * with the simple name {@code Atomic}, so a library declares its own, as this one, and needs no
 * dependency on mmcheck; the agent option {@code atomic=CLASS#METHOD} does the same without one.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Atomic {
}
