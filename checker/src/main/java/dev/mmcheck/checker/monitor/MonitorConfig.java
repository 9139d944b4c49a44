package dev.mmcheck.checker.monitor;

/**
 * Settings shared by the monitors. Immutable; {@code with*} methods return modified copies.
 *
 * @param bufferBound   a thread's store buffer holds at most this many stores; when it would hold more,
 *                      its oldest store commits (a legal TSO/PSO step, so reports stay sound)
 * @param psoPaperInterlocked in PSO, an interlocked operation commits only its own address (the
 *                      paper's model) instead of all of the thread's buffers (Java's CAS)
 * @param soberWindow   how many recent writes per address Sober's scan can look back over
 */
public record MonitorConfig(int bufferBound, boolean psoPaperInterlocked, int soberWindow) {

    /** Java semantics, buffers of 4096 stores, a Sober window of 64 writes. */
    public static MonitorConfig defaults() {
        return new MonitorConfig(4096, false, 64);
    }

    /** The papers' own semantics: PSO interlocked commits only its address. */
    public static MonitorConfig paper() {
        return new MonitorConfig(Integer.MAX_VALUE, true, 1 << 16);
    }

    /** A copy with another buffer bound. */
    public MonitorConfig withBufferBound(int bound) {
        return new MonitorConfig(bound, psoPaperInterlocked, soberWindow);
    }

    /** A copy with another Sober window. */
    public MonitorConfig withSoberWindow(int window) {
        return new MonitorConfig(bufferBound, psoPaperInterlocked, window);
    }
}
