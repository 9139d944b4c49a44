package dev.mmcheck.checker.clock;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link VectorClocks} against the definition: happens-before is the transitive closure of program
 * order and conflict order (two accesses to one address, at least one a write, in stream order),
 * plus start (parent's start before child's begin) and join (child's end before the join), computed
 * by brute force over random streams.
 */
class VectorClocksTest {

    private record Ev(int thread, int address, boolean reads, boolean writes) {
    }

    @Test
    void knowsExactlyTheTransitiveClosure() {
        Random rnd = new Random(42);
        for (int round = 0; round < 400; round++) {
            int threads = 1 + rnd.nextInt(5);
            int addresses = 1 + rnd.nextInt(4);
            VectorClocks vc = new VectorClocks(1, 1); // starts small: growth is exercised too
            List<Ev> events = new ArrayList<>();
            List<BitSet> before = new ArrayList<>();   // before.get(i): events that happen before event i
            int[] clockOf = new int[0];
            List<Integer> lastOf = new ArrayList<>();
            int[] clock = new int[threads];
            boolean[] alive = new boolean[threads];
            for (int t = 0; t < threads; t++) {
                lastOf.add(-1);
                alive[t] = t < 2 || rnd.nextBoolean();
            }
            vc.ensureThreads(threads);
            for (int step = 0; step < 30; step++) {
                int t = rnd.nextInt(threads);
                if (!alive[t]) {
                    continue;
                }
                int r = rnd.nextInt(10);
                int a = rnd.nextInt(addresses);
                vc.ensureAddress(a);
                if (r < 3) {
                    vc.load(t, a);
                    clockOf = add(events, before, lastOf, clock, clockOf, new Ev(t, a, true, false), -1);
                } else if (r < 6) {
                    vc.store(t, a);
                    clockOf = add(events, before, lastOf, clock, clockOf, new Ev(t, a, false, true), -1);
                } else if (r < 7) {
                    vc.interlocked(t, a);
                    clockOf = add(events, before, lastOf, clock, clockOf, new Ev(t, a, true, true), -1);
                } else if (r < 8) {
                    vc.local(t);
                    clockOf = add(events, before, lastOf, clock, clockOf, new Ev(t, -1, false, false), -1);
                } else {
                    int u = rnd.nextInt(threads);
                    if (u == t) {
                        continue;
                    }
                    if (!alive[u]) {
                        vc.start(t, u);
                        clockOf = add(events, before, lastOf, clock, clockOf, new Ev(t, -1, false, false), -1);
                        int start = events.size() - 1;
                        clockOf = add(events, before, lastOf, clock, clockOf, new Ev(u, -1, false, false), start);
                        alive[u] = true;
                    } else {
                        vc.join(t, u);
                        clockOf = add(events, before, lastOf, clock, clockOf, new Ev(u, -1, false, false), -1);
                        int end = events.size() - 1;
                        clockOf = add(events, before, lastOf, clock, clockOf, new Ev(t, -1, false, false), end);
                    }
                }
                // after each step, every thread's clock knows exactly the events before its last event
                for (int u = 0; u < threads; u++) {
                    int last = lastOf.get(u);
                    for (int j = 0; j < events.size(); j++) {
                        boolean expected = last >= 0 && (j == last || before.get(last).get(j));
                        assertEquals(expected, vc.knows(u, events.get(j).thread(), clockOf[j]),
                                "round " + round + ": event " + j + " vs thread " + u);
                    }
                    assertEquals(clock[u], vc.clock(u));
                }
            }
        }
    }

    private static int[] add(List<Ev> events, List<BitSet> before, List<Integer> lastOf, int[] clock, int[] clockOf,
            Ev e, int extraPredecessor) {
        int i = events.size();
        BitSet b = new BitSet();
        for (int j = 0; j < i; j++) {
            Ev o = events.get(j);
            boolean po = o.thread() == e.thread();
            boolean conflict = o.address() >= 0 && o.address() == e.address() && (o.writes() || e.writes());
            if (po || conflict || j == extraPredecessor) {
                b.set(j);
                b.or(before.get(j));
            }
        }
        events.add(e);
        before.add(b);
        lastOf.set(e.thread(), i);
        clock[e.thread()]++;
        int[] c = java.util.Arrays.copyOf(clockOf, i + 1);
        c[i] = clock[e.thread()];
        return c;
    }

    @Test
    void clearedAddressForgetsItsWrites() {
        VectorClocks vc = new VectorClocks(2, 1);
        vc.store(0, 0);
        vc.clearAddress(0);
        vc.load(1, 0);
        assertFalse(vc.knows(1, 0, 1));
        vc.store(0, 0);
        vc.load(1, 0);
        assertTrue(vc.knows(1, 0, 2));
        vc.reset();
        assertEquals(0, vc.clock(0));
        assertFalse(vc.knows(1, 0, 1));
    }
}
