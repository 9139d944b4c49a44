package dev.mmcheck.samples.litmus;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The litmus runner on real threads. These are real executions, so the test asserts only what must hold
 * on any correct JVM: every recorded run is a valid history that parses back and is checked (the runner
 * parses each one and fails otherwise), the counts add up, and the runs the JMM promises to be
 * sequentially consistent are: every variant with only volatile accesses, and message passing with a
 * release write and an acquire read. How often plain SB shows store buffering is printed, not asserted.
 * {@code -Dmmcheck.litmus.runs=N} (default 300) runs per test and variant.
 */
class LitmusRunnerTest {

    private static int runs() {
        return Integer.getInteger("mmcheck.litmus.runs", 300);
    }

    @Test
    void everyRunIsCheckedAndWhatTheJmmPromisesHolds() {
        List<LitmusRunner.Counts> all = new ArrayList<>();
        List<String> histories = new ArrayList<>();
        for (LitmusTest t : LitmusTest.values()) {
            for (Variant v : Variant.values()) {
                LitmusRunner.Counts c = LitmusRunner.run(t, v, runs(), (test, variant, run, history, verdict) -> {
                    if (run == 0) {
                        histories.add(history);
                    }
                });
                all.add(c);
                assertEquals(c.runs(), c.sc() + c.tsoOnly() + c.outsideTso(), "counts of " + c);
                if (v == Variant.VOLATILE) {
                    assertEquals(c.runs(), c.sc(), "all-volatile runs must be SC: " + c);
                }
                if (t == LitmusTest.MP && v == Variant.RELEASE_ACQUIRE) {
                    assertEquals(c.runs(), c.sc(), "release/acquire message passing must be SC: " + c);
                }
            }
        }
        assertEquals(LitmusTest.values().length * Variant.values().length, histories.size());
        for (String h : histories) {
            assertTrue(h.startsWith("threads t0"), h);
        }
        for (String line : LitmusRunner.table(all)) {
            System.out.println(line);
        }
    }

    @Test
    void theSamplesMainRunsTheLitmusTestsAndPrintsTheirCounts() throws Exception {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream old = System.out;
        System.setOut(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            dev.mmcheck.samples.Samples.main(new String[] {"litmus", "--runs", "20", "--tests", "SB,2+2W",
                "--variants", "plain"});
        } finally {
            System.setOut(old);
        }
        String printed = buf.toString(java.nio.charset.StandardCharsets.UTF_8);
        for (String test : new String[] {"SB", "2+2W"}) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + java.util.regex.Pattern.quote(test)
                    + " +plain +20 +(\\d+) +(\\d+) +(\\d+) +\\d+$").matcher(printed);
            assertTrue(m.find(), "no line for " + test + " in:\n" + printed);
            assertEquals(20, Integer.parseInt(m.group(1)) + Integer.parseInt(m.group(2))
                    + Integer.parseInt(m.group(3)), printed);
        }
    }

    @Test
    void historiesRecordEveryOperationWithTimesInProgramOrder() {
        for (LitmusTest t : LitmusTest.values()) {
            var batch = LitmusRunner.batch(t, Variant.PLAIN, 20, 0);
            assertEquals(20, batch.size());
            int ops = t.threads().stream().mapToInt(List::size).sum() + (t.finalReads() ? t.vars() : 0);
            for (var h : batch) {
                assertEquals(ops, h.size(), t.label());
                assertTrue(h.timed(), t.label());
            }
        }
    }
}
