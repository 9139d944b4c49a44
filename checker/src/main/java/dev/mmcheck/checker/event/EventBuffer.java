package dev.mmcheck.checker.event;

import java.util.Arrays;

/**
 * A growable column store of events: plain values, replayable any number of times.
 *
 * <p>Used for traces read into memory, by tests, and by benchmarks. Not thread-safe.
 */
public final class EventBuffer implements EventSink {

    private int[] kinds = new int[64];
    private int[] threads = new int[64];
    private int[] operands = new int[64];
    private int[] sites = new int[64];
    private int size;

    @Override
    public void event(int kind, int thread, int operand, int site) {
        if (size == kinds.length) {
            int n = size * 2;
            kinds = Arrays.copyOf(kinds, n);
            threads = Arrays.copyOf(threads, n);
            operands = Arrays.copyOf(operands, n);
            sites = Arrays.copyOf(sites, n);
        }
        kinds[size] = kind;
        threads[size] = thread;
        operands[size] = operand;
        sites[size] = site;
        size++;
    }

    /** Number of events held. */
    public int size() {
        return size;
    }

    /** Kind code of event {@code i}. */
    public int kind(int i) {
        return kinds[i];
    }

    /** Thread id of event {@code i}. */
    public int thread(int i) {
        return threads[i];
    }

    /** Operand (address or thread id, or -1) of event {@code i}. */
    public int operand(int i) {
        return operands[i];
    }

    /** Site id of event {@code i}. */
    public int site(int i) {
        return sites[i];
    }

    /** Feeds every event, in order, to {@code sink}. */
    public void replay(EventSink sink) {
        for (int i = 0; i < size; i++) {
            sink.event(kinds[i], threads[i], operands[i], sites[i]);
        }
    }
}
