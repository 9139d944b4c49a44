package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;

import java.util.function.Consumer;

/** The progress lines (progress=): one every few seconds, written by the checker thread. */
final class Progress {

    private final long periodNanos;
    private final Consumer<String> out;
    private final long started;
    private long next;
    private long lastConsumed;
    private long lastAt;

    /** A line to {@code out} every {@code seconds} seconds from now. */
    Progress(int seconds, Consumer<String> out) {
        this.periodNanos = seconds * 1_000_000_000L;
        this.out = out;
        this.started = System.nanoTime();
        this.next = started + periodNanos;
        this.lastAt = started;
    }

    /** Whether a line is due. */
    boolean due() {
        return System.nanoTime() >= next;
    }

    /** One line: events checked and their rate, the backlog, findings so far, the checker's tables. */
    void print(CheckerLoop loop, Checker checker, FindingsView view, Addresses addresses) {
        long now = System.nanoTime();
        next = now + periodNanos;
        long checked = loop.consumed();
        double rate = (checked - lastConsumed) / Math.max(1e-9, (now - lastAt) / 1e9);
        lastConsumed = checked;
        lastAt = now;
        long backlog = Math.max(0, loop.produced() - checked);
        int findings = view.findings(checker).size();
        long tables = addresses.tableBytes();
        Throwable failure = loop.failure();
        out.accept(String.format("mmcheck: progress at %d s: %,d events checked (%,.0f/s), backlog %,d, "
                + "%d findings so far, checker tables ~%,d MB of %,d MB%s", (now - started) / 1_000_000_000L, checked,
                rate, backlog, findings, tables >> 20, addresses.bound() >> 20, failure == null ? ""
                        : ", CHECKING STOPPED (" + failure + ")"));
    }
}
