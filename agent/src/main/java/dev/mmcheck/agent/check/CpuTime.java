package dev.mmcheck.agent.check;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** The CPU time the current thread used, where the runtime can measure it. */
final class CpuTime {

    private CpuTime() {
    }

    /** Nanoseconds of CPU the calling thread used so far, -1 when not measured. */
    static long ownNanos() {
        try {
            ThreadMXBean m = ManagementFactory.getThreadMXBean();
            return m.isCurrentThreadCpuTimeSupported() ? m.getCurrentThreadCpuTime() : -1;
        } catch (RuntimeException | LinkageError e) {
            return -1; // a runtime without java.management: not measured
        }
    }
}
