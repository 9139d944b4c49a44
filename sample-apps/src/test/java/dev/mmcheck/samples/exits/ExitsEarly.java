package dev.mmcheck.samples.exits;

/**
 * Ends the JVM in the middle of racing threads, by System.exit(3) or by an uncaught exception; or by
 * System.exit(3) after replacing System.out and System.err with streams that print nothing, as a test
 * runner (Surefire) does while tests run; or ({@code hook FILE}) by System.exit(0) with a shutdown hook of its own
 * that writes FILE after five seconds, as JaCoCo's agent writes its coverage file.
 */
public final class ExitsEarly {

    static int x;
    static int y;

    private ExitsEarly() {
    }

    /** {@code exit}, {@code throw}, {@code swallow} or {@code hook FILE}. */
    public static void main(String[] args) throws Exception {
        if (args[0].equals("hook")) {
            java.nio.file.Path file = java.nio.file.Path.of(args[1]);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(5000);
                    java.nio.file.Files.writeString(file, "written by the application's shutdown hook");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "another agent's hook"));
        }
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
        if (args[0].equals("hook")) {
            System.exit(0);
        }
        throw new IllegalStateException("uncaught, on purpose");
    }
}
