package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.jmm.AccessMode;
import dev.mmcheck.checker.jmm.FenceKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A small straight-line program over Java's access modes, for the robustness oracle ({@link RaOracle}):
 * per thread a list of operations on locations 0..locations-1. Every write writes its own value (its
 * operation number + 1, so never the initial 0), which is all that a compare-and-set's outcome and a
 * lock's blocking need; nothing else depends on the values read.
 */
public record JmmProgram(List<List<Op>> threads, int locations) {

    /** What an operation does. */
    public enum Kind {
        /** a read */
        LOAD,
        /** a write */
        STORE,
        /** a read-modify-write that always succeeds (getAndSet) */
        RMW,
        /** a compare-and-set: a read-modify-write when it reads {@code expected}, else a read */
        CAS,
        /** a fence */
        FENCE,
        /** monitorenter on a lock location: waits until it reads an unlocked (0) value, then writes 1 */
        LOCK,
        /** monitorexit: writes 0 to the lock location */
        UNLOCK
    }

    /** One operation; {@code loc} is -1 for fences, {@code mode} null for fences and locks. */
    public record Op(Kind kind, int loc, AccessMode mode, FenceKind fence, long value, long expected) {

        /** Whether the operation may write its location. */
        public boolean writes() {
            return kind == Kind.STORE || kind == Kind.RMW || kind == Kind.CAS || kind == Kind.LOCK
                    || kind == Kind.UNLOCK;
        }

        @Override
        public String toString() {
            String l = loc >= 0 ? " " + locationName(loc) : "";
            String m = mode == null ? "" : " " + mode.name().toLowerCase(Locale.ROOT);
            return switch (kind) {
                case LOAD -> "load" + l + m;
                case STORE, RMW -> kind.name().toLowerCase(Locale.ROOT) + l + " " + value + m;
                case CAS -> "cas" + l + " " + expected + " " + value + m;
                case FENCE -> "fence " + fence.name().toLowerCase(Locale.ROOT).replace("_", "");
                case LOCK -> "lock" + l;
                case UNLOCK -> "unlock" + l;
            };
        }
    }

    /**
     * Which operations a generated program may use; {@code volatilePercent}: the share of accesses made
     * volatile on top of the modes' even draw (0: none).
     */
    public record Gen(boolean rmws, boolean cas, boolean fences, boolean locks, boolean volatiles,
            int volatilePercent) {
        /** Everything, each mode as likely as the others. */
        public static Gen all() {
            return new Gen(true, true, true, true, true, 0);
        }

        /** Everything, half of the accesses volatile (to meet volatile-only shapes such as Dekker often). */
        public static Gen volatileHeavy() {
            return new Gen(true, true, true, true, true, 50);
        }
    }

    /** Total number of operations. */
    public int size() {
        return threads.stream().mapToInt(List::size).sum();
    }

    /** The operation with global number {@code g} (threads in order, each in program order). */
    public Op op(int g) {
        for (List<Op> t : threads) {
            if (g < t.size()) {
                return t.get(g);
            }
            g -= t.size();
        }
        throw new IndexOutOfBoundsException();
    }

    /** The global number of thread {@code t}'s first operation. */
    public int base(int t) {
        int b = 0;
        for (int i = 0; i < t; i++) {
            b += threads.get(i).size();
        }
        return b;
    }

    /**
     * A random program: 2-3 threads, 1-4 operations each (a lock section adds its lock and unlock), 2-3
     * data locations (one more when a thread locks), every mode, fence and read-modify-write {@code gen}
     * allows.
     */
    public static JmmProgram random(Random rnd, Gen gen) {
        while (true) {
            JmmProgram p = draw(rnd, gen);
            if (p.interleavings() <= MAX_INTERLEAVINGS) {
                return p;
            }
        }
    }

    /** Programs with more interleavings are drawn again: checking each interleaving must stay fast. */
    static final long MAX_INTERLEAVINGS = 1200;

    /** The number of ways to interleave the threads (the lock's waits not counted). */
    public long interleavings() {
        long r = 1;
        int done = 0;
        for (List<Op> t : threads) {
            for (int i = 1; i <= t.size(); i++) {
                r = r * (done + i) / i;
            }
            done += t.size();
        }
        return r;
    }

    private static JmmProgram draw(Random rnd, Gen gen) {
        int n = 2 + (rnd.nextInt(3) == 0 ? 1 : 0);
        int data = 2 + (rnd.nextInt(4) == 0 ? 1 : 0);
        boolean locking = gen.locks() && rnd.nextInt(6) == 0;
        int lock = data;
        List<List<Op>> draft = new ArrayList<>();
        int g = 0;
        for (int t = 0; t < n; t++) {
            int len = n == 3 ? 1 + rnd.nextInt(3) : 2 + rnd.nextInt(3);
            List<Op> list = new ArrayList<>();
            boolean section = locking && rnd.nextBoolean();
            int from = section ? rnd.nextInt(len + 1) : -1;
            int to = section ? from + rnd.nextInt(len - from + 1) : -1;
            for (int i = 0; i <= len; i++) {
                if (i == from) {
                    list.add(new Op(Kind.LOCK, lock, null, null, 1, 0));
                }
                if (i == to) {
                    list.add(new Op(Kind.UNLOCK, lock, null, null, 0, 0));
                }
                if (i < len) {
                    list.add(randomOp(rnd, gen, data));
                }
            }
            draft.add(list);
        }
        // number the writes' values, then pick each compare-and-set's expected value among its location's
        List<List<Op>> threads = new ArrayList<>();
        List<long[]> written = new ArrayList<>();
        for (int l = 0; l < data; l++) {
            written.add(new long[0]);
        }
        for (List<Op> t : draft) {
            List<Op> out = new ArrayList<>();
            for (Op op : t) {
                long v = ++g;
                if (op.kind() == Kind.STORE || op.kind() == Kind.RMW || op.kind() == Kind.CAS) {
                    op = new Op(op.kind(), op.loc(), op.mode(), null, v, 0);
                    long[] w = written.get(op.loc());
                    long[] w2 = java.util.Arrays.copyOf(w, w.length + 1);
                    w2[w.length] = v;
                    written.set(op.loc(), w2);
                }
                out.add(op);
            }
            threads.add(out);
        }
        for (List<Op> t : threads) {
            for (int i = 0; i < t.size(); i++) {
                Op op = t.get(i);
                if (op.kind() == Kind.CAS) {
                    long[] w = written.get(op.loc());
                    int pick = rnd.nextInt(w.length + 1);
                    long expected = pick == w.length ? 0 : w[pick];
                    t.set(i, new Op(Kind.CAS, op.loc(), op.mode(), null, op.value(), expected));
                }
            }
        }
        return new JmmProgram(threads, data + (locking ? 1 : 0));
    }

    private static final AccessMode[] LOAD_MODES = {AccessMode.PLAIN, AccessMode.OPAQUE, AccessMode.ACQUIRE,
            AccessMode.VOLATILE};
    private static final AccessMode[] STORE_MODES = {AccessMode.PLAIN, AccessMode.OPAQUE, AccessMode.RELEASE,
            AccessMode.VOLATILE};

    private static Op randomOp(Random rnd, Gen gen, int data) {
        Op op = randomOp0(rnd, gen, data);
        if (gen.volatilePercent() > 0 && op.mode() != null && rnd.nextInt(100) < gen.volatilePercent()) {
            return new Op(op.kind(), op.loc(), AccessMode.VOLATILE, null, 0, 0);
        }
        return op;
    }

    private static Op randomOp0(Random rnd, Gen gen, int data) {
        int loc = rnd.nextInt(data);
        while (true) {
            int r = rnd.nextInt(100);
            AccessMode any = AccessMode.values()[rnd.nextInt(AccessMode.values().length)];
            if (r < 36) {
                return new Op(Kind.LOAD, loc, mode(rnd, LOAD_MODES, gen), null, 0, 0);
            }
            if (r < 66) {
                return new Op(Kind.STORE, loc, mode(rnd, STORE_MODES, gen), null, 0, 0);
            }
            if (r < 74 && gen.rmws()) {
                return new Op(Kind.RMW, loc, volatileOk(any, gen), null, 0, 0);
            }
            if (r < 84 && r >= 74 && gen.cas()) {
                return new Op(Kind.CAS, loc, volatileOk(any, gen), null, 0, 0);
            }
            if (r >= 84 && gen.fences()) {
                return new Op(Kind.FENCE, -1, null, FenceKind.values()[rnd.nextInt(FenceKind.values().length)], 0, 0);
            }
        }
    }

    private static AccessMode mode(Random rnd, AccessMode[] modes, Gen gen) {
        return volatileOk(modes[rnd.nextInt(modes.length)], gen);
    }

    private static AccessMode volatileOk(AccessMode m, Gen gen) {
        return m == AccessMode.VOLATILE && !gen.volatiles() ? AccessMode.OPAQUE : m;
    }

    /** Parses one operation from its words (as {@link Op#toString()} prints it, without the thread). */
    public static Op parseOp(String[] w) {
        String k = w[0].toLowerCase(Locale.ROOT);
        switch (k) {
            case "load":
                return new Op(Kind.LOAD, loc(w[1]), mode(w, 2), null, 0, 0);
            case "store":
                return new Op(Kind.STORE, loc(w[1]), mode(w, 3), null, Long.parseLong(w[2]), 0);
            case "rmw":
                return new Op(Kind.RMW, loc(w[1]), mode(w, 3), null, Long.parseLong(w[2]), 0);
            case "cas":
                return new Op(Kind.CAS, loc(w[1]), mode(w, 4), null, Long.parseLong(w[3]), Long.parseLong(w[2]));
            case "fence":
                return new Op(Kind.FENCE, -1, null, fence(w[1]), 0, 0);
            case "lock":
                return new Op(Kind.LOCK, loc(w[1]), null, null, 1, 0);
            case "unlock":
                return new Op(Kind.UNLOCK, loc(w[1]), null, null, 0, 0);
            default:
                throw new IllegalArgumentException("unknown operation " + w[0]);
        }
    }

    private static final String NAMES = "xyzwl";

    /** The name of location {@code l} in texts: x, y, z, w, then l (where the litmus files keep their lock). */
    public static String locationName(int l) {
        return String.valueOf(NAMES.charAt(l));
    }

    private static int loc(String s) {
        int l = s.length() == 1 ? NAMES.indexOf(s.charAt(0)) : -1;
        if (l < 0) {
            throw new IllegalArgumentException("a location is x, y, z, w or l, not " + s);
        }
        return l;
    }

    private static AccessMode mode(String[] w, int i) {
        if (w.length <= i) {
            throw new IllegalArgumentException("no mode in " + String.join(" ", w));
        }
        return AccessMode.valueOf(w[i].toUpperCase(Locale.ROOT));
    }

    private static FenceKind fence(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "full" -> FenceKind.FULL;
            case "acquire" -> FenceKind.ACQUIRE;
            case "release" -> FenceKind.RELEASE;
            case "loadload" -> FenceKind.LOAD_LOAD;
            case "storestore" -> FenceKind.STORE_STORE;
            default -> throw new IllegalArgumentException("unknown fence " + s);
        };
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int t = 0; t < threads.size(); t++) {
            b.append("T").append(t).append(": ").append(threads.get(t)).append('\n');
        }
        return b.toString();
    }
}
