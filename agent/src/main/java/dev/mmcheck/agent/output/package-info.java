/**
 * What the agent writes when the run ends, as JaCoCo's {@code IAgentOutput}: one {@link AgentOutput} per file
 * or stream (the summary's text file, the trace, the JSON report, SARIF, HTML, the summary on standard error),
 * each reading the one {@link dev.mmcheck.checker.report.Report} built at the end of the run and adding at most
 * one line to the summary. Rules: an output only writes (it computes no fact and no note: those are in the
 * report already), it formats nothing itself (the checker's {@code report} writers do), it runs on the shutdown
 * hook's thread only, and it reports a failure by throwing, which {@code AgentStart} turns into the summary's one
 * {@code INCOMPLETE: cannot write the report} line; nothing here is called during the run.
 */
package dev.mmcheck.agent.output;
