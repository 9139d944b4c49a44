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
    private final String replay;

    /**
     * A bridge to {@code loop}; {@code replay} is the command that replays the run's trace (trace=), added to a
     * test's findings so that a failing test says how to reproduce them offline, or null without a trace.
     */
    public TestBridge(CheckerLoop loop, String replay) {
        this.loop = loop;
        this.replay = replay;
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
    public String reproduce() {
        return replay;
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
