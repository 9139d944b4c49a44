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
        loop.testBoundary(name, true); // not waited for: the findings before it are no test's
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
