package demo;

import dev.mmcheck.junit5.MmcheckExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Dekker's flags twice: plain (racy: the test fails with the finding) and volatile (passes). */
@ExtendWith(MmcheckExtension.class)
class FlagsTest {

    static int plain1;
    static int plain2;
    static volatile int volatile1;
    static volatile int volatile2;

    @Test
    void plainFlags() throws Exception {
        Thread a = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                plain1 = 1; // mmcheck:store
                if (plain2 == 0) { // mmcheck:access
                    Thread.onSpinWait();
                }
                plain1 = 0;
            }
        });
        Thread b = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                plain2 = 1;
                if (plain1 == 0) {
                    Thread.onSpinWait();
                }
                plain2 = 0;
            }
        });
        a.start();
        b.start();
        a.join();
        b.join();
    }

    @Test
    void volatileFlags() throws Exception {
        Thread a = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                volatile1 = 1;
                if (volatile2 == 0) {
                    Thread.onSpinWait();
                }
                volatile1 = 0;
            }
        });
        Thread b = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                volatile2 = 1;
                if (volatile1 == 0) {
                    Thread.onSpinWait();
                }
                volatile2 = 0;
            }
        });
        a.start();
        b.start();
        a.join();
        b.join();
    }
}
