package demo;

import org.junit.jupiter.api.Test;

/** The same protocol on volatile fields: nothing to find. */
class CleanTest {

    @Test
    void volatileFlags() throws InterruptedException {
        Flags f = new Flags();
        Thread t = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                f.volatileRight();
            }
        });
        t.start();
        for (int i = 0; i < 2000; i++) {
            f.volatileLeft();
        }
        t.join();
    }
}
