package dev.mmcheck.maven;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Merge;
import dev.mmcheck.checker.report.Triage;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.trace.TextTraceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** check's decision on merged reports: Dekker's race with plain fields (a race) in one fork, nothing in another. */
class CheckMojoTest {

    @TempDir
    Path dir;

    private static CheckResult dekker() throws Exception {
        Symbols symbols = new Symbols();
        Checker checker = new Checker(symbols, Checker.Config.defaults());
        try (Reader in = new InputStreamReader(CheckMojoTest.class.getResourceAsStream("/dekker-plain.trace"),
                StandardCharsets.UTF_8)) {
            TextTraceReader.read("dekker-plain.trace", in, symbols, checker);
        }
        return checker.result();
    }

    /** Two forks' reports: one found Dekker's race, the other (complete as given) nothing. */
    private Merge.Merged forks(boolean secondComplete) throws Exception {
        Path a = dir.resolve("fork-1.json");
        Path b = dir.resolve("fork-2.json");
        JsonReport.write(a, "fork 1", true, dekker());
        JsonReport.write(b, "fork 2", secondComplete, new Checker(new Symbols(), Checker.Config.defaults()).result());
        return Merge.of(List.of(a, b));
    }

    @Test
    void aRaceFailsTheBuildWithTheFindingInTheMessage() throws Exception {
        CheckMojo.Decision d = CheckMojo.decide(forks(true), Triage.none(), true);
        assertNotNull(d.failure());
        assertTrue(d.failure().startsWith("mmcheck: 1 finding fails the build\n"), d.failure());
        assertTrue(d.failure().contains("Dekker.java:12"), d.failure());
    }

    @Test
    void aCategoryLeftOutOfFailOnPasses() throws Exception {
        Triage relaxedOnly = Triage.load(null, null, EnumSet.of(Category.RELAXED));
        assertNull(CheckMojo.decide(forks(true), relaxedOnly, true).failure());
    }

    @Test
    void theBaselineIsWrittenOnTheFirstBuildAndAcceptsItsFindings() throws Exception {
        Path baseline = dir.resolve("baseline.txt");
        CheckMojo.Decision first = CheckMojo.decide(forks(true), Triage.load(null, baseline, EnumSet.allOf(Category.class)), true);
        assertNull(first.failure());
        assertTrue(Files.readString(baseline).contains("Dekker"), Files.readString(baseline));
        assertNull(CheckMojo.decide(forks(true), Triage.load(null, baseline, EnumSet.allOf(Category.class)), true).failure());
    }

    @Test
    void anIncompleteForkFailsTheBuildUnlessAllowed() throws Exception {
        Triage relaxedOnly = Triage.load(null, null, EnumSet.of(Category.RELAXED));
        CheckMojo.Decision d = CheckMojo.decide(forks(false), relaxedOnly, true);
        assertNotNull(d.failure());
        assertTrue(d.failure().contains("INCOMPLETE"), d.failure());
        assertNull(CheckMojo.decide(forks(false), relaxedOnly, false).failure());
    }

    @Test
    void aFindingAndAnIncompleteRunSayBoth() throws Exception {
        CheckMojo.Decision d = CheckMojo.decide(forks(false), Triage.none(), true);
        assertTrue(d.failure().contains("Dekker.java:12") && d.failure().contains("INCOMPLETE"), d.failure());
        assertEquals(1, d.outcome().failing());
    }

    /** A fork run with fix=true gets its fix printed under its report's name; a fork without one prints nothing. */
    @Test
    void eachForksFixIsPrintedUnderItsReport() throws Exception {
        Path fixed = dir.resolve("fork-1.json");
        Files.writeString(fixed, "{\"fix\": {\"lines\": [\"mmcheck fix: the fewest changes that remove every finding"
                + " of this run (1 finding under pso): 1 change\", \"mmcheck fix:   S06.java:26: make the store to S06.ready"
                + " a release store (setRelease, or lazySet)\"]}}");
        Path plain = dir.resolve("fork-2.json");
        JsonReport.write(plain, "fork 2", true, dekker());
        List<String> out = CheckMojo.fixSections(dir, List.of(fixed, plain));
        assertEquals(List.of("", "mmcheck: the fewest changes that remove every finding of fork-1.json:",
                "  mmcheck fix: the fewest changes that remove every finding of this run (1 finding under pso): 1 change",
                "  mmcheck fix:   S06.java:26: make the store to S06.ready a release store (setRelease, or lazySet)"), out);
        assertTrue(CheckMojo.fixSections(dir, List.of(plain)).isEmpty());
    }
}
