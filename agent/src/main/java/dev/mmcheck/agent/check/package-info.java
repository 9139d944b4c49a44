/**
 * The checker thread (docs/architecture.md, "The checker thread"): {@code CheckerLoop} merges the threads' rings in an
 * order the stripes' sequence numbers allow, turns objects into exact address ids ({@code Heap}), runs the solo
 * periods' claim, sweep, confirm and hand-over with the runtime's {@code Solo}, and feeds the checker's engine;
 * {@code AgentNames} names ids for the report, {@code SelfCheck} and {@code TraceTee} watch and record the stream.
 *
 * <p>Rules of this package: it runs off the application's threads, on one daemon thread (the checker's), and the
 * application never waits for it except through back-pressure; a failure here stops checking, never draining (a
 * dead checker must not hang the application), and is reported. Addresses are exact (object identity through weak
 * references, never a hash) and never keep an object alive; memory is bounded by {@code checkerMemory=}. It uses the
 * id tables ({@code agent.ids}), the runtime and the checker, never the rewriting nor the premain package
 * (PackageDependenciesTest). Only its own thread calls its methods, but for the counters, read once at exit after it
 * stopped as one {@code LoopCounts}.
 */
package dev.mmcheck.agent.check;
