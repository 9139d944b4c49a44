/**
 * The outputs of a run and of {@code mmcheck merge}: {@code Triage} (suppressions, baseline, {@code failOn=}),
 * {@code Merge} (reports read back and decided once), and the writers ({@code Summary}, {@code JsonReport},
 * {@code SarifReport} with {@code SourceRoots}, {@code HtmlReport}), with the build's {@code Version}.
 *
 * <p>Rules of this package: it reads the run's {@code result} (and {@code event}'s sites, {@code finding}'s analyses
 * and notes) and never changes it; nothing below it (the engine, the analyses, the result model) uses it; every output
 * is written from the same {@code Triage.Outcome}, so the summary, JSON, SARIF and HTML never disagree; the JSON's
 * fields are the ones docs/report-format.md documents.
 */
package dev.mmcheck.checker.report;
