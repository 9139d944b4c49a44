package demo;

import org.junit.jupiter.api.Test;

/** Two threads race on two plain fields, many times over: mmcheck finds the store-buffering race. */
class RacyTest {

    @Test
    void plainFlags() throws InterruptedException {
        Flags f = new Flags();
        Thread t = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                f.right();
            }
        });
        t.start();
        for (int i = 0; i < 2000; i++) {
            f.left();
        }
        t.join();
    }
}
