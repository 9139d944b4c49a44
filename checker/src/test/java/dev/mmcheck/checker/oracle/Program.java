package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.event.EventKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A small straight-line program: per thread a list of operations on addresses 0..addresses-1. Its
 * operations do not depend on the values read, as the papers' program model needs (Axioms 1 and 2).
 */
public record Program(List<List<Op>> threads, int addresses) {

    /** One operation; {@code address} is -1 for fences. */
    public record Op(EventKind kind, int address) {
        @Override
        public String toString() {
            return kind.label() + (address >= 0 ? " a" + address : "");
        }
    }

    /** Which operations a generated program may use. */
    public enum Ops {
        /** load, store, interlocked: the papers' own operations */
        PAPER,
        /** also release store, volatile store, full fence, StoreStore fence */
        JAVA
    }

    /** Total number of operations. */
    public int size() {
        return threads.stream().mapToInt(List::size).sum();
    }

    /** A random program: 2-3 threads, 1-4 operations each, 1-3 addresses. */
    public static Program random(Random rnd, Ops ops) {
        int n = 2 + (rnd.nextInt(3) == 0 ? 1 : 0);
        int addresses = rnd.nextInt(6) == 0 ? 1 : 2 + rnd.nextInt(2);
        List<List<Op>> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int len = 1 + rnd.nextInt(4);
            List<Op> list = new ArrayList<>();
            for (int i = 0; i < len; i++) {
                list.add(randomOp(rnd, ops, addresses));
            }
            threads.add(list);
        }
        return new Program(threads, addresses);
    }

    private static Op randomOp(Random rnd, Ops ops, int addresses) {
        int a = rnd.nextInt(addresses);
        int r = rnd.nextInt(100);
        if (ops == Ops.PAPER) {
            if (r < 42) {
                return new Op(EventKind.LOAD, a);
            }
            if (r < 84) {
                return new Op(EventKind.STORE, a);
            }
            return new Op(EventKind.INTERLOCKED, a);
        }
        if (r < 35) {
            return new Op(EventKind.LOAD, a);
        }
        if (r < 60) {
            return new Op(EventKind.STORE, a);
        }
        if (r < 72) {
            return new Op(EventKind.RELEASE_STORE, a);
        }
        if (r < 79) {
            return new Op(EventKind.VOLATILE_STORE, a);
        }
        if (r < 86) {
            return new Op(EventKind.INTERLOCKED, a);
        }
        if (r < 93) {
            return new Op(EventKind.FULL_FENCE, -1);
        }
        return new Op(EventKind.STORE_STORE_FENCE, -1);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int t = 0; t < threads.size(); t++) {
            b.append("T").append(t).append(": ").append(threads.get(t)).append('\n');
        }
        return b.toString();
    }

    /** Parses "T0: store a0; load a1 | T1: ..." style, for named tests: threads split by '|', ops by ';'. */
    public static Program parse(String text) {
        List<List<Op>> threads = new ArrayList<>();
        int maxAddress = -1;
        for (String th : text.split("\\|")) {
            List<Op> ops = new ArrayList<>();
            for (String op : th.trim().split(";")) {
                String[] tok = op.trim().split("\\s+");
                EventKind k = EventKind.parse(tok[0]);
                if (k == null) {
                    throw new IllegalArgumentException("unknown op " + tok[0]);
                }
                int a = -1;
                if (k.operand() == EventKind.Operand.ADDRESS) {
                    a = tok[1].charAt(0) - 'a';
                    maxAddress = Math.max(maxAddress, a);
                }
                ops.add(new Op(k, a));
            }
            threads.add(ops);
        }
        return new Program(threads, maxAddress + 1);
    }
}
