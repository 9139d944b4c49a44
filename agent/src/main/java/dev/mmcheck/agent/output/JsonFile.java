package dev.mmcheck.agent.output;

import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The JSON report ({@code report=}, docs/report-format.md); its line names the summary's text file too. */
public record JsonFile(Path file, Path summaryFile) implements AgentOutput {

    @Override
    public String write(Report report, List<String> summary) throws IOException {
        JsonReport.write(file, report);
        return "mmcheck: report written to " + file + " (summary: " + summaryFile + ")";
    }
}
