package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.serial.SerialConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The on-the-fly serializability checks against the brute-force oracles on random small traces with
 * random atomic blocks (fixed seed; {@code -Dmmcheck.diff.traces=N} for more, {@code -Dmmcheck.diff.seed}
 * for another sample): scser reports exactly when no serial order of the transactions preserves the SC
 * conflicts; tsoser reports exactly when some acyclic orientation of the trace event graph induces a
 * cyclic conflict graph (Def. 4, Theorem 5). No bound may be reached on such small traces; the
 * store-buffer bound is tested on its own, against the oracle with buffers of that capacity.
 */
class SerializabilityDifferentialTest {

    @Test
    void onTheFlyChecksAgreeWithTheOracles() {
        int traces = Integer.getInteger("mmcheck.diff.traces", 6000);
        agree(new Random(DifferentialSupport.seed()), traces, 14, i -> null, true);
    }

    /** Longer traces (3-4 threads, 3-7 events each): longer cycles, several late writes in one witness. */
    @Test
    void onLongerTracesToo() {
        int traces = Integer.getInteger("mmcheck.diff.traces", 6000) / 4;
        agree(new Random(DifferentialSupport.seed() + 1), traces, 15,
                rnd -> SerialTrace.random(rnd, rnd.nextBoolean() ? SerialTrace.Ops.MIXED : SerialTrace.Ops.PLAIN,
                        3 + rnd.nextInt(2), 3, 7), false);
    }

    /**
     * The store-buffer bound, set to 1-3 stores on traces whose threads issue runs of 2-4 stores: tsoser
     * reports exactly when the oracle with FIFO buffers of that capacity finds a cyclic orientation (a
     * thread's newest stores stay buffered, a store issued to a full buffer commits the oldest); every
     * report is one the unbounded oracle makes too; and a violation the bound cost is never lost in
     * silence: the run then has the {@code buffer-bound} note, and without the note the verdict is the
     * unbounded one. Draining the whole buffer at the bound (a fence the program does not have, as
     * tsoser did before) fails it: it loses the violations made of the newest stores.
     */
    @Test
    void theBufferBoundKeepsTheNewestStores() {
        int traces = Integer.getInteger("mmcheck.diff.traces", 6000) / 2;
        Random rnd = new Random(DifferentialSupport.seed() + 2);
        List<String> failures = new ArrayList<>();
        int checked = 0;
        int skipped = 0;
        int bounded = 0; // the bound was reached
        int foundBounded = 0; // ... and a violation was still found
        int cost = 0; // the bound cost the verdict
        for (int i = 0; checked < traces && i < 4 * traces; i++) {
            SerialTrace trace = SerialTrace.storeRuns(rnd);
            int bound = 1 + rnd.nextInt(3);
            Boolean withBound = SerialOracle.tsoSerializable(trace, 14, bound);
            Boolean exact = withBound == null ? null : SerialOracle.tsoSerializable(trace, 14);
            if (exact == null) {
                skipped++;
                continue;
            }
            checked++;
            SerialRun run = SerialRun.of(trace, EnumSet.of(Analysis.TSOSER), SerialConfig.exact().withBufferBound(bound));
            boolean reported = run.reported(Analysis.TSOSER);
            boolean noted = run.result().notes().stream().map(Note::kind).anyMatch("buffer-bound"::equals);
            String what = "trace " + i + " (buffers of " + bound + "): " + trace + "\n  " + SerialOracle.spell(trace)
                    + "\n  " + run.result().violations() + "\n  " + run.result().notes();
            if (reported == withBound) {
                failures.add("tsoser " + (reported ? "reports" : "does not report") + " but the oracle with the bound "
                        + (withBound ? "finds every orientation serializable" : "finds a cyclic one") + ": " + what);
            }
            if (reported && exact) {
                failures.add("tsoser reports what the unbounded oracle does not: " + what);
            }
            if (!noted && reported == exact) {
                failures.add("the verdict differs from the unbounded one without the buffer-bound note: " + what);
            }
            bounded += noted ? 1 : 0;
            foundBounded += noted && reported ? 1 : 0;
            cost += !exact && withBound ? 1 : 0;
            if (failures.size() > 6) {
                break;
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " disagreements:\n" + String.join("\n", failures));
        }
        System.out.printf("serializability, buffers of 1-3 stores: %d traces checked (%d skipped), bound reached in %d, "
                + "a violation found with the bound reached in %d, a violation the bound cost in %d%n",
                checked, skipped, bounded, foundBounded, cost);
        assertEquals(traces, checked, "too many traces skipped");
        assertTrue(foundBounded > checked / 20, "violations found with the bound reached must be common");
        assertTrue(cost > 0, "the bound must cost a violation now and then, or the traces do not reach it");
    }

    private static void agree(Random rnd, int traces, int maxUndirected,
            java.util.function.Function<Random, SerialTrace> generator, boolean bothWays) {
        List<String> failures = new ArrayList<>();
        int scNot = 0;
        int tsoNot = 0;
        int tsoOnly = 0;
        int scOnly = 0;
        int checked = 0;
        int skipped = 0;
        for (int i = 0; checked < traces && i < 4 * traces; i++) {
            SerialTrace trace = generator.apply(rnd);
            if (trace == null) {
                trace = SerialTrace.random(rnd, i % 2 == 0 ? SerialTrace.Ops.MIXED : SerialTrace.Ops.PLAIN);
            }
            Boolean tso = SerialOracle.tsoSerializable(trace, maxUndirected);
            if (tso == null) {
                skipped++;
                continue;
            }
            checked++;
            boolean sc = SerialOracle.scSerializable(trace);
            SerialRun run = SerialRun.exact(trace);
            scNot += sc ? 0 : 1;
            tsoNot += tso ? 0 : 1;
            tsoOnly += tso || !sc ? 0 : 1;
            scOnly += !tso || sc ? 0 : 1;
            if (run.reported(Analysis.SCSER) == sc) {
                failures.add("trace " + i + ": scser " + (sc ? "reports" : "does not report") + " but the oracle "
                        + (sc ? "finds a serial order" : "finds none") + "\n  " + trace + "\n  " + SerialOracle.spell(trace));
            }
            if (run.reported(Analysis.TSOSER) == tso) {
                failures.add("trace " + i + ": tsoser " + (tso ? "reports" : "does not report") + " but the oracle "
                        + (tso ? "finds every orientation serializable" : "finds a cyclic one") + "\n  " + trace
                        + "\n  " + SerialOracle.spell(trace) + "\n  " + SerialOracle.witness(trace) + "\n  "
                        + run.result().violations());
            }
            assertEquals(List.of(), run.result().notes(), "no bound on trace " + i + ": " + trace);
            if (failures.size() > 6) {
                break;
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " disagreements:\n" + String.join("\n", failures));
        }
        System.out.printf("serializability: %d traces checked (%d skipped: too many undirected edges), "
                + "not SC-serializable %d, not TSO-serializable %d (only under TSO %d, only under SC %d)%n",
                checked, skipped, scNot, tsoNot, tsoOnly, scOnly);
        assertEquals(traces, checked, "too many traces skipped");
        assertTrue(scNot > checked / 20 && scNot < checked - checked / 20, "SC verdicts too one-sided");
        assertTrue(tsoOnly > checked / 50, "traces serializable under SC but not TSO must be common");
        if (bothWays) {
            assertTrue(scOnly > 0, "traces serializable under TSO but not SC must occur (the right program after Thm. 2)");
        }
    }
}
