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
 * in file order. {@code expect:} is the verdict of the model with volatile read as C11's seq_cst (the oracle's
 * {@code RC11_SC}; without volatile accesses that is plain RC20). A {@code report:} line names a report the
 * monitor makes on the listed run, under either {@link VolatileRule}; {@code report leading-fence:} or
 * {@code report synchronization-order:} under that rule only: the event, the kind ({@code stale-read} or
 * {@code write-placement}), the write it may read or follow and the SC-ordered write, by event number or
 * {@code init}.
 *
 * <p>For each file: under each rule, the monitor over the listed run reports exactly the declared reports;
 * the oracle's verdict is the declared one; under each rule, every report on every SC interleaving is
 * genuine with volatile as seq_cst; and with the leading fence, the monitor agrees with the oracle of that
 * reading at every step of every interleaving ({@link RobustnessCheck}).
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
    record Litmus(JmmProgram program, int[] order, boolean robust, Map<VolatileRule, List<String>> reports) {
    }

    static Litmus parse(String text) {
        Map<String, Integer> threadOf = new LinkedHashMap<>();
        List<List<JmmProgram.Op>> threads = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        Map<VolatileRule, List<String>> reports = new java.util.EnumMap<>(VolatileRule.class);
        for (VolatileRule r : VolatileRule.values()) {
            reports.put(r, new ArrayList<>());
        }
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
            if (line.startsWith("report")) {
                int colon = line.indexOf(':');
                String which = line.substring("report".length(), colon).strip();
                String what = line.substring(colon + 1).strip();
                for (VolatileRule r : VolatileRule.values()) {
                    if (which.isEmpty() || which.equals(r.name().toLowerCase(Locale.ROOT).replace('_', '-'))) {
                        reports.get(r).add(what);
                    }
                }
                if (!which.isEmpty() && !which.equals("leading-fence") && !which.equals("synchronization-order")) {
                    throw new IllegalArgumentException("no volatile rule " + which);
                }
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
        for (VolatileRule rule : VolatileRule.values()) {
            // the listed run: event numbers are line numbers among the events, from 1
            List<String> actual = new ArrayList<>();
            RobustnessMonitor m = new RobustnessMonitor(v -> actual.add(describe(v)), rule);
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
            assertEquals(l.reports().get(rule), actual, name + ": the reports on the listed run, " + rule);
            // every report on every interleaving genuine with volatile as seq_cst
            RobustnessCheck.Result r = RobustnessCheck.run(l.program(), RaOracle.Volatile.RC11_SC, rule, false, 3);
            assertEquals(List.of(), r.failures(), name + ": " + rule + " against volatile as seq_cst");
        }
        assertEquals(!l.robust(), new RaOracle(l.program(), RaOracle.Volatile.RC11_SC).nonRobust() != null,
                name + ": the oracle's verdict");
        if (l.robust()) {
            assertTrue(l.reports().values().stream().allMatch(List::isEmpty), name + ": robust, yet a report declared");
        } else {
            assertTrue(l.reports().values().stream().anyMatch(x -> !x.isEmpty()), name + ": the run shows nothing");
        }
        // the leading fence is exactly the model of RaOracle.Volatile.LEADING_SC_FENCE: every step of every run
        RobustnessCheck.Result exact = RobustnessCheck.run(l.program(), 3);
        assertEquals(List.of(), exact.failures(), name + ": the leading fence against its oracle");
        assertFalse(l.robust() && exact.reported(), name + ": robust, yet the leading fence reports");
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
