package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.SiteModes;
import dev.mmcheck.checker.event.Symbols;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A run replayed as the changed program would have run it: fences per execution, modes per instruction. */
class RewriteTest {

    private static final Site STORE = new Site("X", "m", "X.java", 10, 3);
    private static final Site LOAD = new Site("X", "m", "X.java", 11, 7);
    private static final Site HELPER = new Site("Buf", "put", "Buf.java", 10, 2);
    private static final Site CALL_A = new Site("A", "a", "A.java", 12, -1);
    private static final Site CALL_B = new Site("B", "b", "B.java", 40, -1);

    private Symbols symbols;
    private EventBuffer run;

    @BeforeEach
    void record() {
        symbols = new Symbols();
        run = new EventBuffer();
        int t1 = symbols.thread("T1");
        int t2 = symbols.thread("T2");
        int f1 = symbols.address("X#1.f");
        int g1 = symbols.address("X#1.g");
        int f2 = symbols.address("X#2.f");
        int store = symbols.site(STORE);
        int load = symbols.site(LOAD);
        int viaA = symbols.site(HELPER.calledFrom(CALL_A));
        int viaB = symbols.site(HELPER.calledFrom(CALL_B));
        run.event(EventKind.STORE.code(), t1, f1, store);       // 0
        run.event(EventKind.LOAD.code(), t1, g1, load);         // 1
        run.event(EventKind.STORE.code(), t2, f2, store);       // 2: the same instruction again
        run.event(EventKind.STORE.code(), t1, g1, viaA);        // 3: the helper called from A
        run.event(EventKind.STORE.code(), t2, g1, viaB);        // 4: ... from B
        run.event(EventKind.STORE.code(), t1, g1, viaA);        // 5: ... from A again
        run.event(EventKind.LOAD.code(), t2, f1, load);         // 6: a load of X.f at the load's line
    }

    /** The replay with {@code changes} made, one line per event: {@code kind thread operand file:line mode <-caller}. */
    private List<String> replay(Change... changes) {
        EventBuffer out = new EventBuffer();
        Rewrite.replay(run, symbols, List.of(changes), out);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            Site s = symbols.siteOf(out.site(i));
            lines.add(EventKind.of(out.kind(i)).label() + " " + symbols.threadName(out.thread(i)) + " "
                    + (out.operand(i) < 0 ? "-" : symbols.addressName(out.operand(i))) + " " + s.location()
                    + (s.bci() < 0 ? "" : "/" + s.bci()) + (s.mode().isEmpty() ? "" : " " + s.mode())
                    + (s.caller() == null ? "" : " <-" + s.caller().location()));
        }
        return lines;
    }

    private static final List<String> ORIGINAL = List.of(
            "store T1 X#1.f X.java:10/3",
            "load T1 X#1.g X.java:11/7",
            "store T2 X#2.f X.java:10/3",
            "store T1 X#1.g Buf.java:10/2 <-A.java:12",
            "store T2 X#1.g Buf.java:10/2 <-B.java:40",
            "store T1 X#1.g Buf.java:10/2 <-A.java:12",
            "load T2 X#1.f X.java:11/7");

    @Test
    void noChangeIsTheRunItself() {
        assertEquals(ORIGINAL, replay());
    }

    @Test
    void aFenceIsInsertedAfterOrBeforeEachExecutionInItsThread() {
        assertEquals(List.of(
                "store T1 X#1.f X.java:10/3",
                "fence T1 - X.java:10",
                "storestore-fence T1 - X.java:11 release",
                "fence T1 - X.java:11",
                "load T1 X#1.g X.java:11/7",
                "store T2 X#2.f X.java:10/3",
                "store T1 X#1.g Buf.java:10/2 <-A.java:12",
                "fence T2 - X.java:10", // after T2's store, as late as it runs: right before T2's next event
                "store T2 X#1.g Buf.java:10/2 <-B.java:40",
                "store T1 X#1.g Buf.java:10/2 <-A.java:12",
                "storestore-fence T2 - X.java:11 release",
                "fence T2 - X.java:11",
                "load T2 X#1.f X.java:11/7"),
                replay(Change.at(Change.Kind.FULL_FENCE_AFTER, STORE, ""),
                        Change.at(Change.Kind.RELEASE_FENCE_BEFORE, LOAD, ""),
                        Change.at(Change.Kind.FULL_FENCE_BEFORE, LOAD, "")));
        List<String> acquire = replay(Change.at(Change.Kind.ACQUIRE_FENCE_AFTER, LOAD, ""));
        assertEquals("load-fence T1 - X.java:11 acquire", acquire.get(3));
        assertEquals("store T1 X#1.g Buf.java:10/2 <-A.java:12", acquire.get(4));
        assertEquals("load-fence T2 - X.java:11 acquire", acquire.get(8));
        assertEquals(9, acquire.size());
    }

    @Test
    void aModeIsChangedAtEveryExecutionOfTheInstruction() {
        List<String> want = new ArrayList<>(ORIGINAL);
        want.set(0, "volatile-store T1 X#1.f X.java:10/3");
        want.set(2, "volatile-store T2 X#2.f X.java:10/3");
        assertEquals(want, replay(Change.at(Change.Kind.VOLATILE_STORE, STORE, "")));
        // a volatile store wins over a release store at the same instruction, whichever is named first
        assertEquals(want, replay(Change.at(Change.Kind.RELEASE_STORE, STORE, ""),
                Change.at(Change.Kind.VOLATILE_STORE, STORE, "")));
        assertEquals(want, replay(Change.at(Change.Kind.VOLATILE_STORE, STORE, ""),
                Change.at(Change.Kind.RELEASE_STORE, STORE, "")));
        want = new ArrayList<>(ORIGINAL);
        want.set(0, "release-store T1 X#1.f X.java:10/3");
        want.set(2, "release-store T2 X#2.f X.java:10/3");
        assertEquals(want, replay(Change.at(Change.Kind.RELEASE_STORE, STORE, "")));
        want = new ArrayList<>(ORIGINAL);
        want.set(1, "load T1 X#1.g X.java:11/7 " + SiteModes.ACQUIRE);
        want.set(6, "load T2 X#1.f X.java:11/7 " + SiteModes.ACQUIRE);
        assertEquals(want, replay(Change.at(Change.Kind.ACQUIRE_LOAD, LOAD, "")));
        want.set(1, "load T1 X#1.g X.java:11/7 " + SiteModes.VOLATILE);
        want.set(6, "load T2 X#1.f X.java:11/7 " + SiteModes.VOLATILE);
        assertEquals(want, replay(Change.at(Change.Kind.ACQUIRE_LOAD, LOAD, ""),
                Change.at(Change.Kind.VOLATILE_LOAD, LOAD, "")));
    }

    @Test
    void aHelpersFenceIsPerCallerItsModeForEveryCaller() {
        List<String> want = new ArrayList<>(ORIGINAL);
        want.add(5, "fence T1 - Buf.java:10 <-A.java:12"); // before T1's next event, T2's store between
        want.add(8, "fence T1 - Buf.java:10 <-A.java:12"); // T1's last event: at the end of the run
        assertEquals(want, replay(Change.at(Change.Kind.FULL_FENCE_AFTER, HELPER.calledFrom(CALL_A), "")));
        want = new ArrayList<>(ORIGINAL);
        want.set(3, "volatile-store T1 X#1.g Buf.java:10/2 <-A.java:12");
        want.set(4, "volatile-store T2 X#1.g Buf.java:10/2 <-B.java:40");
        want.set(5, "volatile-store T1 X#1.g Buf.java:10/2 <-A.java:12");
        assertEquals(want, replay(Change.at(Change.Kind.VOLATILE_STORE, HELPER.calledFrom(CALL_A), "")),
                "a mode is written in the helper: every caller's execution has it");
    }

    @Test
    void aFieldMadeVolatileChangesEveryAccessToItOfEveryObject() {
        List<String> want = new ArrayList<>(ORIGINAL);
        want.set(0, "volatile-store T1 X#1.f X.java:10/3");
        want.set(2, "volatile-store T2 X#2.f X.java:10/3");
        want.set(6, "load T2 X#1.f X.java:11/7 " + SiteModes.VOLATILE);
        assertEquals(want, replay(Change.volatileField("X.f", STORE, "")));
    }
}
