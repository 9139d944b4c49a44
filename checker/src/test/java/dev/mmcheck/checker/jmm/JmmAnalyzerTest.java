package dev.mmcheck.checker.jmm;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.FindingSink;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The access-mode analysis on the event stream: kinds and site modes reach the monitor as docs/jmm-model.md's
 * table says, violations come out as findings naming the SC-ordered write and the access, dead addresses start a
 * new location, and the address bound is noted.
 */
class JmmAnalyzerTest {

    private static final int DATA = 0;
    private static final int FLAG = 1;

    /** One finding as the sink got it: store site, store thread, access site, access thread. */
    record Got(int storeSite, int storeThread, int storeKind, long storeSeq, int accessSite, int thread, long accessSeq) {
    }

    private final List<Got> got = new ArrayList<>();
    private final Map<Integer, String> modes = new HashMap<>();
    private long seq;

    private final FindingSink sink = new FindingSink() {
        @Override
        public void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
                long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq) {
            assertEquals(Analysis.JMM, analysis);
            assertEquals(storeAddress, accessAddress);
            got.add(new Got(storeSite, storeThread, storeKind, storeSeq, accessSite, thread, accessSeq));
        }

        @Override
        public void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
                long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq,
                Prev prev) {
            prevs.add(prev.seq());
            storeBuffered(analysis, storeThread, storeKind, storeAddress, storeSite, storeSeq, thread, accessKind,
                    accessAddress, accessSite, accessSeq);
        }

        @Override
        public Prev prevOf(int thread) {
            return new Prev(lastSeq.getOrDefault(thread, -1L), 0, 0, 0);
        }

        @Override
        public void cycle(Analysis analysis, List<Tx> transactions, List<Edge> edges, String advice, long s) {
            throw new AssertionError("no cycles here");
        }
    };
    private final List<Long> prevs = new ArrayList<>();      // the prev of each finding reported after later events
    private final Map<Integer, Long> lastSeq = new HashMap<>(); // each thread's last event, as the checker's LastEvents

    private JmmAnalyzer current;

    private JmmAnalyzer analyzer(int bound) {
        current = new JmmAnalyzer(sink, site -> modes.getOrDefault(site, ""), bound, VolatileRule.SYNCHRONIZATION_ORDER);
        return current;
    }

    /** The findings once the stream has ended (a stale read may be held back for a validating re-read until then). */
    private List<Got> got() {
        current.finish();
        return got;
    }

    /** Feeds an event whose site is {@code site}, with the site's mode {@code mode}. */
    private void ev(JmmAnalyzer a, int kind, int thread, int operand, int site, String mode) {
        modes.put(site, mode);
        a.event(kind, thread, operand, site, seq);
        lastSeq.put(thread, seq++); // after the analysis, as the checker remembers it
    }

    /** Message passing with a release store of the flag, read with the given mode: data is read stale unless it acquires. */
    private List<Got> messagePassing(String readerMode) {
        got.clear();
        JmmAnalyzer a = analyzer(16);
        ev(a, Kinds.STORE, 0, DATA, 10, "");
        ev(a, Kinds.RELEASE_STORE, 0, FLAG, 11, "");
        ev(a, Kinds.LOAD, 1, FLAG, 20, readerMode);
        ev(a, Kinds.LOAD, 1, DATA, 21, "");
        return List.copyOf(got());
    }

    @Test
    void aCarelessReaderIsReportedAndAnAcquiringOneIsNot() {
        assertEquals(List.of(new Got(10, 0, Kinds.STORE, 0, 21, 1, 3)), messagePassing(""));
        assertEquals(1, messagePassing("opaque").size());
        assertEquals(List.of(), messagePassing("acquire"));
        assertEquals(List.of(), messagePassing("volatile"));
    }

    /**
     * A relaxed compare-and-set of the flag after the data: had it succeeded, its write would carry the writer's SC
     * knowledge to the acquiring reader but not the data (a relaxed write), and the data read would be stale; it
     * failed, so the reader read the flag's initial value and learnt nothing: no report. Read as a success, the
     * failed CAS would be a false report.
     */
    @Test
    void aFailedCompareAndSetIsOnlyARead() {
        for (String mode : List.of("plain", "plain-failed")) {
            got.clear();
            JmmAnalyzer a = analyzer(16);
            ev(a, Kinds.STORE, 0, DATA, 10, "");
            ev(a, Kinds.INTERLOCKED, 0, FLAG, 11, mode);
            ev(a, Kinds.LOAD, 1, FLAG, 20, "acquire");
            ev(a, Kinds.LOAD, 1, DATA, 21, "");
            assertEquals(mode.equals("plain") ? 1 : 0, got().size(), mode);
        }
        // a release compare-and-set that succeeded publishes the data; a volatile one too
        for (String mode : List.of("release", "")) {
            got.clear();
            JmmAnalyzer a = analyzer(16);
            ev(a, Kinds.STORE, 0, DATA, 10, "");
            ev(a, Kinds.INTERLOCKED, 0, FLAG, 11, mode);
            ev(a, Kinds.LOAD, 1, FLAG, 20, "acquire");
            ev(a, Kinds.LOAD, 1, DATA, 21, "");
            assertEquals(0, got().size(), mode);
        }
        // an acquire one does not (its write part is relaxed)
        got.clear();
        JmmAnalyzer a = analyzer(16);
        ev(a, Kinds.STORE, 0, DATA, 10, "");
        ev(a, Kinds.INTERLOCKED, 0, FLAG, 11, "acquire");
        ev(a, Kinds.LOAD, 1, FLAG, 20, "acquire");
        ev(a, Kinds.LOAD, 1, DATA, 21, "");
        assertEquals(1, got().size());
    }

    /**
     * An immutable object published by a race (JLS 17.5): the reader reads the final field through the reference it
     * got and sees the constructor's value; a plain field read the same way is a stale read.
     */
    @Test
    void aFinalFieldReadThroughARacyReferenceIsNotStale() {
        for (String mode : List.of("final", "")) {
            got.clear();
            JmmAnalyzer a = analyzer(16);
            ev(a, Kinds.STORE, 0, DATA, 10, "");              // the constructor writes the field
            ev(a, Kinds.STORE_STORE_FENCE, 0, -1, 11, "storestore"); // the freeze
            ev(a, Kinds.STORE, 0, FLAG, 12, "");              // the reference is stored, plainly
            ev(a, Kinds.LOAD, 1, FLAG, 20, "");               // and read, plainly
            ev(a, Kinds.LOAD, 1, DATA, 21, mode);             // the field through it
            assertEquals(mode.isEmpty() ? 1 : 0, got().size(), mode);
        }
    }

    /** Fences by kind: a release (or store-store) fence before a plain flag store and an acquire (or load-load) fence after its plain read. */
    @Test
    void fencesByTheirSitesKind() {
        String[][] pairs = {{"release", "acquire"}, {"storestore", "loadload"}, {"", ""}};
        for (String[] p : pairs) {
            got.clear();
            JmmAnalyzer a = analyzer(16);
            ev(a, Kinds.STORE, 0, DATA, 10, "");
            ev(a, Kinds.STORE_STORE_FENCE, 0, -1, 11, p[0]);
            ev(a, Kinds.STORE, 0, FLAG, 12, "");
            ev(a, Kinds.LOAD, 1, FLAG, 20, "");
            ev(a, Kinds.LOAD_FENCE, 1, -1, 21, p[1]);
            ev(a, Kinds.LOAD, 1, DATA, 22, "");
            assertEquals(List.of(), got(), String.join("/", p));
        }
        // without the reader's fence: reported
        got.clear();
        JmmAnalyzer a = analyzer(16);
        ev(a, Kinds.STORE, 0, DATA, 10, "");
        ev(a, Kinds.STORE_STORE_FENCE, 0, -1, 11, "release");
        ev(a, Kinds.STORE, 0, FLAG, 12, "");
        ev(a, Kinds.LOAD, 1, FLAG, 20, "");
        ev(a, Kinds.LOAD, 1, DATA, 22, "");
        assertEquals(1, got().size());
    }

    /** A collected object's address names a new object: reading its initial value is not stale. */
    @Test
    void aDeadAddressStartsANewLocation() {
        for (boolean dies : new boolean[] {false, true}) {
            got.clear();
            JmmAnalyzer a = analyzer(16);
            ev(a, Kinds.STORE, 0, DATA, 10, "");
            ev(a, Kinds.STORE, 0, FLAG, 11, "");
            ev(a, Kinds.LOAD, 1, FLAG, 20, "");
            if (dies) {
                a.event(Kinds.ADDRESS_DEAD, -1, DATA, 0, seq++);
            }
            ev(a, Kinds.LOAD, 1, DATA, 21, "");
            assertEquals(dies ? 0 : 1, got().size(), "dies " + dies);
        }
    }

    /** Past its bound of live addresses the analysis lets the less recently used half go, and says so. */
    @Test
    void theAddressBoundIsNoted() {
        JmmAnalyzer a = analyzer(2);
        ev(a, Kinds.STORE, 0, DATA, 10, "");
        ev(a, Kinds.STORE, 0, FLAG, 11, "");
        assertEquals(List.of(), a.notes());
        a.event(Kinds.ADDRESS_DEAD, -1, DATA, 0, seq++);
        ev(a, Kinds.STORE, 0, 2, 12, "");
        assertEquals(List.of(), a.notes(), "a retired address frees its room");
        ev(a, Kinds.STORE, 0, 3, 13, "");
        assertEquals(1, a.evictions());
        assertEquals(1, a.notes().size());
        assertTrue(a.notes().get(0).text().contains("at most 2 addresses"), a.notes().get(0).text());
    }

    /**
     * The write log's bound: message passing whose data the writer overwrites three more times after the flag. The
     * reader's stale data read needs the first data write, which a log of one write no longer keeps: not reported, and
     * the jmm-write-log note says so; a log of every write reports it.
     */
    @Test
    void theWriteLogBoundIsNoted() {
        for (int writeLog : new int[] {1, Integer.MAX_VALUE}) {
            got.clear();
            current = new JmmAnalyzer(sink, site -> modes.getOrDefault(site, ""), 16, VolatileRule.SYNCHRONIZATION_ORDER,
                    true, writeLog);
            JmmAnalyzer a = current;
            ev(a, Kinds.STORE, 0, DATA, 10, "");
            ev(a, Kinds.RELEASE_STORE, 0, FLAG, 11, "");
            for (int i = 0; i < 3; i++) {
                ev(a, Kinds.STORE, 0, DATA, 12, "");
            }
            ev(a, Kinds.LOAD, 1, FLAG, 20, "");
            ev(a, Kinds.LOAD, 1, DATA, 21, "");
            boolean bounded = writeLog == 1;
            assertEquals(bounded ? 0 : 1, got().size(), "writeLog " + writeLog);
            assertEquals(bounded ? 1 : 0, a.logLimited(), "writeLog " + writeLog);
            assertEquals(bounded, a.notes().stream().anyMatch(n -> n.kind().equals("jmm-write-log")
                    && n.text().contains("jmmWriteLog=none")), a.notes().toString());
        }
    }

    /**
     * The addresses let go are the less recently used half: message passing on two addresses used again since two
     * others were last touched is still reported when a fifth needs room (letting the data or the flag go would lose
     * it).
     */
    @Test
    void theLeastRecentlyUsedAddressGoes() {
        int old = 2;
        int older = 3;
        int fresh = 4;
        JmmAnalyzer a = analyzer(4);
        ev(a, Kinds.STORE, 0, DATA, 10, "");
        ev(a, Kinds.STORE, 0, FLAG, 11, "");
        ev(a, Kinds.STORE, 0, older, 12, "");
        ev(a, Kinds.STORE, 0, old, 12, "");
        ev(a, Kinds.LOAD, 0, DATA, 13, "");
        ev(a, Kinds.LOAD, 0, FLAG, 14, "");
        ev(a, Kinds.LOAD, 1, fresh, 20, "");
        assertEquals(2, a.evictions(), "the older half");
        ev(a, Kinds.LOAD, 1, FLAG, 21, "");
        ev(a, Kinds.LOAD, 1, DATA, 22, "");
        assertEquals(1, got().size(), got().toString());
        assertEquals(10, got().get(0).storeSite());
    }

    /**
     * A thread the analysis first meets after an address was retired (no start event gave it its parent's views) does
     * not read the address's old writes as stale: nothing older than the location's new life can be read.
     */
    @Test
    void aRetiredLocationHasNoOlderWritesForAnyThread() {
        JmmAnalyzer a = analyzer(16);
        ev(a, Kinds.STORE, 0, DATA, 10, "");
        ev(a, Kinds.STORE, 0, DATA, 11, "");
        a.event(Kinds.ADDRESS_DEAD, -1, DATA, 0, seq++);
        ev(a, Kinds.STORE, 0, FLAG, 12, "");   // carries thread 0's knowledge of DATA's last write
        ev(a, Kinds.LOAD, 5, FLAG, 20, "");    // a thread met only now
        ev(a, Kinds.LOAD, 5, DATA, 21, "");
        assertEquals(List.of(), got());
    }

    /** Volatile on both sides of Dekker is clean; a volatile store followed by a plain load of the other flag is not. */
    @Test
    void dekkerWithAVolatileStoreAndAPlainLoad() {
        for (String loadMode : List.of("", "volatile")) {
            got.clear();
            JmmAnalyzer a = analyzer(16);
            ev(a, Kinds.VOLATILE_STORE, 0, DATA, 10, "");
            ev(a, Kinds.LOAD, 0, FLAG, 11, loadMode);
            ev(a, Kinds.VOLATILE_STORE, 1, FLAG, 20, "");
            ev(a, Kinds.LOAD, 1, DATA, 21, loadMode);
            assertEquals(loadMode.isEmpty() ? 1 : 0, got().size(), loadMode);
        }
    }

    /**
     * A seqlock reader that reads y new and then x, which the model lets it read old (torn data): with an acquire fence
     * before the re-read of the version, that re-read must see the odd version, so the torn read is validated and
     * dropped (and noted); without the fence, or with validated reads off, it is reported, with its own prev.
     */
    @Test
    void aTornReadAValidatingReReadFollowsIsDropped() {
        int version = 2;
        for (boolean fence : List.of(true, false)) {
            for (boolean validated : List.of(true, false)) {
                got.clear();
                prevs.clear();
                current = new JmmAnalyzer(sink, site -> modes.getOrDefault(site, ""), 16,
                        VolatileRule.SYNCHRONIZATION_ORDER, validated);
                JmmAnalyzer a = current;
                long start = seq;
                ev(a, Kinds.LOAD, 1, version, 20, "acquire");
                ev(a, Kinds.STORE, 0, version, 10, "opaque");
                ev(a, Kinds.STORE_STORE_FENCE, 0, -1, 11, "release");
                ev(a, Kinds.STORE, 0, DATA, 12, "");
                ev(a, Kinds.STORE, 0, FLAG, 13, "");
                ev(a, Kinds.LOAD, 1, FLAG, 21, "");
                ev(a, Kinds.LOAD, 1, DATA, 22, "");   // the torn read: event start + 6
                if (fence) {
                    ev(a, Kinds.LOAD_FENCE, 1, -1, 23, "acquire");
                }
                ev(a, Kinds.LOAD, 1, version, 24, "");
                ev(a, Kinds.RELEASE_STORE, 0, version, 14, "");
                String c = "fence " + fence + ", validated " + validated;
                if (fence && validated) {
                    assertEquals(List.of(), got(), c);
                    assertEquals(1, a.validated(), c);
                    assertTrue(a.notes().stream().anyMatch(n -> n.kind().equals("jmm-validated-reads")), c);
                } else {
                    List<Got> g = got();
                    assertEquals(new Got(12, 0, Kinds.STORE, start + 3, 22, 1, start + 6), g.get(0), c);
                    assertEquals(0, a.validated(), c);
                    if (validated) {
                        // held until the thread's next write or its end: named with its own prev, the read of y
                        assertEquals(start + 5, prevs.get(0), c);
                    }
                }
            }
        }
    }

    /**
     * StampedLock's optimistic read as the agent logs it (each call an interlocked event before and after, on the lock's
     * address, with the site mode of what the JDK does): a torn read between tryOptimisticRead and validate is dropped,
     * as validate's read of the state must see the write lock taken before the data the reader read new. Logged as any
     * other java.util.concurrent call (a read-modify-write, no mode), the validation is a write of the thread, and the
     * torn read is reported.
     */
    @Test
    void aStampedLocksOptimisticReadIsValidated() {
        int lock = 3;
        for (String validate : List.of("validate", "")) {
            got.clear();
            JmmAnalyzer a = analyzer(16);
            ev(a, Kinds.INTERLOCKED, 1, lock, 30, "optimistic-read");
            ev(a, Kinds.INTERLOCKED, 1, lock, 30, "optimistic-read");
            ev(a, Kinds.INTERLOCKED, 0, lock, 40, "write-lock");
            ev(a, Kinds.INTERLOCKED, 0, lock, 40, "write-lock");
            ev(a, Kinds.STORE, 0, DATA, 12, "");
            ev(a, Kinds.STORE, 0, FLAG, 13, "");
            ev(a, Kinds.LOAD, 1, FLAG, 21, "");
            ev(a, Kinds.LOAD, 1, DATA, 22, "");   // torn: FLAG new, DATA may be old
            ev(a, Kinds.INTERLOCKED, 1, lock, 31 + validate.length(), validate);
            ev(a, Kinds.INTERLOCKED, 1, lock, 31 + validate.length(), validate);
            assertEquals(validate.isEmpty() ? 1 : 0, got().size(), "validate '" + validate + "'");
        }
    }
}
