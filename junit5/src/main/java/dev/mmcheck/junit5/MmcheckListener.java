package dev.mmcheck.junit5;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.util.Locale;

/**
 * Test boundaries for every JUnit Platform engine: registered through {@code META-INF/services} whenever
 * {@code mmcheck-junit5} is on the test class path, the launcher tells it when each test begins and ends, whatever
 * engine runs it (JUnit 4 tests through Vintage, TestNG's engine, Jupiter), and it tells the agent, which attributes
 * each finding to the test during which it was first seen ({@code violations[].tests}) and names the run by its test
 * classes. It cannot fail a test (only {@link MmcheckExtension} can, for Jupiter's): at a test's end it prints the
 * findings no extension took, one paragraph each, on standard error. A Jupiter test with the extension too gets the
 * same name from both, and its findings once, from the extension. {@code mmcheck.mode=off} turns it off; without the
 * agent it does nothing and says nothing.
 */
public class MmcheckListener implements TestExecutionListener {

    private volatile boolean on;
    private volatile long timeout = 60_000L;

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        String mode = plan.getConfigurationParameters().get("mmcheck.mode").orElse("fail").trim()
                .toLowerCase(Locale.ROOT);
        timeout = plan.getConfigurationParameters().get("mmcheck.timeout").map(Long::parseLong).orElse(60_000L);
        on = !mode.equals("off") && attached();
    }

    /** Whether the agent is attached; quietly (this listener is loaded wherever the jar is, agent or not). */
    private static boolean attached() {
        try {
            return dev.mmcheck.runtime.TestHooks.attached();
        } catch (LinkageError e) {
            return false; // the runtime is there only with the agent
        }
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        if (on && test.isTest()) {
            dev.mmcheck.runtime.TestHooks.begin(name(test));
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!on || !test.isTest()) {
            return;
        }
        String[] findings = dev.mmcheck.runtime.TestHooks.end(name(test), timeout);
        if (findings.length > 0) {
            String reproduce = dev.mmcheck.runtime.TestHooks.reproduce(name(test));
            System.err.println("mmcheck: " + findings.length + (findings.length == 1 ? " finding" : " findings")
                    + " during " + name(test) + " (not failing it: only MmcheckExtension fails a JUnit Jupiter test; "
                    + "the report lists them):\n" + String.join("\n\n", findings)
                    + (reproduce == null ? "" : "\n\n" + reproduce));
        }
    }

    /**
     * The name a test is reported by, as {@link MmcheckExtension#name} gives it: the class's simple name, the method,
     * and the display name when it is not the method's ({@code FlagsTest.racy()}, {@code QueueTest.offer() [3]}).
     */
    static String name(TestIdentifier test) {
        if (test.getSource().orElse(null) instanceof MethodSource m) {
            String cls = m.getClassName();
            cls = cls.substring(cls.lastIndexOf('.') + 1);
            cls = cls.substring(cls.lastIndexOf('$') + 1);
            String method = m.getMethodName();
            String display = test.getDisplayName();
            return cls + "." + method + (display.equals(method + "()") || display.equals(method) ? "()"
                    : "() [" + display + "]");
        }
        return test.getDisplayName();
    }
}
