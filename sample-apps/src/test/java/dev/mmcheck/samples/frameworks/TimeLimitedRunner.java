package dev.mmcheck.samples.frameworks;

/**
 * Stands for a test framework the agent excludes (JUnit 4's FailOnTimeout): it runs a test body on a
 * thread of its own, started and joined here. Run with {@code excludes=dev.mmcheck.samples.frameworks.*Runner}:
 * the body's data accesses are checked, the runner's are not, and its start and join must still order
 * the body's thread after what main did before (ExcludedSynchronizationIT).
 */
public final class TimeLimitedRunner {

    private TimeLimitedRunner() {
    }

    /** Sets the fixture up on main, runs the check on a "Time-limited test" thread, 200 times. */
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 200; i++) {
            FieldsTest test = new FieldsTest();
            test.setUp();
            Thread t = new Thread(test::check, "Time-limited test");
            t.start();
            t.join();
        }
        System.out.println("TimeLimitedRunner: done");
    }
}
