package dev.mmcheck.checker.monitor;

import dev.mmcheck.checker.clock.VectorClocks;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.FindingSink;

/**
 * The check of Burnim et al. (Fig. 4, lines 3-7; Fig. 5, lines 3-6) shared by the TSO and PSO monitors:
 * when thread t accesses an address to which another thread q has stores still buffered, each such
 * store e with e →hb* prev (t's previous event) is a violation: a TSO/PSO execution of the same issue
 * order keeps e buffered past the access, which then precedes e in conflict order while e happens
 * before it.
 *
 * <p>The paper checks only q's last store to the address. With {@link MonitorConfig#everyPendingStore()}
 * every one of q's pending stores to it is checked, newest first: an older one happens before
 * everything the last one does and more, so it is a violation whenever the last is, and sometimes when
 * the last is not ({@code a = 1; r = b; a = 0} against {@code b = 1; r = a}); its execution keeps the
 * older store buffered, and with it everything q buffered after it, exactly as the paper's construction
 * does for the last (docs/monitors.md, "Every pending store"). Each store site is reported once per
 * access. Checker thread only.
 */
final class PendingStoreCheck {

    private static final int MAX_SITES = 8;

    private final Analysis analysis;
    private final VectorClocks clocks;
    private final FindingSink sink;
    private final StoreBuffers buffers;
    private final boolean every;
    private final int[] reported = new int[MAX_SITES];

    /** The check of {@code analysis}'s monitor over its {@code buffers}. */
    PendingStoreCheck(Analysis analysis, VectorClocks clocks, FindingSink sink, StoreBuffers buffers,
            MonitorConfig config) {
        this.analysis = analysis;
        this.clocks = clocks;
        this.sink = sink;
        this.buffers = buffers;
        this.every = config.everyPendingStore();
    }

    /**
     * Checks the access ({@code kind}, {@code site}, {@code seq}) of thread {@code t} to {@code address},
     * whose last buffered store is thread {@code q}'s (not t) at {@code pos}; reports what it finds.
     */
    void check(int q, long pos, int t, int kind, int address, int site, long seq) {
        if (clocks.clock(t) == 0) {
            return; // t has no previous event
        }
        int n = 0;
        for (long p = pos; p >= 0 && n < MAX_SITES; p = every ? buffers.prevSame(q, p) : -1) {
            if (!clocks.knows(t, q, buffers.clock(q, p))) {
                continue;
            }
            int storeSite = buffers.site(q, p);
            if (seen(storeSite, n)) {
                continue;
            }
            reported[n++] = storeSite;
            sink.storeBuffered(analysis, q, buffers.kind(q, p), address, storeSite, buffers.seq(q, p),
                    t, kind, address, site, seq);
        }
    }

    private boolean seen(int storeSite, int n) {
        for (int i = 0; i < n; i++) {
            if (reported[i] == storeSite) {
                return true;
            }
        }
        return false;
    }
}
