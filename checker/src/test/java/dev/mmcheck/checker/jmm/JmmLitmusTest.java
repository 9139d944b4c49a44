package dev.mmcheck.checker.jmm;

import dev.mmcheck.checker.oracle.JmmProgram;
import dev.mmcheck.checker.oracle.RaOracle;
import dev.mmcheck.checker.oracle.RobustnessCheck;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The litmus tests of the papers and of jcstress in Java's modes (src/test/resources/jmm-litmus/*.litmus),
 * each with its declared verdict. A file lists the events of one SC run, one a line, in run order:
 * <pre>
 *   # a comment
 *   expect: not robust
 *   report: 4 stale-read visible=init sc=1
 *   T0 store x 1 plain
 *   T0 store y 1 release
 *   T1 load y opaque
 *   T1 load x plain
 * </pre>
 * Operations: {@code load LOC MODE}, {@code store LOC VALUE MODE}, {@code rmw LOC VALUE MODE}, {@code cas LOC
 * EXPECTED VALUE MODE}, {@code fence full|acquire|release|loadload|storestore}, {@code lock LOC}, {@code unlock
 * LOC}; locations x, y, z, w, l; modes plain, opaque, acquire, release, volatile. Events are numbered from 1
 * in file order; a {@code report:} line names the event reported, the kind ({@code stale-read} or
 * {@code write-placement}), the write it may read or follow and the SC-ordered write, by event number or
 * {@code init}.
 *
 * <p>For each file: the monitor over the listed run reports exactly the declared reports (none for a
 * robust file); the oracle's verdict on the program is the declared one; and the whole differential check
 * ({@link RobustnessCheck}: every SC interleaving, every step against the oracle) passes.
 */
class JmmLitmusTest {

    @TestFactory
    Stream<DynamicTest> everyLitmusTestHasItsVerdict() throws IOException, URISyntaxException {
        Path dir = Path.of(getClass().getResource("/jmm-litmus").toURI());
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".litmus")).sorted().toList();
        }
        assertTrue(files.size() >= 25, "the litmus files are there");
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
    }

    /** A parsed litmus file. */
    record Litmus(JmmProgram program, int[] order, boolean robust, List<String> reports) {
    }

    static Litmus parse(String text) {
        Map<String, Integer> threadOf = new LinkedHashMap<>();
        List<List<JmmProgram.Op>> threads = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        List<String> reports = new ArrayList<>();
        Boolean robust = null;
        int locations = 0;
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("expect:")) {
                String v = line.substring("expect:".length()).strip();
                if (!v.equals("robust") && !v.equals("not robust")) {
                    throw new IllegalArgumentException("expect: robust or not robust, not " + v);
                }
                robust = v.equals("robust");
                continue;
            }
            if (line.startsWith("report:")) {
                reports.add(line.substring("report:".length()).strip());
                continue;
            }
            String[] w = line.split("\\s+");
            int t = threadOf.computeIfAbsent(w[0], k -> {
                threads.add(new ArrayList<>());
                return threads.size() - 1;
            });
            String[] opWords = java.util.Arrays.copyOfRange(w, 1, w.length);
            JmmProgram.Op op = JmmProgram.parseOp(opWords);
            locations = Math.max(locations, op.loc() + 1);
            threads.get(t).add(op);
            order.add(t);
        }
        if (robust == null) {
            throw new IllegalArgumentException("no expect: line");
        }
        return new Litmus(new JmmProgram(threads, Math.max(locations, 1)),
                order.stream().mapToInt(Integer::intValue).toArray(), robust, reports);
    }

    private static void check(Path file) throws IOException {
        Litmus l = parse(Files.readString(file, StandardCharsets.UTF_8));
        String name = file.getFileName().toString();
        // the listed run: event numbers are line numbers among the events, from 1
        List<String> actual = new ArrayList<>();
        RobustnessMonitor m = new RobustnessMonitor(v -> actual.add(describe(v)));
        long[] mem = new long[l.program().locations()];
        int[] pc = new int[l.program().threads().size()];
        for (int s = 0; s < l.order().length; s++) {
            int t = l.order()[s];
            JmmProgram.Op op = l.program().threads().get(t).get(pc[t]++);
            if (op.kind() == JmmProgram.Kind.LOCK) {
                assertEquals(0, mem[op.loc()], name + ": event " + (s + 1) + " locks a held lock");
            }
            feed(m, op, t, s + 1, mem);
        }
        assertEquals(l.reports(), actual, name + ": the reports on the listed run");
        assertEquals(l.robust(), l.reports().isEmpty(), name + ": a robust file declares no report, another one some");
        // the model's verdict, and every interleaving step by step
        assertEquals(!l.robust(), new RaOracle(l.program()).nonRobust() != null, name + ": the oracle's verdict");
        RobustnessCheck.Result r = RobustnessCheck.run(l.program(), 3);
        assertEquals(List.of(), r.failures(), name + ": the monitor against the oracle");
        assertEquals(!l.robust(), r.reported(), name + ": a report on some interleaving");
        assertFalse(l.robust() && r.blindReported(), name + ": the monitor without values reports");
    }

    /** How a report line names a violation. */
    static String describe(RobustnessViolation v) {
        return v.event() + " " + v.kind().name().toLowerCase(Locale.ROOT).replace('_', '-') + " visible="
                + name(v.visibleWrite()) + " sc=" + name(v.scWrite());
    }

    private static String name(long id) {
        return id == RobustnessViolation.INITIAL ? "init" : String.valueOf(id);
    }

    private static void feed(RobustnessMonitor m, JmmProgram.Op op, int t, long id, long[] mem) {
        int x = op.loc();
        switch (op.kind()) {
            case LOAD -> m.load(t, x, op.mode(), id);
            case STORE -> {
                m.store(t, x, op.mode(), op.value(), id);
                mem[x] = op.value();
            }
            case RMW -> {
                m.rmw(t, x, op.mode(), op.value(), id);
                mem[x] = op.value();
            }
            case CAS -> {
                boolean ok = mem[x] == op.expected();
                m.cas(t, x, op.mode(), op.expected(), ok, op.value(), id);
                if (ok) {
                    mem[x] = op.value();
                }
            }
            case FENCE -> m.fence(t, op.fence());
            case LOCK -> {
                m.lockEnter(t, x, id);
                mem[x] = 1;
            }
            case UNLOCK -> {
                m.lockExit(t, x, id);
                mem[x] = 0;
            }
        }
    }
}
