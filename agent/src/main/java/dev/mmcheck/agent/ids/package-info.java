/**
 * The id tables shared by the rewriting and the checker thread: {@code FieldTable} (one id per declaring class and
 * field name) and {@code SiteTable} (one id per instrumented instruction, and per call that reached a helper's access).
 *
 * <p>Rules of this package: ids are small dense integers, given once and never reused, so that an event carries an int
 * and the report can name it at any time; registration happens at instrumentation time, from any thread that loads a
 * class (synchronized), and the checker thread reads what was registered. It uses the runtime and the checker's
 * {@code event} vocabulary only, never the rewriting, the checker thread or the premain package
 * (PackageDependenciesTest).
 */
package dev.mmcheck.agent.ids;
