package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A small trace with transactions: events in the order they ran (an SC interleaving), each with its
 * thread, kind, address (-1 for fences) and transaction (-1 outside atomic methods, else an id unique
 * in the trace). Threads run from the start; their transactions are contiguous in program order.
 */
public record SerialTrace(List<Event> events, int threads, int addresses) {

    /** One event. */
    public record Event(int thread, EventKind kind, int address, int tx) {
        @Override
        public String toString() {
            return "T" + thread + " " + kind.label() + (address >= 0 ? " a" + address : "") + (tx >= 0 ? " [" + tx + "]"
                    : "");
        }
    }

    /** Which operations a random trace uses. */
    public enum Ops {
        /** load, store, fence, cas, volatile store */
        MIXED,
        /** mostly plain loads and stores: many undirected conflicts */
        PLAIN
    }

    /** A random trace: 2-3 threads, 2-5 events each, 1-3 addresses, random atomic blocks, a random interleaving. */
    public static SerialTrace random(Random rnd, Ops ops) {
        return random(rnd, ops, 2 + (rnd.nextInt(3) == 0 ? 1 : 0), 2, 5);
    }

    /** A random trace of {@code n} threads with {@code min}-{@code max} events each. */
    public static SerialTrace random(Random rnd, Ops ops, int n, int min, int max) {
        int addresses = 1 + rnd.nextInt(n > 3 || max > 5 ? 4 : 3);
        List<List<Event>> per = new ArrayList<>();
        int txId = 0;
        for (int t = 0; t < n; t++) {
            int len = min + rnd.nextInt(max - min + 1);
            List<Event> list = new ArrayList<>();
            int inTx = -1;
            int left = 0;
            for (int i = 0; i < len; i++) {
                if (left == 0) {
                    inTx = rnd.nextInt(3) == 0 ? -1 : txId++;
                    left = inTx < 0 ? 1 : 1 + rnd.nextInt(3);
                }
                list.add(new Event(t, op(rnd, ops), -2, inTx));
                left--;
            }
            for (int i = 0; i < list.size(); i++) {
                Event e = list.get(i);
                int a = e.kind() == EventKind.FULL_FENCE ? -1 : rnd.nextInt(addresses);
                list.set(i, new Event(t, e.kind(), a, e.tx()));
            }
            per.add(list);
        }
        return interleave(rnd, per, n, addresses);
    }

    /**
     * A random trace whose threads issue runs of plain stores before their loads (2-3 threads, 1-2 runs of
     * 2-4 stores each followed by 1-2 loads, a fence now and then, 2-3 addresses, random atomic blocks, a
     * random interleaving): what a small store-buffer bound cuts into.
     */
    public static SerialTrace storeRuns(Random rnd) {
        int n = 2 + (rnd.nextInt(4) == 0 ? 1 : 0);
        int addresses = 2 + rnd.nextInt(2);
        List<List<Event>> per = new ArrayList<>();
        int txId = 0;
        for (int t = 0; t < n; t++) {
            List<EventKind> kinds = new ArrayList<>();
            for (int run = 1 + (n == 2 && rnd.nextBoolean() ? 1 : 0); run > 0; run--) {
                for (int k = 2 + rnd.nextInt(3); k > 0; k--) {
                    kinds.add(EventKind.STORE);
                }
                for (int k = 1 + rnd.nextInt(2); k > 0; k--) {
                    kinds.add(EventKind.LOAD);
                }
                if (rnd.nextInt(6) == 0) {
                    kinds.add(EventKind.FULL_FENCE);
                }
            }
            List<Event> list = new ArrayList<>();
            int inTx = -1;
            int left = 0;
            for (EventKind k : kinds) {
                if (left == 0) {
                    inTx = rnd.nextInt(3) == 0 ? -1 : txId++;
                    left = inTx < 0 ? 1 : 1 + rnd.nextInt(4);
                }
                list.add(new Event(t, k, k == EventKind.FULL_FENCE ? -1 : rnd.nextInt(addresses), inTx));
                left--;
            }
            per.add(list);
        }
        return interleave(rnd, per, n, addresses);
    }

    private static EventKind op(Random rnd, Ops ops) {
        int r = rnd.nextInt(100);
        if (ops == Ops.PLAIN) {
            return r < 48 ? EventKind.LOAD : r < 94 ? EventKind.STORE : EventKind.FULL_FENCE;
        }
        if (r < 40) {
            return EventKind.LOAD;
        }
        if (r < 75) {
            return EventKind.STORE;
        }
        if (r < 84) {
            return EventKind.FULL_FENCE;
        }
        if (r < 93) {
            return EventKind.INTERLOCKED;
        }
        return EventKind.VOLATILE_STORE;
    }

    /** A random interleaving of per-thread event lists. */
    public static SerialTrace interleave(Random rnd, List<List<Event>> per, int threads, int addresses) {
        int[] pc = new int[per.size()];
        List<Event> out = new ArrayList<>();
        int total = per.stream().mapToInt(List::size).sum();
        while (out.size() < total) {
            int t = rnd.nextInt(per.size());
            if (pc[t] < per.get(t).size()) {
                out.add(per.get(t).get(pc[t]++));
            }
        }
        return new SerialTrace(out, threads, addresses);
    }

    /**
     * Parses "T0 load a [1]; T1 store b; ..." (an event per ';', in trace order; "[n]" the transaction of
     * an event inside an atomic block, whose events must be contiguous in their thread).
     */
    public static SerialTrace parse(String text) {
        List<Event> out = new ArrayList<>();
        int threads = 0;
        int addresses = 0;
        for (String item : text.split(";")) {
            String[] tok = item.trim().split("\\s+");
            int t = Integer.parseInt(tok[0].substring(1));
            EventKind k = EventKind.parse(tok[1]);
            int a = -1;
            int tx = -1;
            int i = 2;
            if (k.operand() == EventKind.Operand.ADDRESS) {
                a = tok[2].charAt(0) - 'a';
                i = 3;
            }
            if (i < tok.length) {
                tx = Integer.parseInt(tok[i].substring(1, tok[i].length() - 1));
            }
            threads = Math.max(threads, t + 1);
            addresses = Math.max(addresses, a + 1);
            out.add(new Event(t, k, a, tx));
        }
        return new SerialTrace(out, threads, addresses);
    }

    /**
     * Collects a stream (as a trace file gives it) into a trace: tx-begin/tx-end delimit atomic blocks
     * (nested ones belong to the outermost). Null when the stream has an event the oracle does not model.
     */
    public static final class Collector implements EventSink {
        private final List<Event> out = new ArrayList<>();
        private final java.util.Map<Integer, Integer> depth = new java.util.HashMap<>();
        private final java.util.Map<Integer, Integer> open = new java.util.HashMap<>();
        private int threads;
        private int addresses;
        private int next;
        private boolean unsupported;

        @Override
        public void event(int kind, int thread, int operand, int site) {
            EventKind k = EventKind.of(kind);
            threads = Math.max(threads, thread + 1);
            if (k == EventKind.TX_BEGIN) {
                if (depth.merge(thread, 1, Integer::sum) == 1) {
                    open.put(thread, next++);
                }
                return;
            }
            if (k == EventKind.TX_END) {
                if (depth.merge(thread, -1, Integer::sum) == 0) {
                    open.remove(thread);
                }
                return;
            }
            if (!SerialOracle.supports(k)) {
                unsupported = true;
                return;
            }
            if (k.operand() == EventKind.Operand.ADDRESS) {
                addresses = Math.max(addresses, operand + 1);
            }
            out.add(new Event(thread, k, k.operand() == EventKind.Operand.ADDRESS ? operand : -1,
                    open.getOrDefault(thread, -1)));
        }

        /** The trace, or null when the stream had events the oracle does not model. */
        public SerialTrace trace() {
            return unsupported ? null : new SerialTrace(out, threads, addresses);
        }
    }

    /**
     * Feeds the trace to {@code sink} with tx-begin/tx-end events around each atomic block; site of
     * event i is {@code sites[i]} (site -1 for the boundaries' own sites is replaced by the first event's).
     */
    public void feed(EventSink sink, int[] sites, int[] txSites) {
        int[] open = new int[threads];
        java.util.Arrays.fill(open, -1);
        int[] left = remaining();
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            if (e.tx() >= 0 && open[e.thread()] != e.tx()) {
                sink.event(EventKind.TX_BEGIN.code(), e.thread(), -1, txSites[e.tx()]);
                open[e.thread()] = e.tx();
            }
            sink.event(e.kind().code(), e.thread(), e.address(), sites[i]);
            if (e.tx() >= 0 && --left[e.tx()] == 0) {
                sink.event(EventKind.TX_END.code(), e.thread(), -1, txSites[e.tx()]);
                open[e.thread()] = -1;
            }
        }
    }

    private int[] remaining() {
        int max = events.stream().mapToInt(Event::tx).max().orElse(-1);
        int[] left = new int[max + 1];
        for (Event e : events) {
            if (e.tx() >= 0) {
                left[e.tx()]++;
            }
        }
        return left;
    }

    /** Number of transaction ids used (atomic blocks). */
    public int atomicBlocks() {
        return events.stream().mapToInt(Event::tx).max().orElse(-1) + 1;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Event e : events) {
            b.append(b.length() == 0 ? "" : "; ").append(e);
        }
        return b.toString();
    }
}
