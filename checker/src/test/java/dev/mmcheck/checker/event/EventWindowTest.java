package dev.mmcheck.checker.event;

import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The window of recent events behind a report's happens-before path, and the threads' last events. */
class EventWindowTest {

    @Test
    void aPathCrossesThreadsThroughConflicts() {
        EventWindow w = new EventWindow(16);
        w.record(0, Kinds.STORE, 0, 1, 10);   // T0 st x
        w.record(1, Kinds.LOAD, 0, 2, 11);    // T0 ld y
        w.record(2, Kinds.LOAD, 1, 3, 12);    // T1 ld z (not on the path)
        w.record(3, Kinds.STORE, 1, 2, 13);   // T1 st y: after T0's load of y
        w.record(4, Kinds.STORE, 1, 4, 14);   // T1 st w
        assertEquals(List.of(0L, 1L, 3L, 4L), w.path(0, 4));
        assertNull(w.path(4, 0), "no path backwards");
        w.record(5, Kinds.LOAD, 2, 5, 15);    // T2, unrelated
        assertNull(w.path(0, 5), "no happens-before path to an unrelated thread");
    }

    @Test
    void oldEventsLeaveTheWindowAndAGapStartsItAfresh() {
        EventWindow w = new EventWindow(16);
        for (long s = 0; s < 40; s++) {
            w.record(s, Kinds.STORE, 0, 1, 1);
        }
        assertFalse(w.retains(10));
        assertTrue(w.retains(39));
        assertEquals(2, w.path(38, 39).size());
        w.record(100, Kinds.STORE, 0, 1, 1);
        assertFalse(w.retains(39), "a gap (after a reset) disconnects the earlier events");
        w.clear();
        assertFalse(w.retains(100));
    }

    @Test
    void lastEventsRememberAndForget() {
        LastEvents last = new LastEvents();
        last.ensureSlots(40);
        assertEquals(-1, last.seq(39), "new slots have no last event");
        last.remember(3, 7, Kinds.LOAD, 2, 9);
        assertEquals(7, last.seq(3));
        assertEquals(Kinds.LOAD, last.kind(3));
        assertEquals(2, last.operand(3));
        assertEquals(9, last.site(3));
        last.forget(3);
        assertEquals(-1, last.seq(3));
    }
}
