package dev.mmcheck.checker.result;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a check found.
 *
 * @param analyses      the analyses that ran
 * @param events        events checked
 * @param violations    distinct violations, in the order first seen
 * @param forcedCommits per analysis, stores committed early because a buffer reached its bound
 * @param soberTruncatedScans Sober walks cut short by its window of remembered writes
 * @param clockResets   times the checker forgot its history to reclaim ended threads' slots
 * @param threads       threads seen
 * @param notes         things the user should know about how the check went (input cut short, bounds hit,
 *                      events or code left unchecked)
 * @param transactions  atomic-method transactions seen (0 when the serializability checks did not run)
 * @param failures      failures inside mmcheck (an analysis that threw, and where)
 */
public record CheckResult(Set<Analysis> analyses, long events, List<Violation> violations,
        Map<Analysis, Long> forcedCommits, long soberTruncatedScans, long clockResets, int threads,
        List<Note> notes, long transactions, List<Failure> failures) {

    /** A copy with more notes: {@code first} before the existing ones, {@code last} after them. */
    public CheckResult withNotes(List<Note> first, List<Note> last) {
        List<Note> all = new ArrayList<>(first);
        all.addAll(notes);
        all.addAll(last);
        return new CheckResult(analyses, events, violations, forcedCommits, soberTruncatedScans, clockResets, threads,
                List.copyOf(all), transactions, failures);
    }

    /** A copy with one more failure (from outside the checker: the agent's own stages). */
    public CheckResult withFailure(Failure f) {
        List<Failure> all = new ArrayList<>(failures);
        all.add(f);
        return new CheckResult(analyses, events, violations, forcedCommits, soberTruncatedScans, clockResets, threads,
                notes, transactions, List.copyOf(all));
    }

    /** Whether everything the run says it checked was checked: no failure and no note that something was not. */
    public boolean complete() {
        return failures.isEmpty() && notes.stream().noneMatch(Note::isIncomplete);
    }

    /** Whether a note of kind {@code kind} is present. */
    public boolean hasNote(String kind) {
        return notes.stream().anyMatch(n -> n.kind().equals(kind));
    }

    /** Distinct violations found by {@code analysis}. */
    public List<Violation> violationsOf(Analysis analysis) {
        return violations.stream().filter(v -> v.analysis() == analysis).toList();
    }
}
