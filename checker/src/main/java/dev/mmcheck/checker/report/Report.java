package dev.mmcheck.checker.report;

import dev.mmcheck.checker.fix.FixResult;
import dev.mmcheck.checker.result.CheckResult;

/**
 * Everything one report says, built once: what every writer (JSON, SARIF, HTML, the summary) of the agent,
 * {@code mmcheck replay}, {@code mmcheck merge} and the Maven plugin's check goal reads.
 *
 * @param source   what was checked: the program, the trace, or {@code merge of N reports}
 * @param complete false when the caller knows the check is incomplete whatever {@code result} says
 * @param result   the check's result, its notes included
 * @param outcome  its findings, triaged
 * @param run      the report's {@code run} object, null for none (a replayed trace)
 * @param fix      the fewest changes that remove every finding, and their proof (docs/fix.md), null when not asked for
 */
public record Report(String source, boolean complete, CheckResult result, Triage.Outcome outcome, Run run,
        FixResult fix) {

    /** A report with no fix. */
    public Report(String source, boolean complete, CheckResult result, Triage.Outcome outcome, Run run) {
        this(source, complete, result, outcome, run, null);
    }

    /** This report with {@code fix}. */
    public Report withFix(FixResult fix) {
        return new Report(source, complete, result, outcome, run, fix);
    }

    /** The report's {@code run} object: the agent's facts, or a merge's. */
    public sealed interface Run permits RunFacts, Merged {
    }

    /** A merge's {@code run}: {@code reports}, how many reports it merged. */
    public record Merged(int reports) implements Run {
    }

    /** The report of {@code result}, untriaged, with no {@code run} object. */
    public static Report untriaged(String source, boolean complete, CheckResult result) {
        return new Report(source, complete, result, Triage.untriaged(result), null);
    }

    /** Whether the report says the check is complete: {@code complete} and the result's own. */
    public boolean completeCheck() {
        return complete && result.complete();
    }
}
