package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.fixtures.jdk.Modes;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.runtime.EventLog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.mmcheck.runtime.Kinds.FULL_FENCE;
import static dev.mmcheck.runtime.Kinds.INTERLOCKED;
import static dev.mmcheck.runtime.Kinds.LOAD_FENCE;
import static dev.mmcheck.runtime.Kinds.STORE;
import static dev.mmcheck.runtime.Kinds.STORE_STORE_FENCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every event carries the access mode the code chose, in its site (docs/mapping.md, "Access modes"): a
 * read-modify-write's flavour, whether a compare-and-set failed (the failure site of the same instruction, the event
 * still INTERLOCKED), a fence's flavour. The fixture's calls run rewritten; the modes are read from the sites of the
 * events they log.
 */
class AccessModesTest {

    private static Rewritten rewritten;

    @BeforeAll
    static void rewrite() throws Exception {
        EventLog.configure(1 << 14, true);
        rewritten = new Rewritten(Modes.class);
        dev.mmcheck.runtime.Targets.resolver(rewritten.fields.resolver()); // the static field's id, as the agent gives it
    }

    private Site site(Rewritten.Ev e) {
        return rewritten.sites.get(e.site());
    }

    /**
     * The modes of the read-modify-writes of {@code method}, in order, without the failed tries of a weak
     * compare-and-set the fixture retries (a failure followed by the success of the same instruction): a weak one
     * may fail spuriously. Every read-modify-write is an INTERLOCKED event, failed or not.
     */
    private List<String> rmws(String method) throws Exception {
        List<Rewritten.Ev> events = rewritten.run(rewritten.instance(Modes.class), method);
        List<Site> sites = new ArrayList<>();
        for (Rewritten.Ev e : events) {
            if (e.kind() == INTERLOCKED) {
                sites.add(site(e));
            }
        }
        List<String> out = new ArrayList<>();
        for (int k = 0; k < sites.size(); k++) {
            Site s = sites.get(k);
            boolean retried = k + 1 < sites.size() && s.mode().endsWith("failed")
                    && sites.get(k + 1).bci() == s.bci() && !sites.get(k + 1).mode().endsWith("failed");
            if (!retried) {
                out.add(s.mode());
            }
        }
        return out;
    }

    @Test
    void aVarHandlesReadModifyWritesCarryTheirFlavourAndOutcome() throws Exception {
        assertEquals(List.of(
                "", "failed", "", "failed", // compareAndSet, weakCompareAndSet (volatile through a VarHandle)
                "plain", "plain-failed", "acquire", "acquire-failed", "release", "release-failed", // the weak ones
                "", "failed", "acquire", "acquire-failed", "release", "release-failed", // compareAndExchange*
                "", "acquire", "release", "", "acquire", "release", "", "acquire", "release"), // getAndSet, Add, Bitwise
                rmws("handle"));
    }

    @Test
    void theAtomicsUpdatersArraysPairsAndUnsafeToo() throws Exception {
        assertEquals(List.of(
                "", "failed", // AtomicInteger.compareAndSet
                "plain", "plain-failed", // weakCompareAndSet: plain memory effects since JDK 9 (its javadoc)
                "", "failed", "plain", "acquire", "release", // weakCompareAndSetVolatile, Plain, Acquire, Release
                "", "failed", "acquire", "release-failed", // compareAndExchange*
                "", "", "", "", // getAndIncrement, incrementAndGet, getAndSet, updateAndGet
                "", "failed", "plain", // the updater's compareAndSet and weakCompareAndSet ("no ordering guarantees")
                "", "failed", // AtomicLongArray.compareAndExchange
                "", "failed", "", "failed", // AtomicStampedReference.compareAndSet, attemptStamp
                "plain", "failed", // AtomicMarkableReference.weakCompareAndSet, attemptMark
                "", "failed", ""), // Unsafe.compareAndSwapInt, getAndAddInt
                rmws("atomics"));
    }

    /**
     * A compareAndExchange succeeded when its witness is the expected value: longs (two stack slots), doubles and
     * floats by their raw bits as the JDK compares them (-0.0 is not 0.0, NaN is NaN), references by identity (an
     * equal string is not the same), and a primitive variable reached with reference types by value.
     */
    @Test
    void anExchangeIsDecidedByItsWitness() throws Exception {
        assertEquals(List.of(
                "", "failed", "", "failed", // AtomicLong, a long VarHandle
                "failed", "", "", // double: -0.0 against 0.0; NaN against NaN; 2.0
                "", "failed", // float: NaN; -0.0 against 1.0
                "failed", "", // AtomicReference: an equal string, then the same one
                "", // an Object VarHandle
                "", "failed"), // an int VarHandle called with boxes: 1000 (a box of its own) is 1000
                rmws("exchanges"));
    }

    /** A static field's VarHandle runs muted: its outcome is told all the same, and the thread's accesses after it are logged. */
    @Test
    void aMutedCompareAndSetIsUnmutedBeforeItsOutcomeIsLogged() throws Exception {
        List<Rewritten.Ev> events = rewritten.run(rewritten.instance(Modes.class), "muted");
        assertEquals(List.of("", "failed", "", "failed"), events.stream().filter(e -> e.kind() == INTERLOCKED)
                .map(e -> site(e).mode()).toList());
        assertEquals(STORE, events.get(events.size() - 1).kind(), "the plain store after them is logged: " + events);
    }

    /**
     * The failure site is the same instruction as the success site (class, method, file, line, bytecode index), only
     * its mode differs; both are INTERLOCKED events, so the store-buffer models see what they saw before.
     */
    @Test
    void aCompareAndSetHasTwoSitesOfOneInstruction() throws Exception {
        List<Rewritten.Ev> cas = rewritten.run(rewritten.instance(Modes.class), "handle").stream()
                .filter(e -> e.kind() == INTERLOCKED).limit(2).toList();
        Site ok = site(cas.get(0));
        Site failed = site(cas.get(1));
        assertNotEquals(ok.line(), failed.line(), "two calls");
        int okId = cas.get(0).site();
        Site failedOfOk = null;
        for (int id = 0; id < rewritten.sites.size(); id++) {
            Site s = rewritten.sites.get(id);
            if (id != okId && s.bci() == ok.bci() && s.method().equals(ok.method()) && s.className().equals(ok.className())) {
                assertTrue(failedOfOk == null, "one failure site per instruction");
                failedOfOk = s;
            }
        }
        assertEquals(new Site(ok.className(), ok.method(), ok.file(), ok.line(), ok.bci(), "failed"), failedOfOk);
        assertEquals("failed", failed.mode());
    }

    /**
     * A compareAndExchange whose result the code drops has a void descriptor: its outcome is not known after the call,
     * and it is logged at its success site (docs/mapping.md), as every CAS was before outcomes were recorded.
     */
    @Test
    void anExchangeWhoseWitnessIsDroppedIsLoggedAtItsSuccessSite() throws Exception {
        assertEquals(List.of(""), rmws("dropped"), "it failed (-1 expected), but nothing tells");
    }

    @Test
    void everyFenceCarriesItsFlavour() throws Exception {
        List<String> fences = new ArrayList<>();
        for (Rewritten.Ev e : rewritten.run(rewritten.instance(Modes.class), "fences")) {
            if (e.kind() == STORE_STORE_FENCE || e.kind() == LOAD_FENCE || e.kind() == FULL_FENCE) {
                fences.add((e.kind() == STORE_STORE_FENCE ? "storestore-fence" : e.kind() == LOAD_FENCE ? "load-fence"
                        : "fence") + " " + site(e).mode());
            }
        }
        assertEquals(List.of("storestore-fence release", "storestore-fence storestore", "load-fence acquire",
                "load-fence loadload", "fence ", "storestore-fence release", "load-fence acquire", "fence "), fences,
                "releaseFence, storeStoreFence, acquireFence, loadLoadFence, fullFence; Unsafe's storeFence, loadFence, "
                + "fullFence");
    }
}
