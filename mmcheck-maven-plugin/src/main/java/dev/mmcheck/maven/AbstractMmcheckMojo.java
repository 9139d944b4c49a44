package dev.mmcheck.maven;

import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

import java.io.File;

/**
 * The parameters every goal reads, declared once: where the reports go, whether to skip, the triage
 * ({@code failOn}, {@code suppress}, {@code baseline}) and the agent options; {@code prepare-agent} passes them to
 * the forks, {@code check} decides with them (failOn=, suppress= and baseline= in {@code options} count as the
 * parameters do).
 */
abstract class AbstractMmcheckMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    /** Skip: prepare-agent leaves the property alone (the tests run without the agent), check does nothing. */
    @Parameter(property = "mmcheck.skip", defaultValue = "false")
    boolean skip;

    /** Where each fork writes its JSON report, and where check merges them. */
    @Parameter(property = "mmcheck.reportDirectory", defaultValue = "${project.build.directory}/mmcheck")
    File reportDirectory;

    /** The categories that fail the build: race, relaxed, atomicity, separated by ':' or ',', or all (default); decided by check. */
    @Parameter(property = "mmcheck.failOn")
    String failOn;

    /** A file of suppression rules of reviewed findings (docs/user-guide.md); applied by check. */
    @Parameter(property = "mmcheck.suppress")
    File suppress;

    /** A baseline of known findings: written with the findings of this build when absent; later builds fail only on new ones. */
    @Parameter(property = "mmcheck.baseline")
    File baseline;

    /** Any other agent options, {@code KEY=VALUE,KEY=VALUE} (docs/agent.md); failOn=, suppress= and baseline= in it are read by check. */
    @Parameter(property = "mmcheck.options")
    String options;
}
