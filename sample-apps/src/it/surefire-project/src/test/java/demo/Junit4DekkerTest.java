package demo;

import org.junit.Test;

/**
 * Dekker's handshake with plain fields, as a JUnit 4 test (run through the Vintage engine): the finding is
 * attributed to this test by mmcheck-junit5's listener, as for a Jupiter test.
 */
public class Junit4DekkerTest {

    int x;
    int y;
    int r1;
    int r2;

    @Test
    public void handshake() throws Exception {
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
