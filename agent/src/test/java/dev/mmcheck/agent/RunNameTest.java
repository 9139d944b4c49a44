package dev.mmcheck.agent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The run's name in the summary and the report: the program, or the fork, its module and its tests. */
class RunNameTest {

    private static final String BOOTER = "/home/u/lib/target/surefire/surefirebooter-20261128005022905_3.jar "
            + "/home/u/lib/target/surefire 2026-11-28T00-50-22_905-jvmRun2 surefire-20261128005022905_1tmp "
            + "surefire_0-20261128005022905_2tmp";

    @Test
    void aSurefireForkIsNamedByItsNumberModuleAndTestsNotTheBootersCommandLine() {
        assertTrue(RunName.forkedBooter(BOOTER));
        assertEquals("surefire fork 2 of lib: tests FlagsTest, QueueTest", RunName.of(BOOTER,
                List.of("FlagsTest", "QueueTest")));
        assertEquals("surefire fork 2 of lib", RunName.of(BOOTER, List.of()));
        assertEquals("surefire fork 2 of lib: tests A, B, C, D, E and 2 more",
                RunName.of(BOOTER, List.of("A", "B", "C", "D", "E", "F", "G")));
        assertEquals("failsafe fork 1 of app", RunName.of("org.apache.maven.surefire.booter.ForkedBooter "
                + "/w/app/target/failsafe 2026-11-28T00-50-22_905-jvmRun1 a b", List.of()));
    }

    @Test
    void aProgramIsNamedByItsCommandLineAndTheTestsItRan() {
        assertFalse(RunName.forkedBooter("app.jar S01_DekkerPlain"));
        assertEquals("app.jar S01_DekkerPlain", RunName.of("app.jar S01_DekkerPlain", List.of()));
        assertEquals("worker.org.gradle.process.internal.worker.GradleWorkerMain 'Gradle Test Executor 1': tests T",
                RunName.of("worker.org.gradle.process.internal.worker.GradleWorkerMain 'Gradle Test Executor 1'",
                        List.of("T")));
        assertEquals("the JVM", RunName.of("", List.of()));
    }
}
