package dev.mmcheck.checker.event;

import java.util.Arrays;

/**
 * A growable store of events, 4 ints each (kind, thread, operand, site) in one array: plain values,
 * replayable any number of times. Used for traces read into memory, by tests, and by benchmarks.
 * Not thread-safe.
 */
public final class EventBuffer implements EventSink {

    private int[] events = new int[256];
    private int size;

    @Override
    public void event(int kind, int thread, int operand, int site) {
        int i = size * 4;
        if (i == events.length) {
            events = Arrays.copyOf(events, events.length * 2);
        }
        events[i] = kind;
        events[i + 1] = thread;
        events[i + 2] = operand;
        events[i + 3] = site;
        size++;
    }

    /** Number of events held. */
    public int size() {
        return size;
    }

    /** Kind code of event {@code i}. */
    public int kind(int i) {
        return events[i * 4];
    }

    /** Thread id of event {@code i}. */
    public int thread(int i) {
        return events[i * 4 + 1];
    }

    /** Operand (address or thread id, or -1) of event {@code i}. */
    public int operand(int i) {
        return events[i * 4 + 2];
    }

    /** Site id of event {@code i}. */
    public int site(int i) {
        return events[i * 4 + 3];
    }

    /** Feeds every event, in order, to {@code sink}. */
    public void replay(EventSink sink) {
        int[] e = events;
        int n = size * 4;
        for (int i = 0; i < n; i += 4) {
            sink.event(e[i], e[i + 1], e[i + 2], e[i + 3]);
        }
    }
}
