package dev.mmcheck.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * {@code mmcheck:prepare-agent}: puts mmcheck.jar on {@code argLine} for Surefire's forks, each writing
 * {@code fork-PID.json} into the report directory.
 */
@Mojo(name = "prepare-agent", defaultPhase = LifecyclePhase.INITIALIZE, requiresDependencyResolution = ResolutionScope.NONE,
        threadSafe = true)
public class PrepareAgentMojo extends AbstractAgentMojo {

    @Override
    String reportName() {
        return "fork-%p.json";
    }
}
