package dev.mmcheck.checker.jmm;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random operations on a few views (raise, join, assign, assign and raise, duplicate, a lazy reset), each checked
 * against plain arrays, so a lost entry, a join that misses a change, a copy made again from a stale log, or a reset
 * that leaks old entries fails here first.
 */
class ViewTest {

    @Test
    void sharedViewsChangeIndependently() {
        Random r = new Random(34);
        for (int round = 0; round < 2000; round++) {
            View[] v = new View[4];
            int[][] e = new int[4][24];
            for (int i = 0; i < v.length; i++) {
                v[i] = new View(i % 2 == 0); // logged ones replay their raises into copies of them
            }
            for (int step = 0; step < 40; step++) {
                int a = r.nextInt(v.length);
                int b = r.nextInt(v.length);
                long before = v[a].version();
                int[] was = e[a].clone();
                switch (r.nextInt(7)) {
                    case 0 -> {
                        int x = r.nextInt(24);
                        int k = r.nextInt(6);
                        v[a].raise(x, k);
                        e[a][x] = Math.max(e[a][x], k);
                    }
                    case 1 -> {
                        v[a].join(v[b]);
                        for (int x = 0; x < 24; x++) {
                            e[a][x] = Math.max(e[a][x], e[b][x]);
                        }
                    }
                    case 2 -> {
                        v[a].assign(v[b]);
                        e[a] = e[b].clone();
                    }
                    case 4, 5 -> {
                        int x = r.nextInt(3); // few locations: the same one again is common
                        int k = r.nextInt(9);
                        v[a].assignRaised(v[b], x, k);
                        e[a] = e[b].clone();
                        e[a][x] = Math.max(e[a][x], k);
                    }
                    case 3 -> {
                        v[a] = v[b].duplicate();
                        e[a] = e[b].clone();
                        before = -1;
                    }
                    default -> {
                        int x = r.nextInt(24);
                        int k = r.nextInt(3);
                        v[a].reset(x, k);
                        e[a] = new int[24];
                        e[a][x] = k;
                    }
                }
                if (before >= 0 && !java.util.Arrays.equals(was, e[a])) {
                    assertNotEquals(before, v[a].version(), "a changed view has a new version");
                }
                // read back now and then only: a reset is lazy, and what follows it before a read must not matter
                if (step % 4 != 3) {
                    continue;
                }
                for (int i = 0; i < v.length; i++) {
                    for (int x = 0; x < 24; x++) {
                        assertEquals(e[i][x], v[i].get(x), "round " + round + " step " + step + " view " + i + " x " + x);
                    }
                }
            }
        }
    }

    @Test
    void raisesSinceCatchUpAViewThatWasAbove() {
        Random r = new Random(1129);
        int replayed = 0;
        for (int round = 0; round < 3000; round++) {
            View src = new View(true);
            View other = new View();
            for (int i = 0; i < 10; i++) {
                src.raise(r.nextInt(24), 1 + r.nextInt(9));
                other.raise(r.nextInt(24), 1 + r.nextInt(9));
            }
            View tgt = new View();
            tgt.join(src);
            tgt.raise(r.nextInt(24), 1 + r.nextInt(20));
            long from = src.version();
            boolean bulk = false;
            int raises = 0;
            for (int step = r.nextInt(24); step > 0; step--) {
                if (r.nextInt(30) == 0) {
                    long v = src.version();
                    src.join(other);
                    bulk |= src.version() != v;
                } else {
                    long v = src.version();
                    src.raise(r.nextInt(24), r.nextInt(40));
                    raises += src.version() != v ? 1 : 0;
                }
            }
            boolean done = src.raisesSince(from, tgt);
            assertEquals(!bulk && raises <= View.LOG, done, "round " + round + ": replayable exactly when only logged raises");
            if (done) {
                replayed++;
                for (int x = 0; x < 24; x++) {
                    assertTrue(tgt.get(x) >= src.get(x), "round " + round + " x " + x + ": the target is above again");
                }
            }
        }
        assertTrue(replayed > 1000 && replayed < 2900, "both outcomes common: " + replayed);
    }
}
