package dev.mmcheck.samples.exits;

/**
 * Ends the JVM in the middle of racing threads, by System.exit(3) or by an uncaught exception; or by
 * System.exit(3) after replacing System.out and System.err with streams that print nothing, as a test
 * runner (Surefire) does while tests run.
 */
public final class ExitsEarly {

    static int x;
    static int y;

    private ExitsEarly() {
    }

    /** {@code exit}, {@code throw} or {@code swallow}. */
    public static void main(String[] args) throws Exception {
        Thread racer = new Thread(() -> {
            for (int i = 0; ; i++) {
                x = i;
                java.lang.invoke.VarHandle.fullFence(); // an event no address orders, racing the exit too
                if (y == -1) {
                    return;
                }
            }
        }, "racer");
        racer.setDaemon(true);
        racer.start();
        for (int i = 0; i < 100_000; i++) {
            y = i;
            if (x == -1) {
                break;
            }
        }
        if (args[0].equals("swallow")) {
            System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            System.exit(3);
        }
        if (args[0].equals("exit")) {
            System.exit(3);
        }
        throw new IllegalStateException("uncaught, on purpose");
    }
}
