/**
 * The fewest changes that remove every finding of a run, proven by replay (docs/fix.md): {@code Candidates} proposes
 * change sets per finding, {@code Rewrite} replays a recorded run as the changed program would have run it, {@code
 * HittingSet} chooses the cheapest combination, {@code FixSearch} runs the rounds and the proof, {@code FixResult}
 * says what was found.
 *
 * <p>Rules of this package: it decides nothing from the report's words, only from replays; what a change removes is
 * what the checker no longer reports with it made, under the models that reported; it reads runs and results and uses
 * the engine, never the agent or the report writers (they read {@code FixResult}).
 */
package dev.mmcheck.checker.fix;
