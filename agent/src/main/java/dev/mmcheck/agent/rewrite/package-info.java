/**
 * Bytecode rewriting at class load (docs/architecture.md, "Rewriting"): Byte Buddy hands each class outside the JDK and
 * the agent to {@code ClassRewriter}, whose {@code MethodRewriter} surrounds every memory access, synchronization and
 * JDK call that matters with probe calls ({@code JdkModel} says what a JDK call means).
 *
 * <p>Rules of this package: it only rewrites bytecode and registers fields and sites ({@code agent.ids}); it never uses
 * the checker thread ({@code agent.check}) nor the premain package, and the checker thread never uses it
 * (PackageDependenciesTest). Every probe call comes from the {@code Probe} table, whose entries {@code ProbeTableTest}
 * checks against the runtime's real signatures. Rewritten code must behave as the original does (same exceptions, same
 * values, same class initialization order), must resolve any class an access names before the access's lock probe (so
 * that no class loading runs inside the probes), and must never put code that can throw, block or call between a
 * lock probe and its unlock other than the instruction itself.
 */
package dev.mmcheck.agent.rewrite;
