package dev.mmcheck.checker.monitor;

/**
 * Settings shared by the monitors. Immutable; {@code with*} methods return modified copies.
 *
 * @param bufferBound   a thread's store buffer holds at most this many stores; when it would hold more,
 *                      its oldest store commits (a legal TSO/PSO step, so reports stay sound)
 * @param psoPaperInterlocked in PSO, an interlocked operation commits only its own address (the
 *                      paper's model) instead of all of the thread's buffers (Java's CAS)
 * @param soberWindow   how many recent writes per address Sober's scan can look back over
 * @param everyPendingStore an access is checked against every store of another thread still buffered
 *                      to its address, not only the last one (Burnim et al. Fig. 4-5 check the last);
 *                      and in PSO a thread's second store to an address no longer commits its first
 *                      (docs/monitors.md, "Every pending store")
 * @param jmmAddresses  the jmm analysis tracks at most this many live addresses at once (its views grow with
 *                      them); past it, it forgets its history and says so (docs/jmm-model.md)
 * @param jmmValidatedReads the jmm analysis drops a stale read that a re-read of a version validates, as a seqlock's
 *                      reader throws the data away (docs/jmm-model.md, "Seqlocks"); false reports every stale read
 * @param jmmWriteLog   the jmm analysis keeps at least this many latest writes of each location, and at most twice
 *                      that (older ones can no longer be read; it counts the checks that may have lost a report so);
 *                      {@link Integer#MAX_VALUE}: every write
 */
public record MonitorConfig(int bufferBound, boolean psoPaperInterlocked, int soberWindow,
        boolean everyPendingStore, int jmmAddresses, boolean jmmValidatedReads, int jmmWriteLog) {

    /** Settings with validated reads on and a jmm write log of 1024 writes (JmmAnalyzer.DEFAULT_WRITE_LOG). */
    public MonitorConfig(int bufferBound, boolean psoPaperInterlocked, int soberWindow, boolean everyPendingStore,
            int jmmAddresses) {
        this(bufferBound, psoPaperInterlocked, soberWindow, everyPendingStore, jmmAddresses, true, 1024);
    }

    /** Java semantics, buffers of 4096 stores, a Sober window of 64 writes, every pending store checked, 256 jmm addresses (JmmAnalyzer.DEFAULT_BOUND). */
    public static MonitorConfig defaults() {
        return new MonitorConfig(4096, false, 64, true, 256);
    }

    /** The papers' own semantics: PSO interlocked commits only its address (every pending store checked). */
    public static MonitorConfig paper() {
        return new MonitorConfig(Integer.MAX_VALUE, true, 1 << 16, true, 256);
    }

    /** A copy with another buffer bound. */
    public MonitorConfig withBufferBound(int bound) {
        return new MonitorConfig(bound, psoPaperInterlocked, soberWindow, everyPendingStore, jmmAddresses,
                jmmValidatedReads, jmmWriteLog);
    }

    /** A copy whose jmm analysis tracks at most {@code addresses} live addresses at once. */
    public MonitorConfig withJmmAddresses(int addresses) {
        return new MonitorConfig(bufferBound, psoPaperInterlocked, soberWindow, everyPendingStore, addresses,
                jmmValidatedReads, jmmWriteLog);
    }

    /** A copy that checks every pending store ({@code true}) or only the last one, as the paper does. */
    public MonitorConfig withEveryPendingStore(boolean every) {
        return new MonitorConfig(bufferBound, psoPaperInterlocked, soberWindow, every, jmmAddresses,
                jmmValidatedReads, jmmWriteLog);
    }

    /** A copy whose jmm analysis keeps at least {@code writes} latest writes of each location ({@code MAX_VALUE}: all). */
    public MonitorConfig withJmmWriteLog(int writes) {
        return new MonitorConfig(bufferBound, psoPaperInterlocked, soberWindow, everyPendingStore, jmmAddresses,
                jmmValidatedReads, writes);
    }

    /** A copy whose jmm analysis drops stale reads a re-read validates ({@code true}) or reports every one. */
    public MonitorConfig withJmmValidatedReads(boolean validated) {
        return new MonitorConfig(bufferBound, psoPaperInterlocked, soberWindow, everyPendingStore, jmmAddresses,
                validated, jmmWriteLog);
    }
}
