package dev.mmcheck.checker.event;


import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last events of the stream, kept so that a report can show the happens-before path from the
 * buffered store to the other thread's event. Fixed size: recording allocates nothing.
 *
 * <p>A path is searched only when a distinct violation is first seen: one backward sweep from the
 * target to the source over the retained events, preferring paths with the fewest edges between
 * threads. Checker thread only.
 */
public final class EventWindow {

    private final int mask;
    private final int[] events;   // 4 ints an event: kind, thread, operand, site
    private long next;     // seq of the next event to record
    private long oldest;   // seq of the oldest event still retained

    /** A window of the last {@code capacityPowerOfTwo} events (rounded to a power of two, at least 16). */
    public EventWindow(int capacityPowerOfTwo) {
        int capacity = Integer.highestOneBit(Math.max(16, capacityPowerOfTwo));
        mask = capacity - 1;
        events = new int[capacity * 4];
    }

    /** Records event {@code seq}; a gap in the numbers starts the window afresh. */
    public void record(long seq, int kind, int thread, int operand, int site) {
        if (seq != next) {
            oldest = seq; // a gap (after a reset): earlier events are no longer connected
        }
        int i = ((int) seq & mask) * 4;
        int[] e = events;
        e[i] = kind;
        e[i + 1] = thread;
        e[i + 2] = operand;
        e[i + 3] = site;
        next = seq + 1;
        if (next - oldest > mask + 1) {
            oldest = next - (mask + 1);
        }
    }

    /** Forgets all retained events. */
    public void clear() {
        oldest = next;
    }

    /** Whether event {@code seq} is still retained. */
    public boolean retains(long seq) {
        return seq >= oldest && seq < next;
    }

    /** The kind code of retained event {@code seq}. */
    public int kind(long seq) {
        return events[((int) seq & mask) * 4];
    }

    /** The thread slot of retained event {@code seq}. */
    public int thread(long seq) {
        return events[((int) seq & mask) * 4 + 1];
    }

    /** The operand of retained event {@code seq}. */
    public int operand(long seq) {
        return events[((int) seq & mask) * 4 + 2];
    }

    /** The site id of retained event {@code seq}. */
    public int site(long seq) {
        return events[((int) seq & mask) * 4 + 3];
    }

    /**
     * The events of a happens-before path from event {@code from} to event {@code to}, both included,
     * with the fewest steps between threads; null when either is no longer retained or no path lies
     * within the retained events.
     */
    public List<Long> path(long from, long to) {
        if (!retains(from) || !retains(to) || from > to) {
            return null;
        }
        int n = (int) (to - from + 1);
        int[] dist = new int[n];
        long[] succ = new long[n];
        Arrays.fill(dist, Integer.MAX_VALUE);
        // each map: key -> {seq of a later event reaching `to`, cost of a path starting with an edge to it}
        Map<Integer, long[]> bestThread = new HashMap<>();
        Map<Integer, long[]> bestAccess = new HashMap<>();
        Map<Integer, long[]> bestWrite = new HashMap<>();
        for (long s = to; s >= from; s--) {
            EventKind k = EventKind.of(kind(s));
            int t = thread(s);
            int op = operand(s);
            long d = Integer.MAX_VALUE;
            long nx = -1;
            if (s == to) {
                d = 0;
            } else {
                long[] po = bestThread.get(t);
                if (po != null && po[1] < d) {
                    d = po[1];
                    nx = po[0];
                }
                if (k.isAccess()) {
                    long[] c = (k.writes() ? bestAccess : bestWrite).get(op);
                    if (c != null && c[1] + 1 < d) {
                        d = c[1] + 1;
                        nx = c[0];
                    }
                }
                if (k == EventKind.THREAD_START) {
                    long[] c = bestThread.get(op);
                    if (c != null && c[1] + 1 < d) {
                        d = c[1] + 1;
                        nx = c[0];
                    }
                }
            }
            if (d >= Integer.MAX_VALUE) {
                continue;
            }
            dist[(int) (s - from)] = (int) d;
            succ[(int) (s - from)] = nx;
            improve(bestThread, t, s, d);
            if (k.isAccess()) {
                improve(bestAccess, op, s, d);
                if (k.writes()) {
                    improve(bestWrite, op, s, d);
                }
            }
            if (k == EventKind.THREAD_JOIN) {
                // every earlier event of the joined thread reaches this join through the thread's end
                improve(bestThread, op, s, d + 1);
            }
        }
        if (dist[0] == Integer.MAX_VALUE) {
            return null;
        }
        List<Long> path = new ArrayList<>();
        for (long s = from; s != -1; s = succ[(int) (s - from)]) {
            path.add(s);
            if (s == to) {
                break;
            }
        }
        return path;
    }

    private static void improve(Map<Integer, long[]> best, int key, long seq, long cost) {
        long[] old = best.get(key);
        if (old == null || cost <= old[1]) {
            best.put(key, new long[] {seq, cost});
        }
    }
}
