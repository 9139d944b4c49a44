package dev.mmcheck.checker.engine;

import dev.mmcheck.checker.monitor.Analysis;
import dev.mmcheck.checker.report.Violation;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a check found.
 *
 * @param analyses      the analyses that ran
 * @param events        events consumed
 * @param violations    distinct violations, in the order first seen
 * @param forcedCommits per analysis, stores committed early because a buffer reached its bound
 * @param soberTruncatedScans Sober walks cut short by its window of remembered writes
 * @param clockResets   times the checker forgot its history to reclaim ended threads' slots
 * @param threads       threads seen
 * @param notes         things the user should know about how the check went (truncated input, bounds hit)
 * @param transactions  atomic-method transactions seen (0 when the serializability checks did not run)
 */
public record CheckResult(Set<Analysis> analyses, long events, List<Violation> violations,
        Map<Analysis, Long> forcedCommits, long soberTruncatedScans, long clockResets, int threads,
        List<String> notes, long transactions) {

    /** A copy with other notes. */
    public CheckResult withNotes(List<String> other) {
        return new CheckResult(analyses, events, violations, forcedCommits, soberTruncatedScans, clockResets, threads,
                List.copyOf(other), transactions);
    }

    /** Distinct violations found by {@code analysis}. */
    public List<Violation> violationsOf(Analysis analysis) {
        return violations.stream().filter(v -> v.analysis() == analysis).toList();
    }
}
