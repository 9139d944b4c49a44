package dev.mmcheck.agent.check;

import dev.mmcheck.runtime.TestHooks;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The agent's side of {@link TestHooks}: a test's beginning and end become boundaries the checker thread
 * serves between passes, so that each finding is attributed to the test during which the checker first
 * saw it once every event logged before the test ended was taken. Runs on the test's thread.
 */
public final class TestBridge implements TestHooks.Bridge {

    private final CheckerLoop loop;
    private final java.util.Set<String> classes = java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());
    private final java.nio.file.Path trace;
    private final String models;

    /**
     * A bridge to {@code loop}; {@code trace} is trace='s file (null: none), a test's own with {@code %t} in its
     * name, which a failing test names in the {@code mmcheck replay} command (with {@code --models models}) that
     * reproduces its findings offline.
     */
    public TestBridge(CheckerLoop loop, java.nio.file.Path trace, String models) {
        this.loop = loop;
        this.trace = trace == null ? null : trace.toAbsolutePath();
        this.models = models;
    }

    @Override
    public void begin(String name) {
        int dot = name.indexOf('.');
        classes.add(dot > 0 ? name.substring(0, dot) : name); // "FlagsTest.racy()": the run names its test classes
        loop.testBoundary(name, true); // not waited for: the findings before it are no test's
    }

    /** The test classes (simple names) whose tests began, in the order first seen. */
    public java.util.List<String> testClasses() {
        synchronized (classes) {
            return java.util.List.copyOf(classes);
        }
    }

    @Override
    public String reproduce(String name) {
        if (trace == null) {
            return null;
        }
        if (TraceTee.perTest(trace)) {
            java.nio.file.Path own = loop.testTrace(name);
            return own == null ? null : "reproduce offline: mmcheck replay " + own + " --models " + models
                    + " (this test's events, and those since the previous test ended)";
        }
        return "reproduce offline, once the test JVM has ended: mmcheck replay " + trace + " --models " + models;
    }

    @Override
    public String[] end(String name, long timeoutMillis) {
        try {
            return loop.testBoundary(name, false).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return new String[] {"mmcheck: the checker did not catch up with this test within " + timeoutMillis
                    + " ms: its findings, if any, are in the report at exit (attributed to a later test)"};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new String[0];
        } catch (ExecutionException e) {
            return new String[] {"mmcheck: INCOMPLETE: " + e.getCause()};
        }
    }
}
