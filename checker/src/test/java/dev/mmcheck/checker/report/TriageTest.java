package dev.mmcheck.checker.report;

import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.result.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One finding per race, its category and key, and what suppression rules and a baseline do with it. */
class TriageTest {

    @TempDir
    Path dir;

    private static final String Q = "org.jctools.queues.SpscArrayQueue";
    private static final String U = "org.jctools.util.UnsafeRefArrayAccess";

    private static EventInfo ev(String role, String op, String cls, String method, int line, String field, String mode) {
        String file = cls.substring(cls.lastIndexOf('.') + 1) + ".java";
        return new EventInfo(role, "T", op, new Site(cls, method, file, line, 7, mode), field);
    }

    /** A store-buffer violation of {@code a}: store at line {@code store}, prev at {@code prev}, access at 89. */
    private static Violation v(Analysis a, String storeOp, int store, int prev, String accessMode) {
        return new Violation("sc-violation", a, List.of(
                ev("store", storeOp, U, "soRefElement", store, "Object[][" + prev + "]", ""),
                ev("prev", "load", Q, "poll", prev, "SpscArrayQueue.consumerIndex", ""),
                ev("access", "load", U, "lvRefElement", 89, "Object[][" + (prev + 1) + "]", accessMode)),
                null, "no path", "fence it", prev);
    }

    @Test
    void oneFindingPerStoreAndAccessWithItsModelsAndPrevEvents() {
        Violation tso = v(Analysis.TSO, "release-store", 63, 216, "volatile");
        Violation pso = v(Analysis.PSO, "release-store", 63, 216, "volatile");
        Violation otherPrev = v(Analysis.TSO, "release-store", 63, 230, "volatile");
        Violation otherStore = v(Analysis.TSO, "store", 64, 216, "");
        tso.seenAgain();
        List<Finding> findings = Finding.group(List.of(tso, pso, otherPrev, otherStore));
        assertEquals(2, findings.size(), "one per (store site, access site)");
        Finding f = findings.get(0);
        assertEquals(List.of("TSO", "PSO"), f.models());
        assertEquals(List.of(Analysis.TSO, Analysis.PSO), f.analyses());
        assertEquals(3, f.count(), "TSO saw it 2 + 1 times; PSO once");
        assertEquals(2, f.examples().size(), "two distinct prev events");
        assertEquals(216, f.examples().get(0).prev().site().line());
        assertEquals(2, f.examples().get(0).count());
        assertEquals(Category.RELAXED, f.category(), "release store against a volatile load");
        assertEquals(Category.RACE, findings.get(1).category(), "a plain store");
        assertEquals("race:" + U + "#soRefElement:Object[][]->" + U + "#lvRefElement:Object[][]", f.key(),
                "no lines, no element indices");
    }

    @Test
    void theCategoryComesFromTheModesOnBothSides() {
        assertEquals(Category.RACE, Finding.group(List.of(v(Analysis.TSO, "release-store", 1, 2, ""))).get(0)
                .category(), "a plain load on the access side");
        assertEquals(Category.RACE, Finding.group(List.of(v(Analysis.TSO, "store", 1, 2, "acquire"))).get(0)
                .category(), "a plain store is a race, whatever the load");
        assertEquals(Category.RELAXED, Finding.group(List.of(new Violation("sc-violation", Analysis.TSO, List.of(
                ev("store", "store", U, "m", 1, "x", "opaque"), ev("prev", "load", U, "m", 2, "y", ""),
                ev("access", "load", U, "m", 3, "x", "opaque")), null, "", "", 0))).get(0).category(),
                "opaque on both sides");
        for (String flavour : List.of("", "acquire", "release", "plain")) {
            for (String mode : List.of(flavour, dev.mmcheck.checker.event.SiteModes.failed(flavour))) {
                EventInfo cas = ev("access", "cas", U, "m", 3, "x", mode);
                assertEquals(mode.isEmpty() ? "interlocked" : "interlocked-" + mode, Category.mode(cas));
                assertEquals(mode, Category.siteMode("cas", Category.mode(cas)), "read back from a report");
                assertEquals(Category.RELAXED, Finding.group(List.of(new Violation("sc-violation", Analysis.TSO, List.of(
                        ev("store", "release-store", U, "m", 1, "x", ""), ev("prev", "load", U, "m", 2, "y", ""), cas),
                        null, "", "", 0))).get(0).category(), "a CAS of any flavour, failed or not, is no plain access: "
                        + mode);
            }
        }
        for (String[] e : new String[][] {{"load", ""}, {"load", "acquire"}, {"store", "release"}, {"store", "opaque"},
            {"release-store", ""}, {"volatile-store", ""}, {"monitor-enter", ""}}) {
            assertEquals(e[1], Category.siteMode(e[0], Category.mode(ev("access", e[0], U, "m", 3, "x", e[1]))),
                    e[0] + " " + e[1]);
        }
    }

    @Test
    void rulesSuppressByMethodFieldOrLineAndSayWhatTheyMatched() throws Exception {
        Path rules = dir.resolve("rules.txt");
        Files.writeString(rules, String.join("\n",
                "# JCTools: the element hand-over is release/acquire by design",
                "store=UnsafeRefArrayAccess#soRefElement access=*#lvRefElement category=relaxed reason=checked by "
                        + "the consumer's null test",
                "field=SpscArrayQueue.producerIndex reason=never matches here",
                ""));
        Triage t = Triage.load(rules, null, EnumSet.allOf(Category.class));
        List<Finding> findings = Finding.group(List.of(v(Analysis.TSO, "release-store", 63, 216, "volatile"),
                v(Analysis.TSO, "store", 64, 216, "")));
        Triage.Outcome o = t.apply(findings);
        assertTrue(findings.get(0).suppressed());
        assertEquals(rules + ":2 (checked by the consumer's null test)", findings.get(0).suppressedBy());
        assertFalse(findings.get(1).suppressed(), "category=relaxed does not match the race");
        assertEquals(1, o.failing());
        assertEquals(List.of(1, 0), List.copyOf(o.used().values()));
        assertTrue(o.notes().get(0).text().contains(rules + ":3 matched nothing"), o.notes().toString());

        Triage byLine = Triage.load(write("store=UnsafeRefArrayAccess.java:64 reason=x"), null,
                EnumSet.allOf(Category.class));
        assertEquals(1, byLine.apply(Finding.group(List.of(v(Analysis.TSO, "store", 64, 216, "")))).used().values()
                .iterator().next());
        Triage byElement = Triage.load(write("field=Object[][] reason=x"), null, EnumSet.allOf(Category.class));
        assertEquals(0, byElement.apply(Finding.group(List.of(v(Analysis.TSO, "store", 64, 216, "")))).failing());
    }

    private Path write(String rule) throws Exception {
        Path p = Files.createTempFile(dir, "rule", ".txt");
        Files.writeString(p, rule + "\n");
        return p;
    }

    @Test
    void aBaselineIsWrittenOnceAndThenOnlyNewFindingsFail() throws Exception {
        Path baseline = dir.resolve("sub/baseline.txt");
        List<Finding> first = Finding.group(List.of(v(Analysis.TSO, "store", 64, 216, "")));
        Triage.Outcome o = Triage.load(null, baseline, EnumSet.allOf(Category.class)).apply(first);
        assertTrue(o.baselineWritten());
        assertEquals(0, o.failing());
        // the same race on other lines (an unrelated edit moved it) and a new one
        List<Finding> later = Finding.group(List.of(v(Analysis.TSO, "store", 70, 222, ""),
                new Violation("sc-violation", Analysis.TSO, List.of(ev("store", "store", Q, "offer", 5, "x", ""),
                        ev("prev", "load", Q, "offer", 6, "y", ""), ev("access", "load", Q, "poll", 9, "x", "")),
                        null, "", "", 0)));
        Triage.Outcome again = Triage.load(null, baseline, EnumSet.allOf(Category.class)).apply(later);
        assertFalse(again.baselineWritten());
        assertTrue(later.get(0).baselined(), "the key has no line numbers");
        assertFalse(later.get(1).baselined());
        assertEquals(1, again.failing());
        assertEquals(0, Triage.load(null, baseline, EnumSet.of(Category.RELAXED)).apply(
                Finding.group(List.of(later.get(1).first()))).failing(), "failOn=relaxed: races do not fail");
    }

    @Test
    void mistakesInARuleNameTheLine() throws Exception {
        assertEquals("f:1: a suppression needs a reason (reason=why this is fine, to the end of the line)",
                assertThrows(Triage.TriageException.class, () -> Triage.rule("f:1", "store=A#b")).getMessage());
        assertEquals("f:2: unknown key 'stroe' (keys: store, access, field, tx, category, reason)",
                assertThrows(Triage.TriageException.class, () -> Triage.rule("f:2", "stroe=A reason=r")).getMessage());
        assertEquals("f:3: unknown category 'bad' (race, relaxed, atomicity)",
                assertThrows(Triage.TriageException.class, () -> Triage.rule("f:3", "category=bad reason=r"))
                        .getMessage());
        assertEquals("f:4: a suppression needs at least one of store=, access=, field=, tx=, category=",
                assertThrows(Triage.TriageException.class, () -> Triage.rule("f:4", "reason=r")).getMessage());
        assertThrows(Triage.TriageException.class, () -> Triage.categories("race:nope"));
        assertEquals(EnumSet.of(Category.RACE, Category.RELAXED), Triage.categories("race:relaxed"));
    }

    /** A rule names a class as users write it: simple name, nested class by its source name or its own. */
    @Test
    void aRuleMatchesASimpleClassNameAndANestedClassAsWritten() throws Exception {
        Violation queue = v(Analysis.TSO, "store", 63, 216, "");
        Violation nested = new Violation("sc-violation", Analysis.TSO, List.of(
                ev("store", "store", "org.x.Outer$Inner", "put", 5, "Outer$Inner.x", ""),
                ev("prev", "load", "org.x.Outer$Inner", "put", 6, "Outer$Inner.y", ""),
                ev("access", "load", "org.x.Outer$Inner", "get", 9, "Outer$Inner.x", "")), null, "", "", 0);
        Finding f = Finding.group(List.of(queue)).get(0);
        Finding g = Finding.group(List.of(nested)).get(0);
        assertTrue(Triage.rule("f:1", "store=UnsafeRefArrayAccess reason=r").matches(f), "a simple class name");
        assertTrue(Triage.rule("f:1", "store=Unsafe*Access access=UnsafeRefArrayAccess reason=r").matches(f));
        assertFalse(Triage.rule("f:1", "store=RefArrayAccess reason=r").matches(f), "not any suffix");
        for (String name : List.of("Outer$Inner", "Outer.Inner", "Inner", "org.x.Outer.Inner", "org.x.Outer$Inner",
                "Inner#put", "Outer.Inner#put")) {
            assertTrue(Triage.rule("f:1", "store=" + name + " reason=r").matches(g), name);
        }
        assertFalse(Triage.rule("f:1", "store=Outer reason=r").matches(g), "the outer class is another class");
    }

    /**
     * One of several JVMs (forks) writes no baseline from its own findings, fails on none of them while the baseline
     * does not exist, and does not call a rule that matched nothing here unused.
     */
    @Test
    void oneForkOfSeveralWritesNoBaselineAndCallsNoRuleUnused() throws Exception {
        Path baseline = dir.resolve("baseline.txt");
        Path rules = dir.resolve("rules.txt");
        Files.writeString(rules, "store=Nowhere reason=for code another fork runs\n");
        Triage fork = Triage.load(rules, baseline, EnumSet.allOf(Category.class)).partialRun();
        Triage.Outcome o = fork.apply(Finding.group(List.of(v(Analysis.TSO, "store", 63, 216, ""))));
        assertFalse(Files.exists(baseline), "the merge writes it, from every fork's findings");
        assertFalse(o.baselineWritten());
        assertEquals(0, o.failing(), "no baseline yet: the first run fails on none, as in one JVM");
        assertTrue(o.notes().stream().anyMatch(n -> n.kind().equals("baseline-not-written")), o.notes().toString());
        assertTrue(o.notes().stream().noneMatch(n -> n.kind().equals("suppression-unused")), o.notes().toString());
        assertTrue(o.notes().stream().anyMatch(n -> n.kind().equals("suppression-unused-here")
                && !n.text().contains("remove it")), o.notes().toString());
        Triage.Outcome whole = Triage.load(rules, baseline, EnumSet.allOf(Category.class))
                .apply(Finding.group(List.of(v(Analysis.TSO, "store", 63, 216, ""))));
        assertTrue(Files.exists(baseline), "a whole run writes it");
        assertTrue(whole.notes().stream().anyMatch(n -> n.kind().equals("suppression-unused")));
    }
}
