package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.event.EventKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Without transactions the agent's runtime does not log a load that repeats the thread's last access
 * to the same address with no write to it since (dev.mmcheck.runtime.Probes): the store-buffer
 * monitors would do nothing with it. Once transactions are declared it logs every load. This test is
 * the evidence for that choice (docs/serializability.md, "Repeated loads"): a model of the rule, with
 * the repeat cache forgotten at transaction boundaries, applied to random traces with repeated loads,
 * changes what the brute-force oracles decide: a repeated read inside a transaction can see a write
 * of another thread that was still buffered at the first read (a non-repeatable read, Def. 4's
 * orientation r -> w -> r'), and outside transactions every event is a transaction of its own.
 */
class ElisionDifferentialTest {

    /** Which loads the rule leaves out of {@code trace} (true at their index). */
    static boolean[] elided(SerialTrace trace) {
        int n = trace.events().size();
        boolean[] out = new boolean[n];
        int[][] last = new int[trace.threads()][trace.addresses()];
        long[][] writesAt = new long[trace.threads()][trace.addresses()];
        for (int[] row : last) {
            Arrays.fill(row, -1);
        }
        long[] writes = new long[trace.addresses()];
        int[] txOf = new int[trace.threads()];
        Arrays.fill(txOf, -1);
        for (int i = 0; i < n; i++) {
            SerialTrace.Event e = trace.events().get(i);
            int t = e.thread();
            if (e.tx() != txOf[t]) {
                Arrays.fill(last[t], -1); // the repeat cache is forgotten at transaction boundaries
                txOf[t] = e.tx();
            }
            int x = e.address();
            if (x < 0) {
                continue;
            }
            if (e.kind() == EventKind.LOAD && last[t][x] >= 0 && writesAt[t][x] == writes[x]) {
                out[i] = true;
                continue;
            }
            if (e.kind() != EventKind.LOAD) {
                writes[x]++;
            }
            last[t][x] = i;
            writesAt[t][x] = writes[x];
        }
        return out;
    }

    private static SerialTrace without(SerialTrace trace, boolean[] drop) {
        List<SerialTrace.Event> kept = new ArrayList<>();
        for (int i = 0; i < drop.length; i++) {
            if (!drop[i]) {
                kept.add(trace.events().get(i));
            }
        }
        return new SerialTrace(kept, trace.threads(), trace.addresses());
    }

    /** A trace with repeated loads: loads are drawn again from the thread's recent addresses. */
    private static SerialTrace repeating(Random rnd) {
        SerialTrace base = SerialTrace.random(rnd, rnd.nextBoolean() ? SerialTrace.Ops.MIXED : SerialTrace.Ops.PLAIN,
                2 + rnd.nextInt(2), 3, 6);
        List<List<SerialTrace.Event>> per = new ArrayList<>();
        for (int t = 0; t < base.threads(); t++) {
            per.add(new ArrayList<>());
        }
        for (SerialTrace.Event e : base.events()) {
            List<SerialTrace.Event> mine = per.get(e.thread());
            mine.add(e);
            if (e.address() >= 0 && rnd.nextInt(3) == 0) {
                mine.add(new SerialTrace.Event(e.thread(), EventKind.LOAD, e.address(), e.tx())); // a repeat
            }
        }
        return SerialTrace.interleave(rnd, per, base.threads(), base.addresses());
    }

    @Test
    void leavingOutRepeatedLoadsChangesSerializabilityVerdicts() {
        Random rnd = new Random(DifferentialSupport.seed() + 5);
        int traces = Integer.getInteger("mmcheck.diff.traces", 3000);
        int changedSc = 0;
        int changedTso = 0;
        int checked = 0;
        for (int i = 0; i < traces; i++) {
            SerialTrace trace = repeating(rnd);
            Boolean tso = SerialOracle.tsoSerializable(trace, 14);
            if (tso == null) {
                continue;
            }
            checked++;
            SerialTrace t2 = without(trace, elided(trace));
            Boolean tso2 = SerialOracle.tsoSerializable(t2, 14);
            changedSc += SerialOracle.scSerializable(t2) != SerialOracle.scSerializable(trace) ? 1 : 0;
            changedTso += tso2 != null && !tso2.equals(tso) ? 1 : 0;
        }
        System.out.printf("elision: of %d traces, leaving out repeated loads changes %d SC and %d TSO verdicts%n",
                checked, changedSc, changedTso);
        assertTrue(checked > traces / 2, "most traces are small enough for the oracle: " + checked);
        assertTrue(changedTso > 0, "repeated loads matter to TSO-serializability");
    }
}
