package dev.mmcheck.agent.output;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The summary's text file: beside the JSON report, in a directory it creates, the lines as they are so far. */
class SummaryFileTest {

    @TempDir
    Path dir;

    @Test
    void besideTheReportWithTxtForJson() {
        assertEquals(Path.of("target/mmcheck/run-1.txt"), SummaryFile.beside(Path.of("target/mmcheck/run-1.json")).file());
        assertEquals(Path.of("out/report.txt"), SummaryFile.beside(Path.of("out/report")).file(), "no .json: .txt added");
    }

    @Test
    void writesTheLinesSoFarAndSaysNothing() throws Exception {
        SummaryFile text = SummaryFile.beside(dir.resolve("not/yet/r.json"));
        Report report = Report.untriaged("s", true, new Checker(new Symbols(), Checker.Config.defaults()).result());
        assertNull(text.write(report, List.of("line 1", "line 2")), "the JSON output's line names the summary file");
        assertTrue(Files.isRegularFile(dir.resolve("not/yet/r.txt")));
        assertEquals(List.of("line 1", "line 2"), Files.readAllLines(dir.resolve("not/yet/r.txt")));
    }
}
