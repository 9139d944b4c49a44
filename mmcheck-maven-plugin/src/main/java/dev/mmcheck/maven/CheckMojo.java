package dev.mmcheck.maven;

import dev.mmcheck.checker.report.HtmlReport;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.report.Report;
import dev.mmcheck.checker.report.Merge;
import dev.mmcheck.checker.report.SarifReport;
import dev.mmcheck.checker.report.SourceRoots;
import dev.mmcheck.checker.report.Summary;
import dev.mmcheck.checker.report.Triage;
import dev.mmcheck.checker.result.Finding;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code mmcheck:check}: merges the JSON reports of every fork in the report directory ({@code mmcheck merge}),
 * writes the merged {@code mmcheck.json}, {@code mmcheck.sarif} and {@code mmcheck.html} beside them, prints the
 * summary, and fails the build on findings in the {@code failOn} categories that are neither suppressed nor in the
 * baseline, and on an incomplete run unless {@code failOnIncomplete=false}.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, requiresDependencyResolution = ResolutionScope.NONE,
        threadSafe = true)
public class CheckMojo extends AbstractMmcheckMojo {

    /** The merged outputs' names, in the report directory. */
    static final String MERGED = "mmcheck";

    /** How many findings the failure message shows. */
    static final int SHOWN = 3;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** Fail the build when the run is incomplete (classes or events left unchecked, a failure inside mmcheck). */
    @Parameter(property = "mmcheck.failOnIncomplete", defaultValue = "true")
    boolean failOnIncomplete;

    /** What check decided: the triaged findings, and the failure message, or null when the build passes. */
    record Decision(Merge.Merged merged, Triage.Outcome outcome, boolean complete, String failure) {
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("mmcheck: skipped (mmcheck.skip)");
            return;
        }
        Path dir = reportDirectory.toPath().toAbsolutePath();
        List<Path> reports = reports(dir);
        if (reports.isEmpty()) {
            String why = "mmcheck: no report in " + dir + ": no test ran under the agent (is mmcheck:prepare-agent "
                    + "declared, and does Surefire's argLine, if set, start with @{argLine}?)";
            if (testsSkipped()) {
                getLog().warn(why.replace("no test ran under the agent", "the tests were skipped"));
                return;
            }
            throw new MojoFailureException(why);
        }
        Merge.Merged merged;
        try {
            merged = Merge.of(reports);
        } catch (Merge.MergeException e) {
            throw new MojoExecutionException("mmcheck: " + e.getMessage());
        }
        Triage triage;
        try {
            triage = triage();
        } catch (Triage.TriageException | AgentArguments.BadOption e) {
            throw new MojoExecutionException(e.getMessage().startsWith("mmcheck:") ? e.getMessage()
                    : "mmcheck: " + e.getMessage());
        }
        String source = "merge of " + reports.size() + (reports.size() == 1 ? " report" : " reports") + " in "
                + project.getBasedir().toPath().relativize(dir);
        Decision d;
        try {
            d = decide(merged, triage, failOnIncomplete);
            merged = d.merged();
            for (String w : merged.warnings()) {
                getLog().warn("mmcheck: " + w);
            }
            JsonReport.write(dir.resolve(MERGED + ".json"), new Report(source, d.complete(), merged.result(),
                    d.outcome(), new Report.Merged(reports.size())));
            SarifReport.write(dir.resolve(MERGED + ".sarif"), source, d.complete(), merged.result(), d.outcome(),
                    sourceRoots());
            HtmlReport.write(dir.resolve(MERGED + ".html"), source, d.complete(), merged.result(), d.outcome());
        } catch (IOException e) {
            throw new MojoExecutionException("mmcheck: cannot write the merged report in " + dir + ": " + e);
        }
        for (String line : Summary.lines(source, merged.result(), d.outcome())) {
            if (d.failure() == null) {
                getLog().info(line);
            } else {
                getLog().warn(line);
            }
        }
        fixSections(dir, reports).forEach(line -> getLog().info(line));
        getLog().info("mmcheck: merged report written to " + dir.resolve(MERGED + ".json") + ", .sarif and .html");
        if (d.failure() != null) {
            throw new MojoFailureException(d.failure() + "\n(the whole report: " + dir.resolve(MERGED + ".html") + ")");
        }
    }

    /**
     * What check prints of the forks run with {@code fix=true}: each one's fix, proven on its own run (docs/fix.md),
     * under a line naming its report; nothing for a fork without one. Fixes are not merged.
     */
    static List<String> fixSections(Path dir, List<Path> reports) {
        List<String> out = new ArrayList<>();
        for (Path r : reports) {
            List<String> fix = JsonReport.fixLines(r);
            if (!fix.isEmpty()) {
                out.add("");
                out.add("mmcheck: the fewest changes that remove every finding of " + dir.relativize(r) + ":");
                fix.forEach(line -> out.add("  " + line));
            }
        }
        return out;
    }

    /**
     * The decision on the merged findings: which fail the build (failOn, suppressions, baseline) and whether an
     * incomplete run does. One method, so that it can become the checker's own ({@code mmcheck merge --fail-on}).
     */
    static Decision decide(Merge.Merged merged, Triage triage, boolean failOnIncomplete) throws IOException {
        // the checker's decision, as mmcheck merge makes it; this adds only what fails the build and its message
        Merge.Decision made = Merge.decide(merged, triage);
        merged = made.merged();
        Triage.Outcome outcome = made.outcome();
        boolean complete = merged.complete() && merged.result().complete();
        if (outcome.failing() > 0) {
            StringBuilder b = new StringBuilder("mmcheck: " + outcome.failing()
                    + (outcome.failing() == 1 ? " finding fails" : " findings fail") + " the build");
            List<Finding> failing = new ArrayList<>();
            for (Finding f : outcome.fresh()) {
                if (triage.failOn().contains(f.category())) {
                    failing.add(f);
                }
            }
            for (int i = 0; i < failing.size() && i < SHOWN; i++) {
                b.append('\n');
                b.append(String.join("\n", Summary.describe(failing.get(i), i + 1)));
            }
            if (failing.size() > SHOWN) {
                b.append("\n... and ").append(failing.size() - SHOWN).append(" more");
            }
            if (!complete) {
                b.append("\nand the run is INCOMPLETE (the summary above says what was left unchecked)");
            }
            return new Decision(merged, outcome, complete, b.toString());
        }
        if (!complete && failOnIncomplete) {
            return new Decision(merged, outcome, false, "mmcheck: the run is INCOMPLETE: not everything was checked (the "
                    + "summary above says what); no finding fails the build, but this is not a clean result "
                    + "(failOnIncomplete=false lets such a build pass)");
        }
        return new Decision(merged, outcome, complete, null);
    }

    /**
     * Where the SARIF file finds the sources: the project's compile and test source roots, so that its paths are
     * relative to the repository's root, as GitHub code scanning needs (docs/build.md, "SARIF on GitHub").
     */
    private SourceRoots sourceRoots() {
        List<Path> roots = new ArrayList<>();
        for (String r : project.getCompileSourceRoots()) {
            roots.add(Path.of(r));
        }
        for (String r : project.getTestCompileSourceRoots()) {
            roots.add(Path.of(r));
        }
        roots.removeIf(r -> !Files.isDirectory(r));
        return roots.isEmpty() ? SourceRoots.conventional() : SourceRoots.of(roots);
    }

    /** The triage of the parameters, or of failOn=, suppress=, baseline= in options. */
    private Triage triage() throws Triage.TriageException, AgentArguments.BadOption {
        Map<String, String> chosen = AgentArguments.chosen(java.util.Collections.emptyMap(), options);
        String categories = failOn != null ? failOn : chosen.getOrDefault("failOn", "all");
        Path rules = suppress != null ? suppress.toPath() : chosen.containsKey("suppress")
                ? project.getBasedir().toPath().resolve(chosen.get("suppress")) : null;
        Path known = baseline != null ? baseline.toPath() : chosen.containsKey("baseline")
                ? project.getBasedir().toPath().resolve(chosen.get("baseline")) : null;
        return Triage.load(rules, known, Triage.categories(categories.replace(',', ':')));
    }

    /** The forks' JSON reports in {@code dir}: every {@code .json} file but the merged one. */
    private static List<Path> reports(Path dir) throws MojoExecutionException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
            for (Path f : files) {
                if (!f.getFileName().toString().equals(MERGED + ".json")) {
                    out.add(f);
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException("mmcheck: cannot list " + dir + ": " + e);
        }
        out.sort(null);
        return out;
    }

    /** Whether the build skipped the tests (-DskipTests, -Dmaven.test.skip, -DskipITs). */
    private boolean testsSkipped() {
        for (String p : List.of("skipTests", "maven.test.skip", "skipITs")) {
            String v = session.getUserProperties().getProperty(p, project.getProperties().getProperty(p));
            if (v != null && (v.isEmpty() || Boolean.parseBoolean(v))) {
                return true;
            }
        }
        return false;
    }
}
