package dev.mmcheck.samples.frameworks;

/**
 * A test class whose fields main writes before the runner starts the test thread, which reads them in
 * the other order: correct (Thread.start orders them), but with the start unseen a PSO monitor would
 * report the store to {@code a} still buffered when {@code b} was already read.
 */
public final class FieldsTest {

    int a;
    int b;

    /** On main, before the test thread starts. */
    void setUp() {
        a = 1;
        b = 1;
    }

    /** On the test thread. */
    void check() {
        if (b != 1 || a != 1) {
            throw new AssertionError("the fixture was not set up");
        }
    }
}
