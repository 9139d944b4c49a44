package dev.mmcheck.agent;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.Violation;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.Probes;
import dev.mmcheck.runtime.ThreadLog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runtime leaves out a load that repeats its thread's last access to the same address with no write
 * since (Probes: the thread's repeat cache, or the stripe's last access). This drives the real probes
 * with random streams (several thread logs from one test thread: the probes take the log as an argument)
 * and checks, for the TSO and PSO monitors, that the races (analysis, store site, access site) found on
 * the stream the runtime logged are exactly those found on the full stream: leaving loads out neither adds
 * a report nor loses one. A load is left out only when it repeats its thread's last access to the address
 * with no write since and its thread has logged nothing but such repeats since that access (its
 * knowledge count: docs/agent.md, "Loads that are not logged"); without the second condition about 2% of
 * these streams lost a race (a left-out load's read-to-write edge carried what its thread did since its
 * last access), and this test fails. It also checks that {@code repeatedLoads=log} (EventLog.logEveryLoad)
 * leaves nothing out. Walks over more addresses than the repeat cache holds exercise the stripe's rule.
 * Sober is not in the comparison: its "last read" knowledge is not monotone, so the agent logs every load
 * when it runs.
 */
class RepeatedLoadsDifferentialTest {

    private static final int FIELD = 7;

    private record Ev(int thread, EventKind kind, int address) {
    }

    /** A random stream: 2-3 threads of plain and synchronizing operations, many loads repeated; sometimes a walk. */
    private static List<Ev> stream(Random rnd) {
        int threads = 2 + rnd.nextInt(2);
        boolean walk = rnd.nextInt(4) == 0;
        int addresses = walk ? 300 + rnd.nextInt(300) : 1 + rnd.nextInt(5);
        List<Ev> out = new ArrayList<>();
        int n = walk ? 0 : 10 + rnd.nextInt(20);
        for (int i = 0; i < n; i++) {
            int t = rnd.nextInt(threads);
            int r = rnd.nextInt(100);
            EventKind k = r < 50 ? EventKind.LOAD : r < 75 ? EventKind.STORE : r < 80 ? EventKind.RELEASE_STORE
                    : r < 85 ? EventKind.VOLATILE_STORE : r < 90 ? EventKind.INTERLOCKED : r < 95 ? EventKind.FULL_FENCE
                    : EventKind.STORE_STORE_FENCE;
            int a = k == EventKind.FULL_FENCE || k == EventKind.STORE_STORE_FENCE ? -1 : rnd.nextInt(addresses);
            out.add(new Ev(t, k, a));
            if (a >= 0 && rnd.nextInt(2) == 0) {
                out.add(new Ev(t, EventKind.LOAD, a)); // a repeat, or nearly (another thread may come between)
            }
        }
        if (walk) {
            // thread 0 writes every address, then walks them three times; others store to a few meanwhile
            for (int a = 0; a < addresses; a++) {
                out.add(new Ev(0, EventKind.STORE, a));
            }
            for (int pass = 0; pass < 3; pass++) {
                for (int a = 0; a < addresses; a++) {
                    out.add(new Ev(0, EventKind.LOAD, a));
                    // rarely: after another thread's store the walker's loads are no longer repeats, and once it
                    // has read that store, its later repeats carry what it learned and are logged too
                    if (rnd.nextInt(1000) == 0) {
                        out.add(new Ev(1 + rnd.nextInt(threads - 1), rnd.nextBoolean() ? EventKind.STORE
                                : EventKind.LOAD, rnd.nextInt(addresses)));
                    }
                }
            }
        }
        return out;
    }

    /** Runs {@code stream} through the real probes; returns which events they logged. */
    private static boolean[] logged(List<Ev> stream, int threads) {
        ThreadLog[] logs = new ThreadLog[threads];
        for (int t = 0; t < threads; t++) {
            logs[t] = EventLog.logOf(new Thread(() -> { }, "probe-driver-" + t));
        }
        int addresses = stream.stream().mapToInt(Ev::address).max().orElse(0) + 1;
        // objects on distinct stripes: a load of an address whose stripe's last access was to another address is
        // not known to repeat, counts as new knowledge and makes its thread's later repeats logged (that is
        // exact, and tested by the short streams, where many addresses share few objects' stripes by chance
        // rarely); the walks are to exercise the stripe's memory of a walk longer than the cache
        Object[] objects = new Object[addresses];
        java.util.Set<Integer> stripes = new java.util.HashSet<>();
        for (int a = 0; a < addresses; a++) {
            Object o;
            do {
                o = new Object();
            } while (!stripes.add(dev.mmcheck.runtime.Stripes.of(o, FIELD)));
            objects[a] = o;
        }
        // in some short streams the plain addresses are the elements of one int array instead: their repeated
        // loads take the optimistic path (ArrayLoads), which must follow the same rule
        int[] elements = addresses <= 8 && stream.size() % 2 == 0 ? new int[addresses] : null;
        boolean[] out = new boolean[stream.size()];
        for (int i = 0; i < stream.size(); i++) {
            Ev e = stream.get(i);
            ThreadLog log = logs[e.thread()];
            long before = log.lvProducerIndex();
            switch (e.kind()) {
                case LOAD -> {
                    if (elements != null) {
                        Probes.loadElementI(elements, e.address(), log, i);
                    } else {
                        Probes.lockField(objects[e.address()], log, FIELD);
                        Probes.logLoadI(0, log, i);
                    }
                }
                case STORE -> {
                    if (elements != null) {
                        Probes.lockElement(elements, e.address(), log);
                    } else {
                        Probes.lockField(objects[e.address()], log, FIELD);
                    }
                    Probes.logStoreI(0, log, i, e.kind().code());
                    Probes.unlock(log);
                }
                case RELEASE_STORE, VOLATILE_STORE -> {
                    Probes.lockField(elements != null ? elements : objects[e.address()], log,
                            elements != null ? e.address() : FIELD);
                    Probes.logStoreI(0, log, i, e.kind().code());
                    Probes.unlock(log);
                }
                case INTERLOCKED -> {
                    Probes.lockField(elements != null ? elements : objects[e.address()], log,
                            elements != null ? e.address() : FIELD);
                    Probes.logCall(log, i, Kinds.INTERLOCKED);
                }
                default -> Probes.logFence(log, i, e.kind().code());
            }
            out[i] = log.lvProducerIndex() > before;
            if (out[i]) {
                assertEquals(e.kind().code(), log.lpInt(before, ThreadLog.KIND), "the event logged is the access's");
            } else {
                // besides repeated loads, only StoreStore fences with no store since the thread's last
                // fence are left out (RedundantFencesDifferentialTest in the checker shows that changes no report)
                assertTrue(e.kind() == EventKind.LOAD || (e.kind() == EventKind.STORE_STORE_FENCE && !storedSinceFence(stream, i)),
                        "only repeated loads and StoreStore fences that order no store are left out: " + e);
            }
            log.soConsumerIndex(log.lvProducerIndex()); // play the checker: free the ring
        }
        return out;
    }

    /** Whether the thread of event {@code i} stored since its last fence, volatile store or interlocked op. */
    private static boolean storedSinceFence(List<Ev> stream, int i) {
        int t = stream.get(i).thread();
        for (int j = i - 1; j >= 0; j--) {
            Ev e = stream.get(j);
            if (e.thread() == t) {
                switch (e.kind()) {
                    case STORE, RELEASE_STORE -> {
                        return true;
                    }
                    case VOLATILE_STORE, INTERLOCKED, FULL_FENCE, STORE_STORE_FENCE -> {
                        return false;
                    }
                    default -> { }
                }
            }
        }
        return false;
    }

    /** The races the monitors find: analysis, store site, access site. */
    private static Set<String> races(List<Ev> stream, boolean[] keep, int threads) {
        Symbols s = new Symbols();
        for (int t = 0; t < threads; t++) {
            s.thread("T" + t);
        }
        Checker c = new Checker(s, Checker.Config.defaults()
                .withAnalyses(EnumSet.of(Analysis.TSO, Analysis.PSO)).withAutoSerializability(false));
        for (int i = 0; i < stream.size(); i++) {
            if (keep != null && !keep[i]) {
                continue;
            }
            Ev e = stream.get(i);
            int a = e.address() < 0 ? -1 : s.address("x" + e.address());
            c.event(e.kind().code(), e.thread(), a, s.site(Site.at("S.java", i + 1)));
        }
        Set<String> out = new TreeSet<>();
        for (Violation v : c.result().violations()) {
            out.add(v.analysis().option() + " " + v.store().site().line() + " -> " + v.access().site().line());
        }
        return out;
    }

    @Test
    void leavingOutRepeatedLoadsNeitherAddsNorLosesARace() {
        EventLog.configure(1 << 12, false); // no self-check, no transactions: the runtime leaves repeats out
        Random rnd = new Random(Long.getLong("mmcheck.diff.seed", 20261126L));
        int streams = Integer.getInteger("mmcheck.diff.streams", 2000);
        long elided = 0;
        long walkElided = 0;
        long walkLoads = 0;
        int withRaces = 0;
        int lostStreams = 0;
        long lost = 0;
        String firstLost = null;
        for (int i = 0; i < streams; i++) {
            List<Ev> stream = stream(rnd);
            int threads = stream.stream().mapToInt(Ev::thread).max().orElse(0) + 1;
            boolean[] keep = logged(stream, threads);
            Set<String> full = races(stream, null, threads);
            Set<String> reduced = races(stream, keep, threads);
            if (!full.containsAll(reduced)) {
                Set<String> added = new TreeSet<>(reduced);
                added.removeAll(full);
                throw new AssertionError("stream " + i + ": races only where loads were left out: " + added);
            }
            if (!full.equals(reduced)) {
                lostStreams++;
                lost += full.size() - reduced.size();
                if (firstLost == null) {
                    Set<String> missing = new TreeSet<>(full);
                    missing.removeAll(reduced);
                    String text = stream.toString();
                    firstLost = "stream " + i + " lost " + missing + ": "
                            + (text.length() > 2000 ? text.substring(0, 2000) + "..." : text);
                }
            }
            withRaces += full.isEmpty() ? 0 : 1;
            int dropped = 0;
            for (boolean k : keep) {
                dropped += k ? 0 : 1;
            }
            elided += dropped;
            if (stream.size() > 600) {
                walkElided += dropped;
                walkLoads += stream.stream().filter(e -> e.kind() == EventKind.LOAD).count();
            }
        }
        System.out.printf("repeated loads: %d streams, %d with races, %d loads left out (%d of %d in walks); "
                + "races lost in %d streams, %d races%n", streams, withRaces, elided, walkElided, walkLoads,
                lostStreams, lost);
        assertEquals(0, lostStreams, "leaving repeated loads out lost races in " + lostStreams + " streams; the first: "
                + firstLost);
        assertTrue(withRaces > streams / 10, "the streams have races to lose: " + withRaces);
        assertTrue(elided > streams, "the runtime left loads out: " + elided);
        // a walk repeats up to 600 addresses twice: more than a thread's cache of 256 holds, so most of the
        // repeats left out are the stripe's doing
        assertTrue(walkElided > walkLoads / 3, "walks: " + walkElided + " of " + walkLoads + " loads left out");
    }

    @Test
    void loggingEveryLoadLeavesNothingOut() {
        EventLog.configure(1 << 12, false);
        EventLog.logEveryLoad();
        try {
            Random rnd = new Random(7);
            for (int i = 0; i < 300; i++) {
                List<Ev> stream = stream(rnd);
                int threads = stream.stream().mapToInt(Ev::thread).max().orElse(0) + 1;
                boolean[] kept = logged(stream, threads);
                for (int j = 0; j < kept.length; j++) {
                    assertTrue(kept[j] || stream.get(j).kind() != EventKind.LOAD,
                            "stream " + i + ": a load was left out although every load is to be logged");
                }
            }
        } finally {
            EventLog.configure(1 << 12, false);
        }
    }
}
