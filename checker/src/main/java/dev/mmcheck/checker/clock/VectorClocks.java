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
 * implies knowledge of everything that event knew). Called by the checker thread only.
 */
public final class VectorClocks {

    private int width;
    private int[] threadVc;
    private int threadCapacity;

    private int addressCapacity;
    private int[] writeVc;
    private int[] readVc;
    private int[] writeThread;
    private int[] writeClock;
    private boolean[] readsEmpty;

    /** Clocks for {@code threads} threads and {@code addresses} addresses; both grow when exceeded. */
    public VectorClocks(int threads, int addresses) {
        this.width = Math.max(1, threads);
        this.threadCapacity = width;
        this.threadVc = new int[width * width];
        this.addressCapacity = Math.max(16, addresses);
        allocateAddresses(addressCapacity);
    }

    private void allocateAddresses(int capacity) {
        writeVc = new int[capacity * width];
        readVc = new int[capacity * width];
        writeThread = new int[capacity];
        Arrays.fill(writeThread, -1);
        writeClock = new int[capacity];
        readsEmpty = new boolean[capacity];
        Arrays.fill(readsEmpty, true);
    }

    /** Makes room for thread slots {@code 0..threads-1}. */
    public void ensureThreads(int threads) {
        if (threads <= width) {
            return;
        }
        int newWidth = Math.max(threads, width * 2);
        threadVc = restride(threadVc, threadCapacity, width, newWidth, newWidth);
        threadCapacity = newWidth;
        writeVc = restride(writeVc, addressCapacity, width, newWidth, addressCapacity);
        readVc = restride(readVc, addressCapacity, width, newWidth, addressCapacity);
        width = newWidth;
    }

    /** Makes room for address ids {@code 0..address}. */
    public void ensureAddress(int address) {
        if (address < addressCapacity) {
            return;
        }
        int n = Math.max(address + 1, addressCapacity * 2);
        writeVc = Arrays.copyOf(writeVc, n * width);
        readVc = Arrays.copyOf(readVc, n * width);
        writeThread = Arrays.copyOf(writeThread, n);
        Arrays.fill(writeThread, addressCapacity, n, -1);
        writeClock = Arrays.copyOf(writeClock, n);
        readsEmpty = Arrays.copyOf(readsEmpty, n);
        Arrays.fill(readsEmpty, addressCapacity, n, true);
        addressCapacity = n;
    }

    private static int[] restride(int[] old, int rows, int oldWidth, int newWidth, int newRows) {
        int[] fresh = new int[newRows * newWidth];
        for (int r = 0; r < rows; r++) {
            System.arraycopy(old, r * oldWidth, fresh, r * newWidth, oldWidth);
        }
        return fresh;
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

    /** Component {@code j} of thread {@code t}'s clock. */
    public int component(int t, int j) {
        return threadVc[t * width + j];
    }

    /** A read of {@code address} by thread {@code t}. */
    public void load(int t, int address) {
        int base = t * width;
        threadVc[base + t]++;
        joinWrite(base, address);
        int r = address * width;
        if (readsEmpty[address]) {
            System.arraycopy(threadVc, base, readVc, r, width);
            readsEmpty[address] = false;
        } else {
            join(readVc, r, threadVc, base);
        }
    }

    /** A write of {@code address} by thread {@code t}. */
    public void store(int t, int address) {
        int base = t * width;
        threadVc[base + t]++;
        writeAfterAll(t, base, address);
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
        join(threadVc, c, threadVc, p);
        threadVc[c + child]++;
    }

    /** Thread {@code joiner} returns from joining {@code joined}: the joined thread's end happens before. */
    public void join(int joiner, int joined) {
        int c = joined * width;
        threadVc[c + joined]++;
        int p = joiner * width;
        join(threadVc, p, threadVc, c);
        threadVc[p + joiner]++;
    }

    /** Forgets everything about {@code address}, so that its id may be reused for a new one. */
    public void clearAddress(int address) {
        if (address >= addressCapacity) {
            return;
        }
        Arrays.fill(writeVc, address * width, address * width + width, 0);
        writeThread[address] = -1;
        writeClock[address] = 0;
        readsEmpty[address] = true;
    }

    /** Forgets all history: afterwards no earlier event happens before any later one. */
    public void reset() {
        Arrays.fill(threadVc, 0);
        Arrays.fill(writeVc, 0);
        Arrays.fill(writeThread, -1);
        Arrays.fill(writeClock, 0);
        Arrays.fill(readsEmpty, true);
    }

    private void writeAfterAll(int t, int base, int address) {
        joinWrite(base, address);
        int r = address * width;
        if (!readsEmpty[address]) {
            join(threadVc, base, readVc, r);
            readsEmpty[address] = true;
        }
        System.arraycopy(threadVc, base, writeVc, r, width);
        writeThread[address] = t;
        writeClock[address] = threadVc[base + t];
    }

    private void joinWrite(int base, int address) {
        int wt = writeThread[address];
        // A thread that already knows the last write knows all that write knew: skip the join.
        if (wt >= 0 && threadVc[base + wt] < writeClock[address]) {
            join(threadVc, base, writeVc, address * width);
        }
    }

    private void join(int[] into, int intoBase, int[] from, int fromBase) {
        for (int j = 0; j < width; j++) {
            int v = from[fromBase + j];
            if (v > into[intoBase + j]) {
                into[intoBase + j] = v;
            }
        }
    }
}
