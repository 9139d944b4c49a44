package dev.mmcheck.maven;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ArgLineTest {

    private static final String JAR = "/m2/mmcheck-agent-agent.jar";
    private static final String OURS = ArgLine.javaagent(JAR, "report=/t/fork-%p.json");

    @Test
    void anEmptyOrMissingLineIsTheAgentAlone() {
        assertEquals(OURS, ArgLine.with(null, JAR, OURS));
        assertEquals(OURS, ArgLine.with("  ", JAR, OURS));
    }

    @Test
    void otherJvmArgumentsComeAfterTheAgent() {
        assertEquals(OURS + " -Xmx1g -Dx=1", ArgLine.with("-Xmx1g -Dx=1", JAR, OURS));
    }

    @Test
    void anotherAgentTransformsFirstSoJacocoSeesTheClassFilesItReportsOn() {
        String jacoco = "-javaagent:/m2/org.jacoco.agent-runtime.jar=destfile=/t/jacoco.exec";
        assertEquals(jacoco + " " + OURS + " -Xmx1g", ArgLine.with(jacoco + " -Xmx1g", JAR, OURS));
        String quoted = "\"-javaagent:/my dir/jacoco.jar=destfile=/t/j.exec\"";
        assertEquals("-ea " + quoted + " " + OURS, ArgLine.with("-ea " + quoted, JAR, OURS));
    }

    @Test
    void anEarlierArgumentOfTheSameJarIsReplaced() {
        String earlier = ArgLine.javaagent(JAR, "report=/t/fork-%p.json");
        String later = ArgLine.javaagent(JAR, "report=/t/it-%p.json");
        assertEquals(later + " -Xmx1g", ArgLine.with(earlier + " -Xmx1g", JAR, later));
    }

    @Test
    void aPathWithASpaceIsQuotedWhole() {
        assertEquals("\"-javaagent:/my dir/a.jar=report=/t/x.json\"", ArgLine.javaagent("/my dir/a.jar", "report=/t/x.json"));
        String ours = ArgLine.javaagent("/my dir/a.jar", "report=/t/y.json");
        assertEquals(ours + " -ea", ArgLine.with(ArgLine.javaagent("/my dir/a.jar", "report=/t/x.json") + " -ea",
                "/my dir/a.jar", ours));
    }
}
