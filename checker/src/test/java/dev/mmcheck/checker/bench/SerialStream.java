package dev.mmcheck.checker.bench;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;

import java.util.Random;

/**
 * Synthetic streams for the serializability checks: {@code threads} threads, each event a load of one
 * of 13 shared read-only coefficients (as W02's Horner loop rereads them), or a load or store of an
 * array element near the thread's own position (sometimes the other thread's part), the odd release
 * store, CAS and fence; and, with {@code atomicPercent} > 0, that share of the events inside atomic
 * blocks of 2-6 events of one thread. With 0, every event is a transaction of its own (W02's case).
 */
public final class SerialStream {

    private SerialStream() {
    }

    /** The stream; names defined in {@code symbols}. */
    public static EventBuffer generate(Symbols symbols, int threads, int elements, int events, int atomicPercent,
            long seed) {
        Random rnd = new Random(seed);
        for (int t = 0; t < threads; t++) {
            symbols.thread("T" + t);
        }
        int coefficients = 13;
        for (int a = 0; a < coefficients; a++) {
            symbols.address("c[" + a + "]");
        }
        for (int a = 0; a < elements; a++) {
            symbols.address("v[" + a + "]");
        }
        int sites = 64;
        for (int s = 0; s < sites; s++) {
            symbols.site(new Site("com.example.Work", "step" + s / 16, "Work.java", 10 + s, s));
        }
        int txSite = symbols.site(new Site("com.example.Work", "atomicStep", "Work.java", 5, -1));
        int[] pos = new int[threads];
        int[] left = new int[threads];
        for (int t = 0; t < threads; t++) {
            pos[t] = t * elements / threads;
        }
        EventBuffer b = new EventBuffer();
        int n = 0;
        while (n < events) {
            int t = rnd.nextInt(threads);
            if (left[t] == 0 && atomicPercent > 0 && rnd.nextInt(100) < atomicPercent / 4) {
                left[t] = 2 + rnd.nextInt(5);
                b.event(EventKind.TX_BEGIN.code(), t, -1, txSite);
            }
            int site = rnd.nextInt(sites);
            int r = rnd.nextInt(100);
            EventKind k;
            int a;
            if (r < 55) {
                k = EventKind.LOAD;
                a = rnd.nextInt(coefficients);
            } else if (r < 75) {
                k = EventKind.LOAD;
                a = coefficients + element(rnd, pos[t], elements);
            } else if (r < 93) {
                k = EventKind.STORE;
                a = coefficients + element(rnd, pos[t], elements);
                pos[t] = (pos[t] + 1) % elements;
            } else if (r < 96) {
                k = EventKind.RELEASE_STORE;
                a = coefficients + element(rnd, pos[t], elements);
            } else if (r < 98) {
                k = EventKind.INTERLOCKED;
                a = coefficients + element(rnd, pos[t], elements);
            } else {
                k = EventKind.FULL_FENCE;
                a = -1;
            }
            b.event(k.code(), t, a, site);
            n++;
            if (left[t] > 0 && --left[t] == 0) {
                b.event(EventKind.TX_END.code(), t, -1, txSite);
            }
        }
        for (int t = 0; t < threads; t++) {
            if (left[t] > 0) {
                b.event(EventKind.TX_END.code(), t, -1, txSite);
            }
        }
        return b;
    }

    private static int element(Random rnd, int pos, int elements) {
        int d = rnd.nextInt(10) == 0 ? rnd.nextInt(elements) : rnd.nextInt(4);
        return (pos + d) % elements;
    }
}
