package dev.mmcheck.agent.output;

import dev.mmcheck.checker.report.HtmlReport;
import dev.mmcheck.checker.report.Report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The HTML page ({@code html=}). */
public record HtmlFile(Path file) implements AgentOutput {

    @Override
    public String write(Report report, List<String> summary) throws IOException {
        HtmlReport.write(file, report);
        return "mmcheck: HTML written to " + file;
    }
}
