package dev.mmcheck.samples;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs one sample by name: {@code java -jar sample-apps/target/sample-apps.jar NAME}. With no name it
 * lists the samples, in reading order, with their expected verdicts.
 */
public final class Samples {

    private static final Map<String, Supplier<Runnable>> SAMPLES = new LinkedHashMap<>();
    private static final Map<String, String> VERDICTS = new LinkedHashMap<>();

    static {
        add("S01_DekkerPlain", S01_DekkerPlain::new, "TSO and PSO violation");
    }

    private Samples() {
    }

    private static void add(String name, Supplier<Runnable> sample, String verdict) {
        SAMPLES.put(name, sample);
        VERDICTS.put(name, verdict);
    }

    /** Runs the sample named by the first argument, or lists them. */
    public static void main(String[] args) {
        if (args.length != 1 || !SAMPLES.containsKey(args[0])) {
            if (args.length == 1) {
                System.err.println("samples: no sample named '" + args[0] + "'");
            }
            System.err.println("usage: java -jar sample-apps.jar NAME, one of:");
            VERDICTS.forEach((n, v) -> System.err.println("  " + n + "  (expected: " + v + ")"));
            System.exit(2);
        }
        SAMPLES.get(args[0]).get().run();
    }

    /** Joins {@code t}, restoring the interrupt flag if interrupted. */
    static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining " + t.getName(), e);
        }
    }
}
