package dev.mmcheck.checker.jmm;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Random operations on a few views (raise, join, assign, duplicate, a lazy reset), each checked against plain arrays
 * after every step, so a lost entry, a join that misses a change or a reset that leaks old entries fails here first.
 */
class ViewTest {

    @Test
    void sharedViewsChangeIndependently() {
        Random r = new Random(34);
        for (int round = 0; round < 2000; round++) {
            View[] v = new View[4];
            int[][] e = new int[4][24];
            for (int i = 0; i < v.length; i++) {
                v[i] = new View();
            }
            for (int step = 0; step < 40; step++) {
                int a = r.nextInt(v.length);
                int b = r.nextInt(v.length);
                long before = v[a].version();
                int[] was = e[a].clone();
                switch (r.nextInt(5)) {
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
}
