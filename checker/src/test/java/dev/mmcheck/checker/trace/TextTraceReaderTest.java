package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.StringReader;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text trace format: what it accepts, and the one-line errors for what it does not. */
class TextTraceReaderTest {

    private static EventBuffer read(String text, Symbols symbols) throws Exception {
        EventBuffer b = new EventBuffer();
        TextTraceReader.read("t.trace", new StringReader(text), symbols, b);
        return b;
    }

    @Test
    void readsEventsSitesMethodsAndComments() throws Exception {
        Symbols s = new Symbols();
        EventBuffer b = read("""
                # a comment line
                T1 store Node#3.next Queue.java:41 com.example.Queue.offer   # trailing comment
                T1 lazyset flag
                T1 fence
                T1 start T2
                T2 cas a[2] A.java:9
                dead flag
                """, s);
        assertEquals(6, b.size());
        assertEquals(EventKind.STORE.code(), b.kind(0));
        assertEquals("Node#3.next", s.addressName(b.operand(0)));
        assertEquals(new Site("com.example.Queue", "offer", "Queue.java", 41, -1), s.siteOf(b.site(0)));
        assertEquals(EventKind.RELEASE_STORE.code(), b.kind(1));
        assertEquals(Site.at("t.trace", 3), s.siteOf(b.site(1)), "no site: the trace line is the site");
        assertEquals(EventKind.FULL_FENCE.code(), b.kind(2));
        assertEquals(-1, b.operand(2));
        assertEquals(EventKind.THREAD_START.code(), b.kind(3));
        assertEquals("T2", s.threadName(b.operand(3)));
        assertEquals("a[2]", s.addressName(b.operand(4)));
        assertEquals(EventKind.ADDRESS_DEAD.code(), b.kind(5));
    }

    @Test
    void viaNamesTheCallThatReachedAHelper() throws Exception {
        Symbols s = new Symbols();
        EventBuffer b = read("""
                T1 store int[]#1[0] Buf.java:10 Buf.putInt via Ring.java:30 com.a.Ring.write
                T1 store int[]#1[1] Buf.java:10 Buf.putInt via Ring.java:31
                T1 store int[]#1[2] Buf.java:10 Buf.putInt
                """, s);
        Site helper = new Site("Buf", "putInt", "Buf.java", 10, -1);
        assertEquals(helper.calledFrom(new Site("com.a.Ring", "write", "Ring.java", 30, -1)), s.siteOf(b.site(0)));
        assertEquals(helper.calledFrom(Site.at("Ring.java", 31)), s.siteOf(b.site(1)));
        assertEquals(helper, s.siteOf(b.site(2)));
        assertEquals(3, s.siteCount(), "one site per call that reached it");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "T1 stor x                 | t.trace:1: unknown operation 'stor'",
        "T1 load                   | t.trace:1: load needs an address",
        "T1 load Dekker.java:3     | t.trace:1: load needs an address",
        "T1 load x Dekker.java     | t.trace:1: unexpected 'Dekker.java' (a site looks like File.java:12)",
        "T1 load x D.java:3 C.m z  | t.trace:1: unexpected 'z' at the end of the line",
        "T1 load x D.java:3 (m)    | t.trace:1: unexpected '(m)' after the site (a method looks like Class.method)",
        "T1                        | t.trace:1: thread T1 has no operation",
        "1T load x                 | t.trace:1: '1T' is not a thread name",
        "T1 start T1               | t.trace:1: T1 cannot start itself",
        "T1 join T7                | t.trace:1: join of T7, a thread with no events so far",
        "dead                      | t.trace:1: expected 'dead ADDRESS'",
        "T1 dead x                 | t.trace:1: unknown operation 'dead'",
        "T1 load x D.java:99999999999 | t.trace:1: line number in 'D.java:99999999999' is too large",
        "T1 load x D.java:3 via       | t.trace:1: 'via' needs the site of the call (File.java:12 [Class.method])",
        "T1 load x D.java:3 via C.m   | t.trace:1: unexpected 'C.m' (a site looks like File.java:12)",
        "T1 load x via E.java:4       | t.trace:1: unexpected 'via' (a site looks like File.java:12)",
        "T1 load x D.java:3 via E.java:4 E.m z | t.trace:1: unexpected 'z' at the end of the line",
        "T1 load:Acquire x         | t.trace:1: 'Acquire' in 'load:Acquire' is not a mode (lower-case words joined by '-')",
        "T1 ld:acquire x           | t.trace:1: unknown operation 'ld:acquire'",
        "T1 cas-acquire-fail x     | t.trace:1: unknown operation 'cas-acquire-fail'",
    })
    void badLinesAreOneLineErrors(String line, String message) {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(line, new Symbols()));
        assertEquals(message, e.getMessage());
    }

    @Test
    void orderErrorsNameBothLines() {
        assertEquals("t.trace:3: T2 is started here but already ran at line 1", assertThrows(
                TraceFormatException.class, () -> read("T2 load x\nT1 load x\nT1 start T2\n", new Symbols())).getMessage());
        assertEquals("t.trace:3: T1 has an event after its end at line 2", assertThrows(
                TraceFormatException.class, () -> read("T1 load x\nT1 end\nT1 load x\n", new Symbols())).getMessage());
        assertEquals("t.trace:4: T2 was already started at line 2", assertThrows(TraceFormatException.class,
                () -> read("T1 load x\nT1 start T2\nT3 load y\nT3 start T2\n", new Symbols())).getMessage());
        assertEquals("t.trace:4: T2 has an event after its end at line 3", assertThrows(TraceFormatException.class,
                () -> read("T2 load x\nT1 load x\nT1 join T2\nT2 load y\n", new Symbols())).getMessage());
    }

    /**
     * The words that name a site's access mode (docs/trace-format.md): a read-modify-write's flavour and outcome, a
     * fence's flavour; the words that name none read as they always did: {@code storestore-fence} and {@code
     * load-fence} are fences whose flavour the trace does not say, {@code cas} a volatile CAS that succeeded.
     */
    @Test
    void wordsNameTheModeAndOldWordsReadAsBefore() throws Exception {
        String[][] words = {
            {"cas", "cas", ""}, {"cas-acquire", "cas", "acquire"}, {"cas-release", "cas", "release"},
            {"cas-plain", "cas", "plain"}, {"cas-failed", "cas", "failed"}, {"cas-acquire-failed", "cas", "acquire-failed"},
            {"cas-release-failed", "cas", "release-failed"}, {"cas-plain-failed", "cas", "plain-failed"},
            {"get-and-set", "cas", ""}, {"interlocked", "cas", ""},
            {"fence", "fence", ""}, {"full-fence", "fence", ""},
            {"storestore-fence", "storestore-fence", ""}, {"storestore", "storestore-fence", ""},
            {"release-fence", "storestore-fence", "release"}, {"store-fence", "storestore-fence", "release"},
            {"storestore-only-fence", "storestore-fence", "storestore"},
            {"load-fence", "load-fence", ""}, {"acquire-fence", "load-fence", "acquire"},
            {"loadload-fence", "load-fence", "loadload"},
            {"load", "load", ""}, {"volatile-load", "load", "volatile"}, {"load-acquire", "load", "acquire"},
            {"opaque-load", "load", "opaque"}, {"store", "store", ""}, {"opaque-store", "store", "opaque"},
            {"release-fenced-store", "store", "release"}, {"release-store", "release-store", ""},
            {"load:some-mode", "load", "some-mode"}, {"cas:acquire", "cas", "acquire"},
            {"juc-optimistic-read", "cas", "optimistic-read"}, {"juc-validate", "cas", "validate"},
            {"juc-write-lock", "cas", "write-lock"},
        };
        for (String[] w : words) {
            Symbols s = new Symbols();
            boolean address = !w[1].endsWith("fence");
            EventBuffer b = read("T1 " + w[0] + (address ? " x" : "") + " A.java:3\n", s);
            assertEquals(w[1], EventKind.of(b.kind(0)).label(), w[0]);
            assertEquals(w[2], s.siteOf(b.site(0)).mode(), w[0]);
            assertEquals(w[2], s.siteOf(read("T1 " + w[0] + (address ? " x" : "") + "\n", s).site(0)).mode(),
                    w[0] + " with no site of its own");
        }
    }

    /** Every mode of every kind, written and read back, is the same site (a word, or LABEL:MODE for one without). */
    @Test
    void everyModeSurvivesWritingAndReadingBack() throws Exception {
        java.util.List<String> modes = java.util.List.of("", "volatile", "acquire", "release", "opaque", "plain",
                "storestore", "loadload", "failed", "acquire-failed", "release-failed", "plain-failed", "future-mode");
        Symbols s = new Symbols();
        EventBuffer b = new EventBuffer();
        int thread = s.thread("T1");
        int x = s.address("x");
        int line = 0;
        for (EventKind k : EventKind.values()) {
            if (k.operand() == EventKind.Operand.THREAD || k == EventKind.THREAD_END || k == EventKind.ADDRESS_DEAD) {
                continue; // their order rules aside, they carry no mode the agent gives
            }
            for (String mode : modes) {
                line++;
                b.event(k.code(), thread, k.operand() == EventKind.Operand.ADDRESS ? x : -1,
                        s.site(new Site("com.a.C", "m", "C.java", line, -1, mode)));
            }
        }
        StringWriter w = new StringWriter();
        b.replay(new TextTraceWriter(w, s));
        Symbols s2 = new Symbols();
        EventBuffer b2 = read(w.toString(), s2);
        assertEquals(b.size(), b2.size());
        for (int i = 0; i < b.size(); i++) {
            assertEquals(b.kind(i), b2.kind(i), w.toString());
            assertEquals(s.siteOf(b.site(i)), s2.siteOf(b2.site(i)), w.toString());
        }
        assertTrue(w.toString().contains("T1 cas-acquire-failed x C.java:"), w.toString());
        assertTrue(w.toString().contains("T1 storestore-only-fence C.java:"), w.toString());
        assertTrue(w.toString().contains("T1 load:future-mode x C.java:"), w.toString());
    }

    @Test
    void writerOutputReadsBackTheSame() throws Exception {
        Symbols s = new Symbols();
        EventBuffer b = read("""
                T1 store x A.java:1 com.a.A.run
                T1 store z B.java:5 com.a.B.put via A.java:2 com.a.A.run
                T1 load z B.java:6 via A.java:3
                T1 release-store y
                T1 storestore-fence A.java:3
                T1 release-fence A.java:3
                T1 cas-plain-failed y A.java:4
                T1 load-acquire y A.java:5
                T1 start T2 A.java:4
                T2 monitor-enter m
                T2 monitor-exit m
                T2 end
                T1 join T2
                dead x
                """, s);
        StringWriter w = new StringWriter();
        b.replay(new TextTraceWriter(w, s));
        Symbols s2 = new Symbols();
        EventBuffer b2 = new EventBuffer();
        TextTraceReader.read("t.trace", new StringReader(w.toString()), s2, b2);
        assertEquals(b.size(), b2.size());
        for (int i = 0; i < b.size(); i++) {
            assertEquals(b.kind(i), b2.kind(i));
            assertEquals(s.siteOf(b.site(i)), s2.siteOf(b2.site(i)), w.toString());
        }
    }
}
