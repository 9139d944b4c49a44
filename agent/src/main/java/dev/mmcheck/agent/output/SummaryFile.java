package dev.mmcheck.agent.output;

import dev.mmcheck.checker.report.Report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The summary as a text file too, beside the JSON report: a test runner may not show what a JVM prints as it exits. */
public record SummaryFile(Path file) implements AgentOutput {

    /** The summary file of the JSON report {@code report}: {@code .json} replaced by {@code .txt}. */
    public static SummaryFile beside(Path report) {
        String name = report.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return new SummaryFile(report.resolveSibling(base + ".txt"));
    }

    @Override
    public String write(Report report, List<String> summary) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent); // report=target/mmcheck/%p.json: the directory may not exist yet
        }
        Files.write(file, summary, StandardCharsets.UTF_8);
        return null;
    }
}
