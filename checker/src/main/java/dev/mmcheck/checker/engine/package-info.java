/**
 * The engine: {@code Checker} takes one event at a time, maps threads to dense slots ({@code ThreadSlots}), records
 * it for report paths, hands it unchanged to every running analysis, then advances the clocks; {@code MergeOrder} is
 * the one rule by which the agent's checker thread merges the threads' logs; {@code Fault} injects failures for tests.
 *
 * <p>Rules of this package: it may use every analysis package and the report model, and only the agent and the command
 * line use it; it never sees a finding's text; an analysis that throws is stopped, its failure recorded, and the others
 * go on; the merge rule lives here alone, so that the differential tests run the agent's merge without the agent.
 */
package dev.mmcheck.checker.engine;
