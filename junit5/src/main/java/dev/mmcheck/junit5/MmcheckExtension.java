package dev.mmcheck.junit5;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Findings per test: registered with {@code @ExtendWith(MmcheckExtension.class)} or by JUnit's extension
 * auto-detection ({@code junit.jupiter.extensions.autodetection.enabled=true}), it marks each test's
 * beginning and end for the mmcheck agent, which attributes every finding to the test during which it
 * was first seen; at the end of a test with findings, the test fails with an {@link AssertionError}
 * whose message is the findings as the summary prints them.
 *
 * <p>Configuration parameter {@code mmcheck.mode} ({@code junit-platform.properties} or {@code -D}):
 * {@code fail} (default), {@code warn} (print, do not fail), {@code off}. {@code mmcheck.timeout} (ms,
 * default 60000): how long the end of a test waits for the checker to catch up. Without the agent it
 * says so once and does nothing.
 */
public class MmcheckExtension implements BeforeEachCallback, AfterEachCallback {

    private static final AtomicBoolean SAID = new AtomicBoolean();

    /** What a test with findings does. */
    enum Mode {
        /** fails */
        FAIL,
        /** prints them */
        WARN,
        /** nothing */
        OFF
    }

    static Mode mode(ExtensionContext context) {
        String v = context.getConfigurationParameter("mmcheck.mode").orElse("fail").trim().toUpperCase(Locale.ROOT);
        try {
            return Mode.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mmcheck.mode=" + v.toLowerCase(Locale.ROOT)
                    + " must be fail, warn or off");
        }
    }

    /** Whether the agent is attached; says once when it is not. */
    static boolean attached() {
        boolean on;
        try {
            on = dev.mmcheck.runtime.TestHooks.attached();
        } catch (LinkageError e) {
            on = false; // the runtime is in the bootstrap class loader only with the agent
        }
        if (!on && SAID.compareAndSet(false, true)) {
            System.err.println("mmcheck: the agent is not attached (-javaagent:mmcheck.jar): MmcheckExtension "
                    + "does nothing");
        }
        return on;
    }

    /** The name a test is reported by: class, method, and the display name when it is not the method's. */
    static String name(ExtensionContext context) {
        String cls = context.getRequiredTestClass().getSimpleName();
        String method = context.getTestMethod().map(m -> m.getName()).orElse("?");
        String display = context.getDisplayName();
        return cls + "." + method + (display.equals(method + "()") ? "()" : "() [" + display + "]");
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (mode(context) != Mode.OFF && attached()) {
            dev.mmcheck.runtime.TestHooks.begin(name(context));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Mode mode = mode(context);
        if (mode == Mode.OFF || !attached()) {
            return;
        }
        long timeout = context.getConfigurationParameter("mmcheck.timeout").map(Long::parseLong).orElse(60_000L);
        String[] findings = dev.mmcheck.runtime.TestHooks.end(name(context), timeout);
        if (findings.length == 0) {
            return;
        }
        String message = "mmcheck: " + findings.length + (findings.length == 1 ? " finding" : " findings")
                + " during " + name(context) + stressNote(context) + ":\n" + String.join("\n\n", findings)
                + reproduceNote(name(context));
        if (mode == Mode.WARN) {
            System.err.println(message);
            return;
        }
        MmcheckStress.Provider.found(context);
        throw new AssertionError(message);
    }

    /** With trace=: the command that replays this test's trace (or the run's, which holds its events), offline. */
    private static String reproduceNote(String test) {
        String note = dev.mmcheck.runtime.TestHooks.reproduce(test);
        return note == null ? "" : "\n\n" + note;
    }

    private static String stressNote(ExtensionContext context) {
        Long seed = MmcheckStress.Provider.seedOf(context);
        return seed == null ? "" : " (schedule seed " + seed + ": repeat with @MmcheckStress(seed = " + seed
                + ") or -Dmmcheck.seed=" + seed + ")";
    }
}
