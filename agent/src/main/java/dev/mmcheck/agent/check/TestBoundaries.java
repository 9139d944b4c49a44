package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * JUnit test boundaries: a test's thread asks (any thread), the checker thread serves the boundary once it has taken
 * every event produced when it first saw it; the findings first seen since the test began are the test's.
 */
final class TestBoundaries {

    /** A test boundary a test's thread waits on (or not), served between passes. */
    private static final class Boundary {
        final String test;
        final boolean begins;
        final CompletableFuture<String[]> done = new CompletableFuture<>();
        long target = -1;

        Boundary(String test, boolean begins) {
            this.test = test;
            this.begins = begins;
        }
    }

    private final ConcurrentLinkedQueue<Boundary> boundaries = new ConcurrentLinkedQueue<>();
    /** Findings already seen, by key (checker thread). */
    private final Set<String> seenKeys = new HashSet<>();
    private final Map<String, List<String>> testsByKey = new ConcurrentHashMap<>();
    private final FindingsView view;
    private final TraceTee traces;
    private final Map<String, java.nio.file.Path> traceByTest = new ConcurrentHashMap<>();

    /** Boundaries whose findings are seen through {@code view}; a test's end ends its trace in {@code traces} (or null). */
    TestBoundaries(FindingsView view, TraceTee traces) {
        this.view = view;
        this.traces = traces;
    }

    /** Test {@code test}'s own trace, once its end was served (the last, for a name that ran twice), or null. Any thread. */
    java.nio.file.Path trace(String test) {
        return traceByTest.get(test);
    }

    /** Test {@code test} begins or ends; the future gives its findings' summary paragraphs. Any thread. */
    CompletableFuture<String[]> add(String test, boolean begins) {
        Boundary b = new Boundary(test, begins);
        boundaries.add(b);
        return b.done;
    }

    /** Whether no boundary waits. */
    boolean isEmpty() {
        return boundaries.isEmpty();
    }

    /** The tests during which each finding (by key) was first seen. */
    Map<String, List<String>> testsByKey() {
        return testsByKey;
    }

    /** Serves the first boundary if {@code loop} has taken every event produced when it first saw it. Checker thread. */
    void serve(CheckerLoop loop, Checker checker) {
        Boundary b = boundaries.peek();
        if (b.target < 0) {
            b.target = loop.produced(); // every event its thread logged before asking, and then some
        }
        Throwable failure = loop.failure();
        if (loop.consumed() < b.target && failure == null) {
            return;
        }
        boundaries.poll();
        List<String> lines = new ArrayList<>();
        int i = 1;
        for (FindingsView.Shown f : view.findings(checker)) {
            if (seenKeys.add(f.key()) && !b.begins) {
                testsByKey.computeIfAbsent(f.key(), k -> new ArrayList<>()).add(b.test);
                lines.add(f.describe(i++, b.test));
            }
        }
        if (!b.begins && traces != null) {
            java.nio.file.Path file = traces.endTest(b.test); // before done: the test's thread reads it after end()
            if (file != null) {
                traceByTest.put(b.test, file);
            }
        }
        if (failure != null && !b.begins) {
            lines.add("mmcheck: INCOMPLETE: checking stopped at event " + loop.failureAt() + " (" + failure
                    + "): this test was not checked");
        }
        b.done.complete(lines.toArray(new String[0]));
    }

    /** Completes every waiting boundary with no findings: the run is ending, nobody is to wait on the checker. */
    void endAll() {
        for (Boundary b; (b = boundaries.poll()) != null; ) {
            b.done.complete(new String[0]);
        }
    }
}
