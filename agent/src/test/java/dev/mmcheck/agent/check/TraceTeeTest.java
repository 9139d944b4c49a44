package dev.mmcheck.agent.check;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.trace.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trace tee: one file for the run, or one per test with {@code %t} in the name, each readable on its own. */
class TraceTeeTest {

    @TempDir
    Path dir;

    /** Names as the agent's give them: threads 1 and 2, addresses 0-3, a site per address (10-13). */
    private static Symbols names() {
        Symbols s = new Symbols();
        for (int t = 0; t < 3; t++) {
            s.defineThread(t, "T" + t);
        }
        for (int a = 0; a < 4; a++) {
            s.defineAddress(a, "Obj#1.f" + a);
        }
        for (int i = 0; i < 14; i++) {
            s.defineSite(i, Site.at("Obj.java", i + 1));
        }
        return s;
    }

    private static void store(TraceTee tee, int thread, int address) {
        tee.event(dev.mmcheck.runtime.Kinds.STORE, thread, address, 10 + address);
    }

    private static int events(Path file) throws Exception {
        EventBuffer b = new EventBuffer();
        assertTrue(TraceFiles.read(file, new Symbols(), b).complete(), file + " is a whole trace");
        return b.size();
    }

    @Test
    void oneFileForTheRunWithoutPercentT() throws Exception {
        Path file = dir.resolve("run.mmct");
        TraceTee tee = new TraceTee(file, names());
        store(tee, 1, 0);
        assertNull(tee.endTest("A.a()"), "no test files without %t");
        store(tee, 1, 1);
        tee.close();
        assertEquals(2, events(file));
        assertEquals("mmcheck: trace written to " + file.toAbsolutePath(), tee.describe());
    }

    @Test
    void perTestEachFileHoldsTheEventsSinceThePreviousTestEnded() throws Exception {
        TraceTee tee = new TraceTee(dir.resolve("traces/%t.mmct"), names());
        store(tee, 1, 0);
        store(tee, 1, 1);
        Path a = tee.endTest("FlagsTest.plainFlags()");
        store(tee, 2, 2);
        Path b = tee.endTest("QueueTest.offer() [3] size=2");
        Path again = tee.endTest("FlagsTest.plainFlags()");
        store(tee, 1, 3);
        tee.close();
        assertEquals(dir.resolve("traces/FlagsTest.plainFlags.mmct").toAbsolutePath(), a);
        assertEquals(dir.resolve("traces/QueueTest.offer_3_size_2.mmct").toAbsolutePath(), b);
        assertEquals(dir.resolve("traces/FlagsTest.plainFlags-2.mmct").toAbsolutePath(), again, "a name seen twice");
        assertEquals(2, events(a));
        assertEquals(1, events(b));
        assertEquals(0, events(again));
        Path outside = dir.resolve("traces/" + TraceTee.OUTSIDE + ".mmct");
        assertEquals(1, events(outside), "the events after the last test");
        assertTrue(tee.describe().startsWith("mmcheck: 3 per-test traces written to "), tee.describe());
    }

    @Test
    void perTestWithoutEventsAfterTheLastTestLeavesNoOutsideFile() throws Exception {
        TraceTee tee = new TraceTee(dir.resolve("%t.mmct"), names());
        store(tee, 1, 0);
        tee.endTest("A.a()");
        tee.close();
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
            assertEquals(List.of("A.a.mmct"), names);
        }
        assertFalse(tee.describe().contains(TraceTee.OUTSIDE), tee.describe());
    }

    @Test
    void aTestNamedAsTheOutsideFileDoesNotLoseItsTrace() throws Exception {
        TraceTee tee = new TraceTee(dir.resolve("%t.mmct"), names());
        store(tee, 1, 0);
        Path own = tee.endTest(TraceTee.OUTSIDE + "()");
        store(tee, 1, 1);
        store(tee, 1, 2);
        tee.close();
        assertEquals(dir.resolve(TraceTee.OUTSIDE + "-2.mmct").toAbsolutePath(), own);
        assertEquals(1, events(own), "the test's own event, not overwritten by the next file");
        assertEquals(2, events(dir.resolve(TraceTee.OUTSIDE + ".mmct")));
    }

    @Test
    void fileNamesKeepLettersDigitsDotsAndDashes() {
        assertEquals("FlagsTest.plainFlags", TraceTee.fileName("FlagsTest.plainFlags()"));
        assertEquals("T.m_repetition_1_of_10", TraceTee.fileName("T.m() [repetition 1 of 10]"));
        assertEquals("test", TraceTee.fileName("()/"));
    }
}
