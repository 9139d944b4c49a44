package dev.mmcheck.checker.bench;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;

import java.util.Random;

/**
 * A synthetic event stream shaped like a lock-free workload: a few threads, mostly loads, many
 * addresses with some shared hot ones, stores, release stores, the odd CAS and fence. Used by the
 * benchmark and the allocation test.
 */
public final class SyntheticStream {

    private SyntheticStream() {
    }

    /**
     * {@code events} events from {@code threads} threads over {@code addresses} addresses (a sixteenth
     * of them hot), 70% loads, defining names in {@code symbols}.
     */
    public static EventBuffer generate(Symbols symbols, int threads, int addresses, int events, long seed) {
        Random rnd = new Random(seed);
        for (int t = 0; t < threads; t++) {
            symbols.thread("T" + t);
        }
        for (int a = 0; a < addresses; a++) {
            symbols.address("obj" + (a / 4) + ".f" + (a % 4));
        }
        int sites = 256;
        for (int s = 0; s < sites; s++) {
            symbols.site(new Site("com.example.Work", "step" + s / 16, "Work.java", 10 + s, s));
        }
        int hot = Math.max(1, addresses / 16);
        EventBuffer b = new EventBuffer();
        for (int i = 0; i < events; i++) {
            int t = rnd.nextInt(threads);
            int a = rnd.nextInt(4) == 0 ? rnd.nextInt(hot) : rnd.nextInt(addresses);
            int site = rnd.nextInt(sites);
            int r = rnd.nextInt(100);
            EventKind k;
            if (r < 70) {
                k = EventKind.LOAD;
            } else if (r < 90) {
                k = EventKind.STORE;
            } else if (r < 94) {
                k = EventKind.RELEASE_STORE;
            } else if (r < 97) {
                k = EventKind.INTERLOCKED;
            } else if (r < 99) {
                k = EventKind.FULL_FENCE;
            } else {
                k = EventKind.VOLATILE_STORE;
            }
            b.event(k.code(), t, k.operand() == EventKind.Operand.ADDRESS ? a : -1, site);
        }
        return b;
    }
}
