package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.report.SarifSchema;
import dev.mmcheck.checker.result.Violation;
import dev.mmcheck.checker.trace.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's options end to end: failOnViolation, bad options, -D options, the trace file, models. */
class AgentOptionsIT {

    @TempDir
    Path dir;

    @Test
    void progressLinesShowALongRunIsAliveAndPercentPNamesTheReportByProcess() throws Exception {
        AgentRun run = AgentRun.run(dir, "W01_QueueContention", "progress=1,report=" + dir.resolve("w-%p.json")
                + ",sarif=" + dir.resolve("w-%p.sarif"));
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("mmcheck: progress at 1 s: "), run.output);
        assertTrue(run.output.matches("(?s).*events checked \\([0-9,]+/s\\), backlog [0-9,]+, \\d+ findings so far.*"),
                run.output);
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            List<Path> sarif = files.filter(f -> f.getFileName().toString().matches("w-\\d+\\.sarif")).toList();
            assertEquals(1, sarif.size(), "%p became the process id");
            SarifSchema.assertValid(Files.readAllBytes(sarif.get(0)));
        }
    }

    @Test
    void theSarifFileIsValidAndPointsAtTheSourcesFromTheRepositoryRoot() throws Exception {
        // S01's two races, with the samples' sources as the root: paths GitHub's upload step can open
        Path roots = Path.of("src/main/java").toAbsolutePath();
        AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", "sarif=" + dir.resolve("s.sarif") + ",sourceRoots=" + roots);
        JsonNode log = SarifSchema.assertValid(Files.readAllBytes(dir.resolve("s.sarif")));
        JsonNode sarifRun = log.get("runs").get(0);
        Path base = Path.of(sarifRun.at("/properties/sourceBase").asText());
        assertTrue(sarifRun.get("results").size() >= 1, run.output);
        for (JsonNode r : sarifRun.get("results")) {
            String uri = r.at("/locations/0/physicalLocation/artifactLocation/uri").asText();
            assertTrue(uri.startsWith("sample-apps/src/main/java/dev/mmcheck/samples/"), uri);
            assertTrue(Files.isRegularFile(base.resolve(uri)), uri);
            assertTrue(r.at("/properties/sourceFound").asBoolean(), r.toString());
        }
    }

    @Test
    void aSampledRunSaysSoAndChecksPsoOnly() throws Exception {
        // S24's flags are static fields, always logged: found however the objects are drawn
        AgentRun run = AgentRun.run(dir, "S24_StoreBufferingLoop", "sample=0.05");
        assertEquals(0, run.exit, run.output);
        List<String> lines = run.output.lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("mmcheck 0.")).findFirst().orElse(""));
        assertTrue(header >= 0 && lines.get(header + 1).startsWith("note: SAMPLED run (sample=0.05)"),
                "the second line of the summary says the run was sampled: " + run.output);
        assertEquals("[\"pso\"]", run.report.get("analyses").toString());
        assertEquals(0.05, run.report.get("run").get("sample").asDouble());
        assertTrue(run.report.get("run").has("sampleSeed"));
        assertTrue(run.report.get("complete").asBoolean(), run.output);
        // W05's threads allocate objects whose final fields are mostly not logged: their freezes are left out
        AgentRun work = AgentRun.run(dir, "W05_ThreadLocalWork", "sample=0.05");
        assertEquals(0, work.exit, work.output);
        assertTrue(work.report.get("run").get("storeStoreFencesLeftOut").asLong() > 0, work.output);
        assertTrue(work.report.get("violations").isEmpty(), work.output);
        AgentRun clean = AgentRun.run(dir, "S02_DekkerVolatile", "sample=0.5");
        assertTrue(clean.report.get("violations").isEmpty(), clean.output);
        assertTrue(clean.output.contains("no violations in what was sampled"), "a clean sampled run does not claim "
                + "more than it checked: " + clean.output);
        assertTrue(clean.report.get("notes").toString().contains("\"sampled\""), clean.output);
    }

    /**
     * S28 is clean, but under sample=R the order between the writer's fence and the reader's reads often
     * runs only through the flag's accesses, which are not logged when the flag's object is not drawn.
     * Before the merge followed the flushes' tickets (Flushes; docs/sampling.md, "Fences and the merge")
     * it could feed the reads before the fence, and each of these seeds reported the results' stores.
     */
    @Test
    void aSampledRunDoesNotReportAStoreItsThreadHasAlreadyFencedThroughUnloggedAccesses() throws Exception {
        for (int seed = 1; seed <= 3; seed++) {
            for (String sync : List.of("", ",sync=fences")) {
                AgentRun run = AgentRun.run(dir, "S28_StopFlagFenced", "sample=0.5,seed=" + seed + sync);
                assertEquals(0, run.exit, run.output);
                assertTrue(run.report.get("violations").isEmpty(), "seed " + seed + sync + ": " + run.output);
                assertTrue(run.report.get("complete").asBoolean(), run.output);
            }
        }
        // S18: the pool thread's completion and Future.get are synchronization of objects not drawn, logged
        // only as fences with sync=fences: reported in 10 of 10 runs before the tickets
        for (int seed = 1; seed <= 3; seed++) {
            AgentRun run = AgentRun.run(dir, "S18_ExecutorHandover", "sample=0.05,sync=fences,seed=" + seed);
            assertTrue(run.report.get("violations").isEmpty(), "seed " + seed + ": " + run.output);
            assertEquals("fences", run.report.get("run").get("sampleSync").asText());
        }
    }

    /**
     * S29: the main thread's phases alone are left out (solo periods), the workers' race between them is still
     * found, and solo=off logs everything. SamplesIT checks that nothing is reported off the marked lines.
     */
    @Test
    void theAccessesOfAThreadRunningAloneAreLeftOutAndTheRaceAfterIsStillFound() throws Exception {
        AgentRun run = AgentRun.run(dir, "S29_PhasesAlone", "");
        assertEquals(0, run.exit, run.output);
        JsonNode stats = run.report.get("run");
        assertEquals("on", stats.get("solo").asText(), run.output);
        assertTrue(stats.get("soloPeriods").asLong() >= 1, run.output);
        assertTrue(stats.get("soloAccessesLeftOut").asLong() > 100_000, run.output);
        assertTrue(run.report.get("complete").asBoolean(), run.output);
        assertFalse(run.violations("tso").isEmpty(), run.output);
        assertTrue(run.output.contains("accesses of threads running alone left out"), run.output);
        // who ended the periods, by thread name: here the main thread, starting the workers after its phase alone
        JsonNode endedBy = stats.get("soloEndedBy");
        assertTrue(endedBy.isObject(), run.output);
        long ends = 0;
        for (JsonNode n : endedBy) {
            ends += n.asLong();
        }
        assertTrue(ends >= 1 && ends <= stats.get("soloPeriods").asLong(), endedBy.toString());
        assertTrue(endedBy.has("main"), endedBy.toString());
        // and who was busy beside another thread when the checker looked: the two workers racing
        JsonNode together = stats.get("soloBusyTogether");
        assertTrue(together.isObject() && together.size() >= 2, together.toString());
        AgentRun off = AgentRun.run(dir, "S29_PhasesAlone", "solo=off");
        assertEquals(0, off.exit, off.output);
        assertEquals("off", off.report.get("run").get("solo").asText());
        assertEquals(0, off.report.get("run").get("soloAccessesLeftOut").asLong(), off.output);
        assertTrue(off.report.get("run").get("eventsProduced").asLong()
                > stats.get("eventsProduced").asLong() + 100_000, "solo=off logs the phases alone: " + off.output);
        // the phases alone make 0.4 M volatile and release stores and 0.2 M map reads, left out with the plain
        // accesses (logged, they would make a run with periods log a fifth of what one without does; it logs about
        // a twentieth)
        assertTrue(off.report.get("run").get("eventsProduced").asLong() > 8 * stats.get("eventsProduced").asLong(),
                "the volatile and release stores of the phases alone are left out: " + run.output + off.output);
        // the serializability checks and the self-check need every access: no solo period then
        AgentRun self = AgentRun.run(dir, "S29_PhasesAlone", "selfCheck=true");
        assertEquals("off", self.report.get("run").get("solo").asText());
        assertEquals(0, self.report.get("run").get("soloAccessesLeftOut").asLong(), self.output);
    }

    /**
     * W08, the benchmark workload of one thread alone (a single-threaded unit test's shape): clean, and nearly all
     * its accesses left out in a solo period, which is what keeps a real suite's single-threaded tests within a few
     * times their plain time (docs/performance.md, "Issue 13, tenth round").
     */
    @Test
    void aThreadRunningAloneFromItsStartHasNearlyAllItsAccessesLeftOut() throws Exception {
        AgentRun run = AgentRun.run(dir, "W08_SingleThreaded", "");
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("W08_SingleThreaded: total=2000000 sum=2000000"), run.output);
        assertTrue(run.report.get("complete").asBoolean(), run.output);
        assertTrue(run.report.get("violations").isEmpty(), "one thread alone has nothing to race with: " + run.output);
        JsonNode stats = run.report.get("run");
        long leftOut = stats.get("soloAccessesLeftOut").asLong();
        long logged = stats.get("eventsProduced").asLong();
        // 2,000,000 values, each at least five plain accesses (the counts array, its element read and written, the total)
        assertTrue(leftOut > 9 * (leftOut + logged) / 10 && leftOut >= 9_000_000,
                "left out " + leftOut + ", logged " + logged + ": " + run.output);
    }

    /**
     * overhead= (measuring mmcheck's own cost layer by layer) checks nothing, and a run with it must never pass for a
     * clean one: S01 has two races, and each layer below a normal run reports none, says so in the summary's first two
     * lines, marks the report incomplete and exits 70; each layer still runs as far as it says.
     */
    @Test
    void aRunThatMeasuresALayerChecksNothingAndSaysSo() throws Exception {
        for (String layer : List.of("rewrite", "log", "ids")) {
            AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", "overhead=" + layer);
            assertEquals(70, run.exit, layer + ": " + run.output);
            List<String> lines = run.output.lines().toList();
            int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("mmcheck 0.")).findFirst().orElse(""));
            assertTrue(header >= 0 && lines.get(header).endsWith("checked with nothing")
                    && lines.get(header + 1).startsWith("mmcheck: INCOMPLETE: NOTHING CHECKED: overhead=" + layer),
                    "the first two lines of the summary say nothing was checked: " + run.output);
            assertEquals("[]", run.report.get("analyses").toString(), run.output);
            assertFalse(run.report.get("complete").asBoolean(), run.output);
            assertTrue(run.report.get("violations").isEmpty(), run.output);
            JsonNode r = run.report.get("run");
            assertEquals(layer, r.get("overhead").asText());
            long produced = r.get("eventsProduced").asLong();
            assertEquals(produced, r.get("eventsConsumed").asLong(), run.output);
            if (layer.equals("rewrite")) {
                assertEquals(0, produced, "probes that return at their first test log nothing: " + run.output);
                assertTrue(r.get("classesInstrumented").asLong() > 0, run.output);
            } else {
                assertTrue(produced > 10_000, "every event is logged and taken: " + run.output);
            }
            // S01's two flags and its threads' objects get address ids only from the ids layer on
            assertEquals(layer.equals("ids"), r.get("addressesTracked").asLong() >= 2, layer + ": " + run.output);
        }
        AgentRun kept = AgentRun.run(dir, "S01_DekkerPlain", "overhead=log,failOnError=false");
        assertEquals(0, kept.exit, "failOnError=false keeps the application's status: " + kept.output);
        assertTrue(kept.output.contains("INCOMPLETE: NOTHING CHECKED"), kept.output);
        AgentRun full = AgentRun.run(dir, "S01_DekkerPlain", "overhead=check");
        assertEquals(0, full.exit, full.output);
        assertFalse(full.report.get("violations").isEmpty(), "overhead=check is a normal run: " + full.output);
        assertTrue(full.report.get("run").get("addressesTracked").asLong() >= 2, full.output);
    }

    @Test
    void failOnViolationExitsOneAfterWritingTheReport() throws Exception {
        AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", "failOnViolation=true");
        assertEquals(1, run.exit, run.output);
        assertFalse(run.report.get("violations").isEmpty());
        AgentRun clean = AgentRun.run(dir, "S02_DekkerVolatile", "failOnViolation=true");
        assertEquals(0, clean.exit, clean.output);
    }

    /**
     * The agent's copy of its runtime in the temporary directory is gone even after a run that ends with
     * {@code halt} (failOnViolation's status), which skips {@code deleteOnExit}: one copy was left per such run.
     */
    @Test
    void aRunEndingWithAFailingStatusLeavesNoCopyOfTheRuntimeBehind() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path report = dir.resolve("halt.json");
        AgentRun run = AgentRun.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-javaagent:" + AgentRun.AGENT + "=report=" + report + ",failOnViolation=true",
                "-jar", AgentRun.SAMPLES.toString(), "S01_DekkerPlain"), report);
        assertEquals(1, run.exit, run.output);
        org.junit.jupiter.api.Assertions.assertNotNull(run.report, run.output);
        assertFalse(run.report.get("violations").isEmpty(), "the runtime was there for the whole run");
        try (java.util.stream.Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("mmcheck-runtime"))
                    .toList());
        }
    }

    @Test
    void aBadOptionStopsTheJvmWithOneLine() throws Exception {
        String stop = " (stopping with exit status 2 rather than running unchecked: a test runner reports this as a fork "
                + "that did not say goodbye)";
        String[][] cases = {
            {"models=tso:arm", "mmcheck: option models=tso:arm: unknown model 'arm' (choose from tso, pso, sober, "
                + "scser, tsoser, jmm, separated by ':', or all)" + stop},
            {"failOnViolation=yes", "mmcheck: option failOnViolation=yes must be true or false" + stop},
            {"frobnicate=1", "mmcheck: unknown option 'frobnicate' (agent argument); known options: report, models, "
                + "includes, excludes, trace, failOnViolation, selfCheck, atomic, failOnError, checkerMemory, repeatedLoads, "
                + "injectFailure, schedule, seed, failOn, suppress, baseline, sarif, html, progress, sample, sync, solo, overhead, bufferBound, jmmAddresses, jmmValidatedReads, jmmWriteLog, sourceRoots, synthetic, fix"
                + stop},
        };
        for (String[] c : cases) {
            AgentRun run = AgentRun.run(dir, "S02_DekkerVolatile", c[0]);
            assertEquals(2, run.exit, run.output);
            List<String> lines = run.output.lines().filter(l -> !l.contains("VM warning")).toList();
            assertEquals(List.of(c[1]), lines, run.output);
        }
    }

    @Test
    void systemPropertiesSetOptionsToo() throws Exception {
        Path report = dir.resolve("viaD.json");
        AgentRun run = AgentRun.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dmmcheck.models=tso", "-Dmmcheck.report=" + report, "-javaagent:" + AgentRun.AGENT, "-jar",
                AgentRun.SAMPLES.toString(), "S01_DekkerPlain"), report);
        assertEquals(0, run.exit, run.output);
        assertEquals("[\"tso\"]", run.report.get("analyses").toString());
        AgentRun bad = AgentRun.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dmmcheck.reprot=x", "-javaagent:" + AgentRun.AGENT, "-jar", AgentRun.SAMPLES.toString(),
                "S02_DekkerVolatile"), null);
        assertEquals(2, bad.exit, bad.output);
        assertTrue(bad.output.contains("unknown option 'reprot' (-Dmmcheck.reprot)"), bad.output);
    }

    @Test
    void theTraceReplaysToTheSameViolations() throws Exception {
        Path trace = dir.resolve("dekker.mmct");
        AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", "trace=" + trace);
        assertEquals(0, run.exit, run.output);
        assertTrue(Files.size(trace) > 0);
        Set<String> live = new TreeSet<>();
        for (JsonNode v : run.report.get("violations")) {
            for (JsonNode a : v.get("analyses")) {
                live.add(a.asText() + " " + AgentRun.event(v, "store").get("line") + " "
                        + AgentRun.event(v, "access").get("line"));
            }
        }
        Symbols symbols = new Symbols();
        Checker checker = new Checker(symbols, Checker.Config.defaults());
        TraceFiles.Summary s = TraceFiles.read(trace, symbols, checker);
        assertTrue(s.complete(), s.note());
        assertEquals(run.report.get("events").asLong(), s.events(), "the trace holds every event the checker saw");
        Set<String> replayed = new TreeSet<>();
        for (Violation v : checker.result().violations()) {
            replayed.add(v.analysis().option() + " " + v.store().site().line() + " " + v.access().site().line());
        }
        assertEquals(live, replayed);
    }

    /**
     * atomic= declares transactions in a class with no annotation: S01's two thread bodies run once per
     * round, 3000 rounds each, so exactly 6000 transactions; the serializability checks start by
     * themselves, and an explicit models= without them keeps them off.
     */
    @Test
    void theAtomicOptionDeclaresTransactions() throws Exception {
        String atomic = "atomic=dev.mmcheck.samples.S01_DekkerPlain#thread*";
        AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", atomic);
        assertEquals(0, run.exit, run.output);
        assertEquals(List.of("tso", "pso", "scser", "tsoser"), AgentRun.strings(run.report.get("analyses")));
        assertEquals(6000, run.report.get("stats").get("transactions").asLong(), run.output);
        AgentRun off = AgentRun.run(dir, "S01_DekkerPlain", atomic + ",models=tso:pso");
        assertEquals(List.of("tso", "pso"), AgentRun.strings(off.report.get("analyses")));
        assertEquals(0, off.report.get("stats").get("transactions").asLong(), off.output);
        assertTrue(off.violations("scser").isEmpty() && off.violations("tsoser").isEmpty());
    }

    @Test
    void withoutTheAgentTheSamplesRunPlainly() throws Exception {
        AgentRun run = AgentRun.run(dir, "S01_DekkerPlain", null);
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("S01_DekkerPlain: both threads entered in"), run.output);
        assertFalse(run.output.contains("mmcheck"), run.output);
    }
}
