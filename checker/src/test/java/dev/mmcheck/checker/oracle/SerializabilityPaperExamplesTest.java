package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.serial.SerialConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Enea and Farzan's examples as programs, every interleaving checked (the task pool of Fig. 1-2 is a
 * hand-written trace: traces/16-task-pool-fig2.trace and 17-task-pool-fenced.trace), and Theorem 3 on
 * random transaction-fenced programs.
 */
class SerializabilityPaperExamplesTest {

    private static SerialTrace.Event ev(int t, EventKind k, int a, int tx) {
        return new SerialTrace.Event(t, k, a, tx);
    }

    /** Every interleaving of the threads' event lists. */
    static void interleavings(List<List<SerialTrace.Event>> per, int addresses, Consumer<SerialTrace> each) {
        int total = per.stream().mapToInt(List::size).sum();
        walk(per, new int[per.size()], new ArrayList<>(), total, addresses, each);
    }

    private static void walk(List<List<SerialTrace.Event>> per, int[] pc, List<SerialTrace.Event> out, int total,
            int addresses, Consumer<SerialTrace> each) {
        if (out.size() == total) {
            each.accept(new SerialTrace(List.copyOf(out), per.size(), addresses));
            return;
        }
        for (int t = 0; t < per.size(); t++) {
            if (pc[t] < per.get(t).size()) {
                out.add(per.get(t).get(pc[t]++));
                walk(per, pc, out, total, addresses, each);
                pc[t]--;
                out.remove(out.size() - 1);
            }
        }
    }

    /**
     * After Theorem 2, left: x = 1; r1 = y || y = 1; r2 = x, every event a transaction. TSO-serializable
     * (no interleaving's trace has a cycle under any orientation) but not robust (monitor_TSO reports).
     */
    @Test
    void storeBufferingIsTsoSerializableButNotRobust() {
        List<List<SerialTrace.Event>> per = List.of(
                List.of(ev(0, EventKind.STORE, 0, -1), ev(0, EventKind.LOAD, 1, -1)),
                List.of(ev(1, EventKind.STORE, 1, -1), ev(1, EventKind.LOAD, 0, -1)));
        int[] runs = {0};
        interleavings(per, 2, trace -> {
            runs[0]++;
            assertEquals(Boolean.TRUE, SerialOracle.tsoSerializable(trace, 20), trace.toString());
            assertTrue(SerialOracle.scSerializable(trace), trace.toString());
            SerialRun run = SerialRun.exact(trace);
            assertFalse(run.reported(Analysis.TSOSER), trace.toString());
            assertFalse(run.reported(Analysis.SCSER), trace.toString());
        });
        assertEquals(6, runs[0]);
        MonitorRuns robust = MonitorRuns.run(Program.parse("store a; load b | store b; load a"),
                EnumSet.of(Analysis.TSO), MonitorConfig.defaults());
        assertTrue(robust.reported(Analysis.TSO), "not robust");
    }

    /**
     * After Theorem 2, right: x = 1; r = y (two transactions) || [r' = x; y = 1] (one), in the one
     * execution the paper's program admits, thread 1 between thread 2's events: not SC-serializable,
     * yet TSO-serializable; and every other interleaving of these events is TSO-serializable too.
     */
    @Test
    void aWriteThenReadOfAnotherAddressIsTsoSerializableButNotScSerializable() {
        SerialTrace only = SerialTrace.parse("T1 load a [0]; T0 store a; T0 load b; T1 store b [0]");
        assertFalse(SerialOracle.scSerializable(only));
        assertEquals(Boolean.TRUE, SerialOracle.tsoSerializable(only, 20));
        SerialRun run = SerialRun.exact(only);
        assertTrue(run.reported(Analysis.SCSER));
        assertFalse(run.reported(Analysis.TSOSER));
        List<List<SerialTrace.Event>> per = List.of(
                List.of(ev(0, EventKind.STORE, 0, -1), ev(0, EventKind.LOAD, 1, -1)),
                List.of(ev(1, EventKind.LOAD, 0, 0), ev(1, EventKind.STORE, 1, 0)));
        interleavings(per, 2, trace -> {
            assertEquals(Boolean.TRUE, SerialOracle.tsoSerializable(trace, 20), trace.toString());
            assertFalse(SerialRun.exact(trace).reported(Analysis.TSOSER), trace.toString());
        });
        // with a fence between thread 1's write and read its transactions are ordered: not TSO-serializable
        SerialTrace fenced = SerialTrace.parse("T1 load a [0]; T0 store a; T0 fence; T0 load b; T1 store b [0]");
        assertEquals(Boolean.FALSE, SerialOracle.tsoSerializable(fenced, 20));
        assertTrue(SerialRun.exact(fenced).reported(Analysis.TSOSER));
    }

    /**
     * Theorem 3 on random transaction-fenced programs (every transaction, and every event outside
     * one, ends with a fence): some interleaving is not TSO-serializable (oracle) iff on some
     * interleaving tsoser (with the shortcut of Sec. 6.3, searching observed orientations only) or the
     * TSO monitor reports. Also: with the shortcut on, tsoser reports exactly when scser does.
     */
    @Test
    void theoremThreeOnTransactionFencedPrograms() {
        Random rnd = new Random(DifferentialSupport.seed() + 3);
        int programs = Integer.getInteger("mmcheck.diff.traces", 6000) / 30;
        int notTso = 0;
        int byMonitor = 0;
        int bySer = 0;
        int onlyMonitor = 0;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < programs && failures.size() < 3; i++) {
            List<List<SerialTrace.Event>> per = fencedProgram(rnd);
            int addresses = 3;
            boolean[] found = new boolean[4]; // oracle not TSO-ser, tsoser (shortcut), tso monitor, scser
            interleavings(per, addresses, trace -> {
                if (!found[0]) {
                    Boolean tso = SerialOracle.tsoSerializable(trace, 22);
                    found[0] |= Boolean.FALSE.equals(tso);
                }
                SerialRun run = SerialRun.of(trace, EnumSet.of(Analysis.TSO, Analysis.SCSER, Analysis.TSOSER),
                        SerialConfig.exact().withFencedShortcut(true));
                assertTrue(run.result().hasNote("fenced-shortcut"), trace.toString());
                found[1] |= run.reported(Analysis.TSOSER);
                found[2] |= run.reported(Analysis.TSO);
                found[3] |= run.reported(Analysis.SCSER);
                if (run.reported(Analysis.TSOSER) != run.reported(Analysis.SCSER)) {
                    failures.add("shortcut tsoser and scser disagree on " + trace);
                }
            });
            notTso += found[0] ? 1 : 0;
            byMonitor += found[2] ? 1 : 0;
            bySer += found[1] ? 1 : 0;
            onlyMonitor += found[2] && !found[1] ? 1 : 0;
            if (found[0] != (found[1] || found[2])) {
                failures.add("program " + i + ": oracle " + (found[0] ? "finds" : "does not find")
                        + " a non-TSO-serializable interleaving, tsoser/tso " + (found[1] || found[2] ? "report" : "do not")
                        + ": " + per);
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
        System.out.printf("Theorem 3: %d transaction-fenced programs, %d not TSO-serializable (%d found by the "
                + "TSO monitor, %d by SC-serializability, %d by the monitor alone)%n", programs, notTso, byMonitor, bySer,
                onlyMonitor);
        assertTrue(notTso > programs / 10 && notTso < programs - programs / 10, "verdicts too one-sided");
    }

    /** Two threads, each one or two transactions of one or two plain accesses ending with a fence. */
    private static List<List<SerialTrace.Event>> fencedProgram(Random rnd) {
        List<List<SerialTrace.Event>> per = new ArrayList<>();
        int tx = 0;
        for (int t = 0; t < 2; t++) {
            List<SerialTrace.Event> list = new ArrayList<>();
            int blocks = 1 + rnd.nextInt(2);
            for (int b = 0; b < blocks; b++) {
                int id = tx++;
                int n = 1 + rnd.nextInt(2);
                for (int k = 0; k < n; k++) {
                    list.add(ev(t, rnd.nextBoolean() ? EventKind.LOAD : EventKind.STORE, rnd.nextInt(3), id));
                }
                EventKind end = switch (rnd.nextInt(3)) {
                    case 0 -> EventKind.FULL_FENCE;
                    case 1 -> EventKind.INTERLOCKED;
                    default -> EventKind.VOLATILE_STORE;
                };
                list.add(ev(t, end, end == EventKind.FULL_FENCE ? -1 : rnd.nextInt(3), id));
            }
            per.add(list);
        }
        return per;
    }
}
