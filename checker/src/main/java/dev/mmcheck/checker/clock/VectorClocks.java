package dev.mmcheck.checker.clock;

import java.util.Arrays;

/**
 * Vector clocks for the happens-before relation of an observed sequentially consistent run:
 * program order plus conflict order (write-read, write-write, read-write on one address), closed
 * transitively. O(threads) per event.
 *
 * <p>Every event of thread {@code t} is stamped with the clock {@code clock(t) + 1} at the moment it
 * is processed; event (t, k) happens before the current point of thread {@code u} iff
 * {@code knows(u, t, k)}. Thread and address ids are dense slots; both grow on demand.
 *
 * <p>Per address it keeps W, the clock of the last write (which already covers every earlier write
 * and every read before it), and R, the join of the reads since that write; a write joins both, a
 * read joins W. A read skips its join of W when it already knows the writing event (a known event
 * implies knowledge of everything that event knew).
 *
 * <p>An address's state is one record of ints in a shared table: first the words the monitors
 * reserved ({@link #reserveWords}), then the writer, its clock, whether R is empty, R and W. Keeping a
 * monitor's per-address words in the same record means one event touches one or two cache lines
 * instead of one per array, which is most of the checker's cost on many addresses. New and dead
 * addresses read as all zeros. Called by the checker thread only.
 */
public final class VectorClocks {

    /** The largest table one int array holds. */
    private static final long MAX_TABLE = Integer.MAX_VALUE - 16;

    private int extra;            // words reserved by monitors, at the start of each record
    private int writer;           // offset of the writer's thread + 1 (0: never written)
    private int writerClock;
    private int hasReads;
    private int r;                // offset of R, right after the header (a load touches header and R)
    private int w;                // offset of W, after R

    private int width;
    private int stride;           // extra + 3 + 2 * width
    private int[] threadVc;
    private int threadRows;

    private int addressCapacity;
    private int[] state;          // per address: monitors' words, writer, its clock, has-reads, R, W

    /** Clocks for {@code threads} threads and {@code addresses} addresses; both grow when exceeded. */
    public VectorClocks(int threads, int addresses) {
        this.width = Math.max(1, threads);
        this.threadRows = width;
        this.threadVc = new int[width * width];
        this.addressCapacity = Math.max(16, addresses);
        layout(0);
        this.state = new int[addressCapacity * stride];
    }

    private void layout(int extraWords) {
        extra = extraWords;
        writer = extra;
        writerClock = extra + 1;
        hasReads = extra + 2;
        r = extra + 3;
        w = r + width;
        stride = extra + 3 + 2 * width;
    }

    /**
     * Reserves {@code n} words in every address's record for a monitor and returns their offset in
     * the record; read them as {@code table()[address * stride() + offset + i]}. The table and the
     * stride change when threads or addresses grow, so fetch both on each use.
     */
    public int reserveWords(int n) {
        int offset = extra;
        int oldStride = stride;
        int oldExtra = extra;
        int[] old = state;
        layout(extra + n);
        state = new int[addressCapacity * stride];
        for (int a = 0; a < addressCapacity; a++) {
            System.arraycopy(old, a * oldStride, state, a * stride, oldExtra);
            System.arraycopy(old, a * oldStride + oldExtra, state, a * stride + extra, oldStride - oldExtra);
        }
        return offset;
    }

    /** The per-address records (see {@link #reserveWords}). */
    public int[] table() {
        return state;
    }

    /** Ints per address record. */
    public int stride() {
        return stride;
    }

    /** Ints per address record once there is room for {@code threads} thread slots (at least the current ones). */
    public int strideFor(int threads) {
        return extra + 3 + 2 * Math.max(width, threads);
    }

    /** Makes room for thread slots {@code 0..threads-1}. */
    public void ensureThreads(int threads) {
        if (threads <= width) {
            return;
        }
        int newWidth = Math.max(threads, width * 2);
        int[] vc = new int[newWidth * newWidth];
        for (int t = 0; t < threadRows; t++) {
            System.arraycopy(threadVc, t * width, vc, t * newWidth, width);
        }
        threadVc = vc;
        threadRows = newWidth;
        int oldStride = stride;
        int oldWidth = width;
        int oldW = w;
        width = newWidth;
        layout(extra);
        int[] s = new int[addressCapacity * stride];
        for (int a = 0; a < addressCapacity; a++) {
            int from = a * oldStride;
            int to = a * stride;
            System.arraycopy(state, from, s, to, oldW);                   // words, header, R
            System.arraycopy(state, from + oldW, s, to + w, oldWidth);   // W
        }
        state = s;
    }

    /** Makes room for address ids {@code 0..address}. */
    public void ensureAddress(int address) {
        if (address < addressCapacity) {
            return;
        }
        long n = Math.max(address + 1L, addressCapacity * 2L);
        if (n * stride > MAX_TABLE) {
            n = Math.max(address + 1L, MAX_TABLE / stride);
            if (n * stride > MAX_TABLE) {
                throw new IllegalStateException("address id " + address + " needs a clock table of " + (address + 1L)
                        + " records of " + stride + " ints, more than one array holds (the agent's memory bound "
                        + "keeps address ids below this)");
            }
        }
        state = Arrays.copyOf(state, (int) n * stride);
        addressCapacity = (int) n;
    }

    /**
     * Makes room for exactly {@code capacity} addresses when there is less (the checker decides how far
     * the table grows, within its memory bound, where {@link #ensureAddress} would double it past that).
     */
    public void ensureCapacity(int capacity) {
        if (capacity <= addressCapacity) {
            return;
        }
        if ((long) capacity * stride > MAX_TABLE) {
            throw new IllegalStateException("a clock table of " + capacity + " records of " + stride + " ints is more "
                    + "than one array holds (the agent's memory bound keeps address ids below this)");
        }
        state = Arrays.copyOf(state, capacity * stride);
        addressCapacity = capacity;
    }

    /** Forgets every address's record and reallocates the table for {@code capacity} addresses. */
    public void shrinkAddresses(int capacity) {
        addressCapacity = Math.max(16, capacity);
        state = new int[addressCapacity * stride];
    }

    /** Number of thread slots the clocks currently hold. */
    public int width() {
        return width;
    }

    /** The clock of thread {@code t}'s latest event (0 before its first). */
    public int clock(int t) {
        return threadVc[t * width + t];
    }

    /** Whether event {@code (t, k)} happens before (or is) the latest event of thread {@code observer}. */
    public boolean knows(int observer, int t, int k) {
        return threadVc[observer * width + t] >= k;
    }

    /** A read of {@code address} by thread {@code t}. */
    public void load(int t, int address) {
        int base = t * width;
        int[] vc = threadVc;
        vc[base + t]++;
        int a = address * stride;
        int[] s = state;
        joinWrite(vc, base, s, a);
        int rs = a + r;
        if (s[a + hasReads] == 0) {
            System.arraycopy(vc, base, s, rs, width);
            s[a + hasReads] = 1;
        } else {
            join(s, rs, vc, base, width);
        }
    }

    /** A write of {@code address} by thread {@code t}. */
    public void store(int t, int address) {
        int base = t * width;
        int[] vc = threadVc;
        vc[base + t]++;
        int a = address * stride;
        int[] s = state;
        joinWrite(vc, base, s, a);
        if (s[a + hasReads] != 0) {
            join(vc, base, s, a + r, width);
            s[a + hasReads] = 0;
        }
        System.arraycopy(vc, base, s, a + w, width);
        s[a + writer] = t + 1;
        s[a + writerClock] = vc[base + t];
    }

    /** An interlocked read-modify-write (or monitor operation) on {@code address} by thread {@code t}. */
    public void interlocked(int t, int address) {
        store(t, address);
    }

    /** An event of thread {@code t} with no address (a fence, a transaction boundary). */
    public void local(int t) {
        threadVc[t * width + t]++;
    }

    /** Thread {@code parent} starts thread {@code child}: one event in each, the first before the second. */
    public void start(int parent, int child) {
        int p = parent * width;
        threadVc[p + parent]++;
        int c = child * width;
        join(threadVc, c, threadVc, p, width);
        threadVc[c + child]++;
    }

    /** Thread {@code joiner} returns from joining {@code joined}: the joined thread's end happens before. */
    public void join(int joiner, int joined) {
        int c = joined * width;
        threadVc[c + joined]++;
        int p = joiner * width;
        join(threadVc, p, threadVc, c, width);
        threadVc[p + joiner]++;
    }

    /** Forgets everything about {@code address}, monitors' words included, so that its id may be reused. */
    public void clearAddress(int address) {
        if (address >= addressCapacity) {
            return;
        }
        int a = address * stride;
        Arrays.fill(state, a, a + stride, 0);
    }

    /** Forgets all history, monitors' words included: afterwards no earlier event happens before a later one. */
    public void reset() {
        Arrays.fill(threadVc, 0);
        Arrays.fill(state, 0);
    }

    private void joinWrite(int[] vc, int base, int[] s, int a) {
        int wt = s[a + writer] - 1;
        // A thread that already knows the last write knows all that write knew: skip the join.
        if (wt >= 0 && vc[base + wt] < s[a + writerClock]) {
            join(vc, base, s, a + w, width);
        }
    }

    private static void join(int[] into, int intoBase, int[] from, int fromBase, int n) {
        for (int j = 0; j < n; j++) {
            int v = from[fromBase + j];
            if (v > into[intoBase + j]) {
                into[intoBase + j] = v;
            }
        }
    }
}
