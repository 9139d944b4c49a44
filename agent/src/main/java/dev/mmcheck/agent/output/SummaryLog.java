package dev.mmcheck.agent.output;

import dev.mmcheck.checker.report.Report;
import org.slf4j.Logger;

import java.util.List;

/** The summary on the process's standard error (the agent's log), every line, the other outputs' included. */
public record SummaryLog(Logger log) implements AgentOutput {

    @Override
    public String write(Report report, List<String> summary) {
        for (String line : summary) {
            log.info(line);
        }
        return null;
    }
}
