package dev.mmcheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code mmcheck check-history}: its exit statuses, its report, one clear line for each mistake. */
class HistoryCommandTest {

    private static int run(String[] args, StringBuilder outText, StringBuilder errText) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code = new HistoryCommand(new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8)).run(args);
        outText.append(o.toString(StandardCharsets.UTF_8));
        errText.append(e.toString(StandardCharsets.UTF_8));
        return code;
    }

    @Test
    void commandExitStatusesAndOneLineErrors(@TempDir Path dir) throws Exception {
        Path sb = dir.resolve("sb.hist");
        Files.writeString(sb, "t0: w x 1; r y 0\nt1: w y 1; r x 0\n");
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        assertEquals(1, run(new String[] {"check-history", sb.toString()}, out, err));
        assertTrue(out.toString().contains("SC: inconsistent"), out.toString());
        assertTrue(out.toString().contains("TSO: consistent"), out.toString());
        assertEquals(0, run(new String[] {"check-history", sb.toString(), "--model", "tso"}, out, err));
        assertEquals(1, run(new String[] {"check-history", sb.toString(), "--model=sc"}, out, err));
        Path report = dir.resolve("out/r.json");
        assertEquals(1, run(new String[] {"check-history", sb.toString(), "--report", report.toString(), "--quiet"},
                out, err));
        String json = Files.readString(report);
        assertTrue(json.contains("\"SC\"") && json.contains("\"storeOrder\"") && json.contains("\"cycle\""), json);
        assertEquals("", err.toString());

        Path bad = dir.resolve("bad.hist");
        Files.writeString(bad, "t0: w x 1\nt1: r x 2\n");
        String[][] wrong = {
            {"check-history", bad.toString()},
            {"check-history", dir.resolve("missing.hist").toString()},
            {"check-history", dir.toString()},
            {"check-history"},
            {"check-history", sb.toString(), "--model", "pso"},
            {"check-history", sb.toString(), "--frobnicate"},
            {"check-history", sb.toString(), sb.toString()},
            {"check-history", sb.toString(), "--report"},
        };
        for (String[] args : wrong) {
            StringBuilder o = new StringBuilder();
            StringBuilder e = new StringBuilder();
            assertEquals(2, run(args, o, e), String.join(" ", args));
            String line = e.toString();
            assertTrue(line.startsWith("mmcheck: ") && line.indexOf('\n') == line.length() - 1,
                    "not one line: " + line);
            assertFalse(line.contains("Exception"), line);
        }
        StringBuilder e = new StringBuilder();
        run(new String[] {"check-history", bad.toString()}, new StringBuilder(), e);
        assertEquals("mmcheck: " + bad + ":2: t1#1 read(x,2) returns 2, but no operation writes 2 to x and its "
                + "initial value is 0\n", e.toString());
    }

    @Test
    void mainDispatchesCheckHistory(@TempDir Path dir) throws Exception {
        Path h = dir.resolve("ok.hist");
        Files.writeString(h, "t0: w x 1; r x 1\n");
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        Main m = new Main(new PrintStream(o, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, m.run(new String[] {"check-history", h.toString()}));
        assertEquals(0, m.run(new String[] {"--help"}));
        assertTrue(o.toString(StandardCharsets.UTF_8).contains("check-history  Decides whether a recorded history"),
                o.toString(StandardCharsets.UTF_8));
    }
}
