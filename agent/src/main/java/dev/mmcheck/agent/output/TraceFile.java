package dev.mmcheck.agent.output;

import dev.mmcheck.agent.check.TraceTee;
import dev.mmcheck.checker.report.Report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The binary trace ({@code trace=}): streamed during the run by {@code tee}, closed here. */
public record TraceFile(TraceTee tee, Path file) implements AgentOutput {

    @Override
    public String write(Report report, List<String> summary) throws IOException {
        tee.close();
        return tee.describe();
    }
}
