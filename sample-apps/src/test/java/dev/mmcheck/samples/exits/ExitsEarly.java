package dev.mmcheck.samples.exits;

/** Ends the JVM in the middle of racing threads, by System.exit(3) or by an uncaught exception. */
public final class ExitsEarly {

    static int x;
    static int y;

    private ExitsEarly() {
    }

    /** {@code exit} or {@code throw}. */
    public static void main(String[] args) throws Exception {
        Thread racer = new Thread(() -> {
            for (int i = 0; ; i++) {
                x = i;
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
        if (args[0].equals("exit")) {
            System.exit(3);
        }
        throw new IllegalStateException("uncaught, on purpose");
    }
}
