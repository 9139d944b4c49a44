package demo;

import org.junit.jupiter.api.Test;

/** Dekker's handshake with plain fields: both threads may read 0 on TSO. mmcheck must fail the build. */
class DekkerTest {

    int x;
    int y;
    int r1;
    int r2;

    @Test
    void handshake() throws Exception {
        for (int i = 0; i < 200; i++) {
            x = 0;
            y = 0;
            Thread a = new Thread(() -> {
                x = 1;
                Thread.yield();
                r1 = y;
            });
            Thread b = new Thread(() -> {
                y = 1;
                Thread.yield();
                r2 = x;
            });
            a.start();
            b.start();
            a.join();
            b.join();
        }
    }
}
