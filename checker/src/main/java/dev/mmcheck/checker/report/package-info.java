/**
 * Findings and the report: {@code Findings} (the {@code FindingSink} that keys, counts and names violations as they
 * come), {@code Finding} (one per race or cycle), {@code Category} and {@code Advice}, {@code Triage} (suppressions,
 * baseline, {@code failOn=}), {@code Merge}, and the writers ({@code Summary}, {@code JsonReport}, {@code SarifReport},
 * {@code HtmlReport}).
 *
 * <p>Rules of this package: it uses {@code event} and {@code finding} only; a violation is named when it is first found
 * (address ids are reused once objects die), through the stream's {@code Names}; every output is written from the same
 * {@code Triage.Outcome}, so the summary, JSON, SARIF and HTML never disagree; the JSON's fields are the ones
 * docs/report-format.md documents.
 */
package dev.mmcheck.checker.report;
