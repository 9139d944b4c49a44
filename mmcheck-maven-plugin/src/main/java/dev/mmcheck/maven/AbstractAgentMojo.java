package dev.mmcheck.maven;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code prepare-agent} and {@code prepare-agent-integration} share: the agent's own options as parameters
 * (beside those of {@link AbstractMmcheckMojo}), and putting the agent on the property that Surefire or Failsafe
 * reads ({@code @{argLine}}).
 */
abstract class AbstractAgentMojo extends AbstractMmcheckMojo {

    /** The agent's coordinates among the plugin's dependencies. */
    static final String AGENT = "dev.mmcheck:mmcheck-agent";

    @Parameter(defaultValue = "${plugin.artifactMap}", readonly = true, required = true)
    Map<String, Artifact> pluginArtifactMap;

    /** The property the agent's argument goes into: Surefire and Failsafe read {@code argLine}. */
    @Parameter(property = "mmcheck.propertyName", defaultValue = "argLine")
    String propertyName;

    /** The models checked (agent option {@code models}, e.g. {@code tso:pso}). */
    @Parameter(property = "mmcheck.models")
    String models;

    /** {@code active} (default) or {@code os} (agent option {@code schedule}). */
    @Parameter(property = "mmcheck.schedule")
    String schedule;

    /** The fraction of objects checked (agent option {@code sample}, docs/sampling.md). */
    @Parameter(property = "mmcheck.sample")
    String sample;

    /** The name of a fork's report in the report directory, with {@code %p} for its process id. */
    abstract String reportName();

    @Override
    public void execute() throws MojoExecutionException {
        if (skip) {
            getLog().info("mmcheck: skipped (mmcheck.skip): " + propertyName + " left as it is");
            return;
        }
        Artifact agent = pluginArtifactMap.get(AGENT);
        if (agent == null || agent.getFile() == null) {
            throw new MojoExecutionException("mmcheck: the agent jar (" + AGENT + ":jar:agent) is not among the plugin's "
                    + "dependencies");
        }
        Path dir = reportDirectory.toPath().toAbsolutePath();
        String arguments;
        try {
            Map<String, String> chosen = AgentArguments.chosen(parameters(), options);
            for (String file : List.of("suppress", "baseline")) {
                // relative to the project, as check reads them, whatever directory Maven was started in
                chosen.computeIfPresent(file, (k, v) -> project.getBasedir().toPath().resolve(v).toString());
            }
            arguments = AgentArguments.forForks(dir.resolve(reportName()), chosen);
        } catch (AgentArguments.BadOption e) {
            throw new MojoExecutionException(e.getMessage());
        }
        removeStaleReports(dir);
        String jar = agent.getFile().getAbsolutePath();
        String old = project.getProperties().getProperty(propertyName);
        String line = ArgLine.with(old, jar, ArgLine.javaagent(jar, arguments));
        project.getProperties().setProperty(propertyName, line);
        getLog().info("mmcheck: " + propertyName + " set to " + line);
    }

    /** The named parameters as agent options; paths absolute (the forks and check may run elsewhere). */
    private Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("models", models);
        p.put("schedule", schedule);
        p.put("sample", sample);
        p.put("failOn", failOn);
        p.put("suppress", suppress == null ? null : suppress.getAbsolutePath());
        p.put("baseline", baseline == null ? null : baseline.getAbsolutePath());
        return p;
    }

    /** Deletes this goal's reports of an earlier build, which check would otherwise merge with this one's. */
    private void removeStaleReports(Path dir) throws MojoExecutionException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        // the report and the summary beside it (fork-PID.json, fork-PID.txt)
        String glob = reportName().replace("%p", "*").replace(".json", ".{json,txt}");
        int removed = 0;
        try (DirectoryStream<Path> stale = Files.newDirectoryStream(dir, glob)) {
            for (Path f : stale) {
                Files.delete(f);
                removed++;
            }
        } catch (IOException e) {
            throw new MojoExecutionException("mmcheck: cannot remove the reports of an earlier build in " + dir + ": " + e);
        }
        if (removed > 0) {
            getLog().info("mmcheck: removed " + removed + " report(s) " + glob + " of an earlier build from " + dir);
        }
    }
}
