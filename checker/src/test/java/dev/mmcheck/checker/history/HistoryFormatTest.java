package dev.mmcheck.checker.history;

import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text and JSON formats: round trips, and one clear line (with the line number) for each bad input. */
class HistoryFormatTest {

    private static String error(String text) {
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> HistoryFiles.parse("h.hist", text), "accepted:\n" + text);
        assertFalse(e.getMessage().contains("\n"), "more than one line: " + e.getMessage());
        return e.getMessage();
    }

    private static void expectError(String text, String prefix, String... fragments) {
        String m = error(text);
        assertTrue(m.startsWith(prefix), "message '" + m + "' does not start with '" + prefix + "'");
        for (String f : fragments) {
            assertTrue(m.contains(f), "message '" + m + "' lacks '" + f + "'");
        }
    }

    @Test
    void readOfAValueNobodyWrote() {
        expectError("t0: w x 1\nt1: r x 7\n", "h.hist:2: ", "t1#1 read(x,7)", "no operation writes 7 to x",
                "initial value is 0");
    }

    @Test
    void valueWrittenTwiceNamesBothWrites() {
        expectError("t0: w x 1\n\nt1: r x 1; w x 1\n", "h.hist:3: ", "t1#2 write(x,1)", "t0#1 write(x,1) (line 1)",
                "unique");
        expectError("vars x=5\nt0: w x 5\n", "h.hist:2: ", "initial value 5 of x");
    }

    @Test
    void unknownThreadOrVariable() {
        expectError("threads t0 t1\nt0: w x 1\nt2: r x 1\n", "h.hist:3: ", "unknown thread 't2'", "t0, t1");
        expectError("vars x y\nt0: w x 1\nt0: r z 0\n", "h.hist:3: ", "unknown variable 'z'", "x, y");
        expectError("{\"vars\": {\"x\": 0},\n \"threads\": {\"t0\": [\n"
                + "  {\"op\": \"read\", \"var\": \"y\", \"value\": 0}]}}", "h.hist:3: ", "unknown variable 'y'");
    }

    @Test
    void timesThatContradictProgramOrder() {
        expectError("t0: w x 1 @ 100 120\nt0: r x 1 @ 90 130\n", "h.hist:2: ", "issued at 90",
                "t0#1 write(x,1) (line 1) is issued at 100", "program order");
        expectError("t0: w x 1 @ 100 80\n", "h.hist:1: ", "completes at 80, before it is issued at 100");
        expectError("t0: w x 1 @ 1 2\nt1: r x 1\n", "h.hist:2: ", "t1#1 read(x,1) has no times",
                "every operation");
    }

    @Test
    void malformedLines() {
        expectError("t0: write(x 1)\n", "h.hist:1: ", "malformed operation");
        expectError("t0: store x 1\n", "h.hist:1: ", "unknown operation 'store'");
        expectError("t0: w x one\n", "h.hist:1: ", "value 'one' is not an integer");
        expectError("t0: w x 99999999999999999999\n", "h.hist:1: ", "fits in 64 bits");
        expectError("t0 w x 1\n", "h.hist:1: ", "expected 'THREAD: OPERATION'");
        expectError("t0: w x 1 @ 5\n", "h.hist:1: ", "malformed operation");
        expectError("t0: w x 1\nthreads t0\n", "h.hist:2: ", "before the first operation");
        expectError("t0: w x 1;; r x 1\n", "h.hist:1: ", "empty operation");
    }

    @Test
    void malformedJson() {
        expectError("{\"threads\": {\"t0\": [\n {\"op\": \"write\", \"var\": \"x\", \"value\": 1,}]}}", "h.hist:2: ",
                "malformed JSON");
        expectError("{\"threads\": {\"t0\": [\n {\"op\": \"write\", \"var\": \"x\"}]}}", "h.hist:2: ",
                "without \"value\"");
        expectError("{\"threads\": {\"t0\": [\n {\"op\": \"write\", \"var\": \"x\", \"value\": 1, \"when\": 3}]}}",
                "h.hist:2: ", "unknown field \"when\"");
        expectError("{\"thread\": {}}", "h.hist:1: ", "unknown field \"thread\"");
        expectError("{\"threads\": {\"t0\": [\n {\"op\": \"w\", \"var\": \"x\", \"value\": 1},\n"
                + " {\"op\": \"w\", \"var\": \"x\", \"value\": 1}]}}", "h.hist:3: ", "writes the same value");
    }

    @Test
    void textAndJsonRoundTrip() throws Exception {
        Random rnd = new Random(7);
        for (int i = 0; i < 200; i++) {
            History h = RandomHistories.small(rnd, RandomHistories.Kind.values()[i % 5], i % 2 == 0);
            String text = HistoryText.toString(h);
            History back = HistoryText.read("h", new StringReader(text));
            assertEquals(text, HistoryText.toString(back));
            StringWriter json = new StringWriter();
            HistoryJson.write(h, json);
            History fromJson = HistoryFiles.parse("h.json", json.toString());
            assertEquals(text, HistoryText.toString(fromJson));
        }
    }

    @Test
    void shortAndPaperFormsMeanTheSame() throws Exception {
        History a = HistoryFiles.parse("a", "t0: w x 1; r y 0\nt1: write(y, 2)\n");
        History b = HistoryFiles.parse("b", "t0: write(x,1)\nt0: read(y,0)\nt1: w y 2\n");
        assertEquals(HistoryText.toString(a), HistoryText.toString(b));
        History c = HistoryFiles.parse("c", "t0: w x 1 @[1,2]; r x 1 @ 3, 4\n");
        assertTrue(c.timed());
        assertEquals(3, c.op(1).issue());
    }
}
