package dev.mmcheck.samples.litmus;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The litmus runner on real threads. These are real executions, so the test asserts only what must hold
 * on any correct JVM: every recorded run is a valid history that parses back and is checked (the runner
 * parses each one and fails otherwise), every run reaches the sink once with the class its values give
 * (classified again here) and the counts are those classes', and the runs the JMM promises to be
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
                // each run as the sink saw it, classified here again from its text: the counts must be these
                java.util.BitSet seen = new java.util.BitSet();
                java.util.Map<String, Integer> tally = new java.util.HashMap<>();
                List<String> wrong = new ArrayList<>();
                LitmusRunner.Counts c = LitmusRunner.run(t, v, runs(), (test, variant, run, history, verdict) -> {
                    if (run == 0) {
                        histories.add(history);
                    }
                    if (seen.get(run)) {
                        wrong.add("run " + run + " twice");
                    }
                    seen.set(run);
                    String mine = valuesVerdict(history);
                    tally.merge(mine, 1, Integer::sum);
                    if (!mine.equals(verdict)) {
                        wrong.add("run " + run + ": " + verdict + ", its values say " + mine);
                    }
                });
                all.add(c);
                assertEquals(List.of(), wrong, "runs of " + c);
                assertEquals(runs(), seen.cardinality(), "every run reached the sink: " + c);
                assertEquals(runs(), seen.nextClearBit(0), "runs 0.." + (runs() - 1) + ": " + c);
                assertEquals(runs(), c.runs(), c.toString());
                assertEquals(List.of(tally.getOrDefault("SC", 0), tally.getOrDefault("TSO-only", 0),
                        tally.getOrDefault("outside TSO", 0)), List.of(c.sc(), c.tsoOnly(), c.outsideTso()),
                        "counts of " + c + " against the runs' own values");
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

    /**
     * The history of one outcome of {@code t}, built from its programs as the runner builds them (no
     * times): {@code reads} are the values the threads' reads return, in thread order, then the final
     * x and y; the final thread reads the end markers (1) first.
     */
    private static dev.mmcheck.checker.history.History outcome(LitmusTest t, long... reads) throws Exception {
        var b = dev.mmcheck.checker.history.History.builder(t.label());
        int k = t.threads().size();
        for (int i = 0; i < k; i++) {
            b.thread("t" + i);
        }
        int[] ids = new int[t.vars()];
        for (int v = 0; v < t.vars(); v++) {
            ids[v] = b.variable(LitmusTest.variableName(v));
        }
        long none = dev.mmcheck.checker.history.History.NO_TIME;
        int r = 0;
        for (int i = 0; i < k; i++) {
            for (LitmusTest.Step s : t.threads().get(i)) {
                if (s.write()) {
                    b.write(i, ids[s.var()], s.value(), none, none, 0);
                } else {
                    b.read(i, ids[s.var()], reads[r++], none, none, 0);
                }
            }
        }
        if (t.finalReads()) {
            int fin = b.thread("final");
            for (int v = 2; v < t.vars(); v++) {
                b.read(fin, ids[v], 1, none, none, 0);
            }
            b.read(fin, ids[0], reads[r++], none, none, 0);
            b.read(fin, ids[1], reads[r++], none, none, 0);
        }
        assertEquals(reads.length, r, "values for every read");
        return b.build();
    }

    /** The class of a recorded run by the values it read alone (no times), from its text. */
    private static String valuesVerdict(String history) {
        try {
            var h = dev.mmcheck.checker.history.HistoryText.read("run", new java.io.StringReader(history));
            var r = dev.mmcheck.checker.history.HistoryChecker.check(h, dev.mmcheck.checker.history.HistoryChecker
                    .Options.defaults().withTimes(false).withAllCriteria(false));
            return r.sc().consistent() ? "SC" : r.tso().consistent() ? "TSO-only" : "outside TSO";
        } catch (Exception e) {
            throw new AssertionError("a recorded run does not parse: " + e + "\n" + history, e);
        }
    }

    private static String verdict(dev.mmcheck.checker.history.History h) {
        var r = dev.mmcheck.checker.history.HistoryChecker.check(h,
                dev.mmcheck.checker.history.HistoryChecker.Options.defaults().withAllCriteria(false));
        return r.sc().consistent() ? "SC" : r.tso().consistent() ? "TSO-only" : "outside TSO";
    }

    /**
     * The final values of 2+2W, R and S only mean something because each thread ends with an end marker
     * that the final thread reads first: the classic forbidden and TSO-only outcomes come out as such,
     * and a sequential outcome as SC. (Values: each variable's writes are numbered 1, 2 in the order of
     * the test's threads.)
     */
    @Test
    void endMarkersMakeFinalValuesTellTheStoreOrder() throws Exception {
        // 2+2W: t0 W x=1; W y=1 || t1 W y=2; W x=2. Final x=1, y=2: each thread's first write came last.
        assertEquals("outside TSO", verdict(outcome(LitmusTest.TWO_PLUS_TWO_W, 1, 2)));
        assertEquals("SC", verdict(outcome(LitmusTest.TWO_PLUS_TWO_W, 2, 2)));
        // R: t0 W x=1; W y=1 || t1 W y=2; R x. t1 reads x=0 and y ends 2: store buffering, TSO only.
        assertEquals("TSO-only", verdict(outcome(LitmusTest.R, 0, 1, 2)));
        assertEquals("SC", verdict(outcome(LitmusTest.R, 1, 1, 2)));
        // S: t0 W x=1; W y=1 || t1 R y; W x=2. t1 reads y=1 but x ends 1: forbidden under TSO.
        assertEquals("outside TSO", verdict(outcome(LitmusTest.S, 1, 1, 1)));
        assertEquals("SC", verdict(outcome(LitmusTest.S, 1, 2, 1)));
        // the same final values without the markers tell nothing: the final reads could run early
        var free = dev.mmcheck.checker.history.History.builder("2+2W without markers");
        int t0 = free.thread("t0");
        int t1 = free.thread("t1");
        int fin = free.thread("final");
        int x = free.variable("x");
        int y = free.variable("y");
        long none = dev.mmcheck.checker.history.History.NO_TIME;
        free.write(t0, x, 1, none, none, 0).write(t0, y, 1, none, none, 0);
        free.write(t1, y, 2, none, none, 0).write(t1, x, 2, none, none, 0);
        free.read(fin, x, 1, none, none, 0).read(fin, y, 2, none, none, 0);
        assertEquals("SC", verdict(free.build()));
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
