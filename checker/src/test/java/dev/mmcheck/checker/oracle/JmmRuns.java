package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.jmm.RobustnessMonitor;

import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a {@link JmmProgram} on the {@link RobustnessMonitor}: its SC interleavings (a lock operation only
 * when the lock is free), each operation fed as the SC run executes it, with its number as the event id.
 */
final class JmmRuns {

    private JmmRuns() {
    }

    /**
     * Feeds thread {@code t}'s operation {@code op} (number {@code g}) to {@code m} as an SC run executes it on
     * memory {@code mem}, which it updates; {@code values}: with the written and expected values.
     */
    static void feed(RobustnessMonitor m, JmmProgram.Op op, int t, int g, long[] mem, boolean values) {
        int l = op.loc();
        switch (op.kind()) {
            case LOAD -> m.load(t, l, op.mode(), g);
            case STORE -> {
                if (values) {
                    m.store(t, l, op.mode(), op.value(), g);
                } else {
                    m.store(t, l, op.mode(), g);
                }
                mem[l] = op.value();
            }
            case RMW -> {
                if (values) {
                    m.rmw(t, l, op.mode(), op.value(), g);
                } else {
                    m.rmw(t, l, op.mode(), g);
                }
                mem[l] = op.value();
            }
            case CAS -> {
                boolean ok = mem[l] == op.expected();
                if (values) {
                    m.cas(t, l, op.mode(), op.expected(), ok, op.value(), g);
                } else {
                    m.cas(t, l, op.mode(), ok, g);
                }
                if (ok) {
                    mem[l] = op.value();
                }
            }
            case FENCE -> m.fence(t, op.fence());
            case LOCK -> {
                m.lockEnter(t, l, g);
                mem[l] = 1;
            }
            case UNLOCK -> {
                m.lockExit(t, l, g);
                mem[l] = 0;
            }
        }
    }

    /** Calls {@code each} with every SC interleaving of {@code p} (a thread number per operation; reused). */
    static void interleavings(JmmProgram p, Consumer<int[]> each) {
        int n = p.threads().size();
        enumerate(p, new int[n], new int[p.size()], 0, new long[p.locations()], each);
    }

    private static void enumerate(JmmProgram p, int[] pc, int[] order, int depth, long[] mem, Consumer<int[]> each) {
        if (depth == order.length) {
            each.accept(order);
            return;
        }
        for (int t = 0; t < pc.length; t++) {
            List<JmmProgram.Op> ops = p.threads().get(t);
            if (pc[t] == ops.size()) {
                continue;
            }
            JmmProgram.Op op = ops.get(pc[t]);
            if (op.kind() == JmmProgram.Kind.LOCK && mem[op.loc()] != 0) {
                continue; // it would wait for the lock
            }
            long[] next = mem.clone();
            int l = op.loc();
            switch (op.kind()) {
                case STORE, RMW -> next[l] = op.value();
                case CAS -> next[l] = mem[l] == op.expected() ? op.value() : mem[l];
                case LOCK -> next[l] = 1;
                case UNLOCK -> next[l] = 0;
                default -> { }
            }
            order[depth] = t;
            pc[t]++;
            enumerate(p, pc, order, depth + 1, next, each);
            pc[t]--;
        }
    }
}
