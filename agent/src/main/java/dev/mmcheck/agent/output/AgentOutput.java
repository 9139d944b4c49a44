package dev.mmcheck.agent.output;

import dev.mmcheck.checker.report.Report;

import java.io.IOException;
import java.util.List;

/** One thing the agent writes at the end of a run (JaCoCo's {@code IAgentOutput}). */
public interface AgentOutput {

    /**
     * Writes {@code report}, whose summary lines so far are {@code summary}; returns the summary's line saying
     * where it went, or null for none.
     */
    String write(Report report, List<String> summary) throws IOException;
}
