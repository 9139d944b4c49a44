/**
 * The result of a run, as it builds up on the checker thread and as the writers read it: {@code Findings} (the
 * {@code FindingSink} that keys, counts and names violations as they come, through {@code ViolationTable}),
 * {@code Violation} with its {@code EventInfo}s, {@code CycleEdge}s and {@code TxInfo}s, the fix from {@code Advice},
 * {@code CheckResult} (violations, statistics, notes, {@code Failure}s), and {@code Finding} (one per race or cycle)
 * with its {@code Category}.
 *
 * <p>Rules of this package: it uses {@code event} and {@code finding} only, never the writers of {@code report} (they
 * read it, it never reads them), so the engine hands out a result without knowing any output format; a violation is
 * named when it is first found (address ids are reused once objects die), through the stream's {@code Names}.
 */
package dev.mmcheck.checker.result;
