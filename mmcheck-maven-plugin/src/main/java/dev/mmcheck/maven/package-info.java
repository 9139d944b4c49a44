/**
 * mmcheck's Maven plugin (issue 33, docs/build.md): {@code prepare-agent} and {@code prepare-agent-integration} put
 * mmcheck.jar, taken from the plugin's own dependencies, on Surefire's and Failsafe's {@code argLine}; {@code check}
 * merges the reports of every fork and fails the build on findings.
 *
 * <p>Rules of this package:
 * <ul>
 *   <li>No option is parsed or checked here that the agent parses: {@link dev.mmcheck.agent.Options} validates
 *       what the goals pass on, and its one-line message is the build's error.</li>
 *   <li>The forks only record: they never fail their JVM (Surefire would report a crash, not a finding); the
 *       decision (failOn, suppressions, baseline, an incomplete run) is made once, by {@code check}, on the
 *       merged findings, in {@link dev.mmcheck.maven.CheckMojo#decide}.</li>
 *   <li>Merging and every output are the checker's own ({@code mmcheck merge}'s code); nothing is reimplemented.</li>
 * </ul>
 */
package dev.mmcheck.maven;
