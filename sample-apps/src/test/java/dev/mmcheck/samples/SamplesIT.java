package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sample under the built agent (child JVMs, self-check on): the verdict per model is the one
 * the sample declares with {@link Expected}; every reported store and access is on a line the sample
 * marks; nothing is dropped (events produced = consumed) and the self-check finds no mismatch. Each
 * sample runs with the self-check and without it (when repeated loads are not logged); clean samples
 * must stay clean over three runs. A buggy sample must get its whole verdict in two runs of at most
 * four (the samples written as real code is, S23 on, are found by most runs but not by construction
 * in every one: bench/detection.sh measures how many), and no run may report what it does not
 * declare. Samples with atomic methods are checked for SC- and
 * TSO-serializability too: the verdicts are the declared ones, each transaction and each access of a
 * reported cycle is on a marked line, and a clean verdict is not one of a search cut short by a bound.
 * A sample that declares a verdict of the access-mode analysis ({@link Expected#jmm()}) runs with
 * models=tso:pso:jmm, and that verdict is checked as the others are.
 * The samples of {@link #BOUNDED} are written to reach the serializability checks' bounds (a bound can
 * only hide a finding, and their verdict is a finding): there the store-buffer bound's note must be.
 */
class SamplesIT {

    /** Samples that reach the serializability bounds by design: S45's owner stores thousands of times without a fence. */
    private static final Set<String> BOUNDED = Set.of("S45_WorkStealingPool");

    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> everySampleHasItsDeclaredVerdict() {
        return Samples.names().stream().map(n -> DynamicTest.dynamicTest(n, () -> check(n)));
    }

    private static void check(String name) throws Exception {
        Expected expected = Samples.sampleClass(name).getAnnotation(Expected.class);
        // the samples written for the access-mode analysis run with it, beside TSO and PSO (docs/jmm-model.md)
        boolean jmm = expected.jmm() != Expected.Jmm.UNDECLARED;
        boolean clean = !expected.tso() && !expected.pso() && !expected.scser() && !expected.tsoser()
                && expected.jmm() != Expected.Jmm.VIOLATION;
        boolean atomic = Samples.hasAtomicMethods(Samples.sampleClass(name));
        int runs = clean ? 3 : 4;
        int found = 0;
        Markers markers = Markers.of(name);
        for (int i = 0; i < runs && (clean || found < 2); i++) {
            // the first run with the self-check, the others without (loads that repeat are then not logged)
            boolean selfCheck = i == 0;
            String options = (selfCheck ? "selfCheck=true" : "") + (jmm ? (selfCheck ? "," : "") + "models=tso:pso:jmm" : "");
            AgentRun run = AgentRun.run(dir, name, options);
            assertEquals(0, run.exit, run.output);
            JsonNode r = run.report;
            assertTrue(r != null, "no report: " + run.output);
            JsonNode stats = r.get("run");
            assertTrue(stats.get("eventsProduced").asLong() > 0, run.output);
            assertEquals(stats.get("eventsProduced").asLong(), stats.get("eventsConsumed").asLong(),
                    "every event produced was checked");
            if (selfCheck) {
                assertEquals(0, stats.get("selfCheckMismatches").asLong(), "self-check: " + r.get("notes"));
                assertTrue(stats.get("selfCheckReads").asLong() > 0);
            }
            assertEquals(0, stats.get("classesFailed").asLong(), r.get("notes").toString());
            boolean[] declared = {expected.tso(), expected.pso(), expected.scser(), expected.tsoser(),
                expected.jmm() == Expected.Jmm.VIOLATION};
            List<String> analyses = List.of("tso", "pso", "scser", "tsoser", "jmm");
            boolean whole = true;
            for (int k = 0; k < declared.length; k++) {
                boolean reported = !run.violations(analyses.get(k)).isEmpty();
                if (!declared[k]) {
                    assertFalse(reported, name + " must have no " + analyses.get(k) + " report:\n" + run.output);
                }
                whole &= reported == declared[k];
            }
            found += whole ? 1 : 0;
            if (atomic) {
                assertEquals(List.of("tso", "pso", "scser", "tsoser"), AgentRun.strings(r.get("analyses")));
                assertTrue(r.get("stats").get("transactions").asLong() > 0, run.output);
                boolean bufferBound = false;
                for (JsonNode note : r.get("notes")) {
                    String n = note.path("text").asText(); // a note is an object (docs/report-format.md)
                    assertFalse(n.isEmpty(), note.toString());
                    boolean bound = (n.startsWith("scser") || n.startsWith("tsoser"))
                            && !n.contains("every transaction ended with a fence"); // Theorem 3 used: not a bound
                    bufferBound |= note.path("kind").asText().equals("buffer-bound")
                            && note.path("analysis").asText().equals("tsoser");
                    assertFalse(bound && !BOUNDED.contains(name), "a serializability bound was reached: " + n);
                }
                assertEquals(BOUNDED.contains(name), bufferBound, "the tsoser buffer-bound note: " + r.get("notes"));
            } else if (jmm) {
                assertEquals(List.of("tso", "pso", "jmm"), AgentRun.strings(r.get("analyses")), "models=tso:pso:jmm");
            } else {
                assertEquals(List.of("tso", "pso"), AgentRun.strings(r.get("analyses")), "no transactions, no serializability checks");
            }
            for (JsonNode v : r.get("violations")) {
                if (v.has("transactions")) {
                    checkCycle(name, markers, v);
                    continue;
                }
                JsonNode store = AgentRun.event(v, "store");
                JsonNode access = AgentRun.event(v, "access");
                String storeAt = store.get("file").asText() + ":" + store.get("line").asInt();
                String accessAt = access.get("file").asText() + ":" + access.get("line").asInt();
                assertTrue(markers.storesAt.contains(storeAt), "store at an unmarked line " + storeAt + " (" + name
                        + " and the classes it shares mark " + markers.storesAt + "): " + v);
                assertTrue(markers.accessesAt.contains(accessAt), "access at an unmarked line " + accessAt + " (" + name
                        + " and the classes it shares mark " + markers.accessesAt + "): " + v);
                for (JsonNode e : List.of(store, access)) {
                    JsonNode caller = e.path("caller");
                    if (caller.isObject() && caller.get("file").asText().equals(name + ".java")) {
                        assertTrue(markers.calls.contains(caller.get("line").asInt()), e.get("role").asText()
                                + " called from an unmarked line " + caller.get("line") + " of " + name + ": " + v);
                    }
                }
                assertFalse(v.get("advice").asText().isEmpty());
            }
            // each sighting is a distinct access event: an analysis cannot count more sightings than events
            for (String analysis : List.of("tso", "pso", "sober")) {
                long seen = 0;
                for (JsonNode v : r.get("violations")) {
                    seen += v.path("counts").path(analysis).asLong(0);
                }
                assertTrue(seen <= r.get("events").asLong(), analysis + " counted " + seen + " sightings in "
                        + r.get("events") + " events");
            }
        }
        if (!clean) {
            assertTrue(found >= 2, name + " got its declared verdict in " + found + " of " + runs + " runs");
        }
    }

    /**
     * One finding must not hide another (S41): the record's race and the lost wake-up go through the same two lines
     * of one buffer class, and are reported as findings of their own, told apart by the calls that reached those
     * lines, each call in the protocol it belongs to. In one of at most four runs (each protocol's race is found by
     * most runs, not by construction in every one).
     */
    @org.junit.jupiter.api.Test
    void twoRacesThroughOneHelperAreTwoFindings() throws Exception {
        String name = "S41_BufferHelperRaces";
        String seen = "";
        for (int i = 0; i < 4; i++) {
            AgentRun run = AgentRun.run(dir, name, "");
            assertEquals(0, run.exit, run.output);
            Set<String> protocols = new TreeSet<>();
            for (JsonNode v : run.report.get("violations")) {
                String store = AgentRun.event(v, "store").path("caller").path("method").asText();
                String access = AgentRun.event(v, "access").path("caller").path("method").asText();
                assertTrue(Set.of("publish", "acknowledge", "signal", "sleep").containsAll(List.of(store, access)),
                        "each access in IntBuffer with the call that reached it: " + v);
                String protocol = Set.of("publish", "acknowledge").contains(store) ? "record" : "wake-up";
                assertEquals(protocol, Set.of("publish", "acknowledge").contains(access) ? "record" : "wake-up",
                        "store and access of one race are in one protocol: " + v);
                assertTrue(v.get("key").asText().contains("#putInt@dev.mmcheck.samples.S41_BufferHelperRaces#" + store
                        + ":"), v.get("key").asText());
                protocols.add(protocol);
            }
            if (protocols.size() == 2) {
                return;
            }
            seen += "\n" + run.output;
        }
        throw new AssertionError("the two races were never reported apart:" + seen);
    }

    /**
     * A reported cycle of transactions: each atomic method's transaction at a line marked
     * {@code mmcheck:tx} (its first), the others' first accesses and every access on an edge at lines
     * marked {@code mmcheck:access} or {@code mmcheck:store}, and a store that commits late at a
     * {@code mmcheck:store} line.
     */
    private static void checkCycle(String name, Markers markers, JsonNode v) {
        String file = name + ".java";
        Set<Integer> any = new TreeSet<>(markers.stores);
        any.addAll(markers.accesses);
        assertTrue(v.get("transactions").size() >= 2, v.toString());
        assertEquals(v.get("transactions").size(), v.get("edges").size(), "a cycle: one edge per transaction " + v);
        for (JsonNode tx : v.get("transactions")) {
            assertEquals(file, tx.get("file").asText(), v.toString());
            Set<Integer> allowed = tx.get("atomic").asBoolean() ? markers.txs : any;
            assertTrue(allowed.contains(tx.get("line").asInt()), "transaction at an unmarked line " + tx.get("line")
                    + " of " + name + ": " + v);
        }
        for (JsonNode edge : v.get("edges")) {
            for (JsonNode e : edge.get("events")) {
                assertEquals(file, e.get("file").asText(), v.toString());
                assertTrue(any.contains(e.get("line").asInt()), "edge access at an unmarked line " + e.get("line")
                        + " of " + name + ": " + v);
            }
            if (edge.has("late")) {
                JsonNode late = AgentRun.event(edge, edge.get("late").asText());
                assertTrue(markers.stores.contains(late.get("line").asInt()), "late store at an unmarked line "
                        + late.get("line") + " of " + name + ": " + v);
            }
        }
        assertFalse(v.get("advice").asText().isEmpty());
    }

    /**
     * The lines a sample marks with {@code // mmcheck:store}, {@code // mmcheck:access}, {@code // mmcheck:tx} and
     * {@code // mmcheck:call}; and as {@code File.java:LINE}, the stores and accesses marked in the sample and in the
     * classes samples share (the files not named {@code Snn_} or {@code Wnn_}: EventLoop, Pool...), where a store or
     * access of a store-buffer report may be.
     */
    record Markers(Set<Integer> stores, Set<Integer> accesses, Set<Integer> txs, Set<Integer> calls, Set<String> storesAt,
            Set<String> accessesAt) {
        static Markers of(String name) throws Exception {
            Path dir = AgentRun.ROOT.resolve("sample-apps/src/main/java/dev/mmcheck/samples");
            List<String> lines = Files.readAllLines(dir.resolve(name + ".java"));
            Set<Integer> stores = new TreeSet<>();
            Set<Integer> accesses = new TreeSet<>();
            Set<Integer> txs = new TreeSet<>();
            Set<Integer> calls = new TreeSet<>();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("mmcheck:call")) {
                    calls.add(i + 1);
                }
                if (lines.get(i).contains("mmcheck:store")) {
                    stores.add(i + 1);
                }
                if (lines.get(i).contains("mmcheck:access")) {
                    accesses.add(i + 1);
                }
                if (lines.get(i).contains("mmcheck:tx")) {
                    txs.add(i + 1);
                }
            }
            Set<String> storesAt = new TreeSet<>();
            Set<String> accessesAt = new TreeSet<>();
            List<Path> files;
            try (var listing = Files.list(dir)) {
                files = listing.filter(f -> f.getFileName().toString().endsWith(".java")).toList();
            }
            for (Path f : files) {
                String file = f.getFileName().toString();
                if (!file.equals(name + ".java") && file.matches("[SW][0-9][0-9]_.*")) {
                    continue; // another sample's markers
                }
                List<String> text = Files.readAllLines(f);
                for (int i = 0; i < text.size(); i++) {
                    if (text.get(i).contains("mmcheck:store")) {
                        storesAt.add(file + ":" + (i + 1));
                    }
                    if (text.get(i).contains("mmcheck:access")) {
                        accessesAt.add(file + ":" + (i + 1));
                    }
                }
            }
            return new Markers(stores, accesses, txs, calls, storesAt, accessesAt);
        }
    }
}
