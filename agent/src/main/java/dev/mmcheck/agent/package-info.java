/**
 * The agent's premain and its wiring: {@code Agent} and {@code Boot} put the runtime on the boot class path,
 * {@code Options} parses the agent's options, {@code AgentStart} configures the runtime, installs the rewriting,
 * starts the checker thread and, at exit, writes the run's outputs.
 *
 * <p>Rules of this package: it is the only package that knows both the rewriting ({@code agent.rewrite}) and the
 * checker thread ({@code agent.check}), and neither uses it back (the options reach the rewriting as a predicate and
 * values, PackageDependenciesTest checks it). Bad user input (an unknown option, a value out of range) gives one clear
 * line and a non-zero exit, never a stack trace; a failure after start is reported in the run's outputs and makes the
 * run INCOMPLETE, never silent. Nothing here runs on the hot path.
 */
package dev.mmcheck.agent;
