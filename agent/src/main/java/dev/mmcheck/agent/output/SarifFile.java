package dev.mmcheck.agent.output;

import dev.mmcheck.checker.report.Report;
import dev.mmcheck.checker.report.SarifReport;
import dev.mmcheck.checker.report.SourceRoots;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The SARIF log ({@code sarif=}), its paths found under {@code roots}. */
public record SarifFile(Path file, SourceRoots roots) implements AgentOutput {

    @Override
    public String write(Report report, List<String> summary) throws IOException {
        SarifReport.write(file, report, roots);
        return "mmcheck: SARIF written to " + file;
    }
}
