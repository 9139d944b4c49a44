package dev.mmcheck.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * {@code mmcheck:prepare-agent-integration}: as {@code prepare-agent}, for Failsafe's forks, each writing
 * {@code it-PID.json}.
 */
@Mojo(name = "prepare-agent-integration", defaultPhase = LifecyclePhase.PRE_INTEGRATION_TEST,
        requiresDependencyResolution = ResolutionScope.NONE, threadSafe = true)
public class PrepareAgentIntegrationMojo extends AbstractAgentMojo {

    @Override
    String reportName() {
        return "it-%p.json";
    }
}
