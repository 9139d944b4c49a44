package dev.mmcheck.checker.fix;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The exact search against brute force over every choice of sets, elements shared between sets paid once. */
class HittingSetTest {

    private static final int INSTANCES = 3000;

    @Test
    void exactSearchFindsTheCheapestChoiceOnRandomInstances() {
        Random rnd = new Random(35);
        int beatsGreedy = 0;
        int shared = 0;
        for (int i = 0; i < INSTANCES; i++) {
            int elements = 1 + rnd.nextInt(7);
            int setCount = 1 + rnd.nextInt(9);
            int findings = 1 + rnd.nextInt(5);
            double[] cost = new double[elements];
            for (int e = 0; e < elements; e++) {
                cost[e] = 0.1 * (1 + rnd.nextInt(30));
            }
            int[][] sets = new int[setCount][];
            BitSet[] removes = new BitSet[setCount];
            BitSet used = new BitSet();
            for (int s = 0; s < setCount; s++) {
                BitSet members = new BitSet();
                members.set(rnd.nextInt(elements));
                while (rnd.nextInt(3) == 0) {
                    members.set(rnd.nextInt(elements));
                }
                BitSet overlap = (BitSet) members.clone();
                overlap.and(used);
                shared += overlap.isEmpty() ? 0 : 1;
                used.or(members);
                sets[s] = members.stream().toArray();
                removes[s] = new BitSet();
                for (int f = 0; f < findings; f++) {
                    if (rnd.nextInt(3) == 0) {
                        removes[s].set(f);
                    }
                }
            }
            HittingSet h = new HittingSet(cost, sets, removes, findings, 1_000_000);
            HittingSet.Choice c = h.solve();
            String where = "instance " + i;
            assertTrue(c.exact(), where);
            BitSet want = new BitSet();
            want.set(0, findings);
            want.andNot(h.unremovable());
            double brute = brute(h, removes, want, setCount);
            assertEquals(brute, c.price(), 1e-9, where + ": chose " + c.sets());
            BitSet chosen = new BitSet();
            c.sets().forEach(chosen::set);
            assertEquals(c.price(), h.price(chosen), 1e-9, where + ": the price is the union's");
            assertTrue(covers(c.sets(), removes, want), where + ": " + c.sets() + " leaves a finding");
            if (h.price(h.greedy((BitSet) want.clone())) > c.price() + 1e-9) {
                beatsGreedy++;
            }
        }
        System.out.printf("hitting set: %d instances, %d sets sharing elements, exact cheaper than greedy on %d%n",
                INSTANCES, shared, beatsGreedy);
        assertTrue(beatsGreedy > 0, "no instance where greedy is not the cheapest: the check proves little");
        assertTrue(shared > INSTANCES, "too few sets share elements");
    }

    @Test
    void anElementSharedBySetsIsPaidOnce() {
        // findings 0 and 1; set 0 = {a} removes 0, set 1 = {a, b} removes 1, set 2 = {c} removes both
        // {a} + {a, b} costs a + b = 2 + 0.5; {c} costs 3: sharing a makes the pair cheaper
        double[] cost = {2, 0.5, 3};
        int[][] sets = {{0}, {0, 1}, {2}};
        BitSet[] removes = {bits(0), bits(1), bits(0, 1)};
        HittingSet.Choice c = new HittingSet(cost, sets, removes, 2, 1000).solve();
        assertEquals(List.of(0, 1), c.sets());
        assertEquals(2.5, c.price(), 1e-9);
        assertTrue(c.exact());
    }

    @Test
    void greedyIsBeatenWhereTheExactSearchIsNot() {
        // findings 0..3: set 0 removes all four for 4.4 (1.1 a finding), sets 1 and 2 remove 0,1 and 2,3 for 2 each
        // (1.0), set 3 removes 0,1,2 for 2.7 (0.9): greedy takes set 3, then set 2 for finding 3 (4.7); exact: 1 + 2 (4)
        double[] cost = {4.4, 2, 2, 2.7};
        int[][] sets = {{0}, {1}, {2}, {3}};
        BitSet[] removes = {bits(0, 1, 2, 3), bits(0, 1), bits(2, 3), bits(0, 1, 2)};
        HittingSet h = new HittingSet(cost, sets, removes, 4, 1000);
        BitSet all = bits(0, 1, 2, 3);
        assertEquals(4.7, h.price(h.greedy(all)), 1e-9);
        HittingSet.Choice c = h.solve();
        assertEquals(List.of(1, 2), c.sets());
        assertEquals(4.0, c.price(), 1e-9);
    }

    @Test
    void anUnremovableFindingIsLeftOutNotFailed() {
        BitSet[] removes = {bits(0)};
        HittingSet h = new HittingSet(new double[] {1}, new int[][] {{0}}, removes, 2, 1000);
        assertEquals(bits(1), h.unremovable());
        assertEquals(List.of(0), h.solve().sets());
    }

    @Test
    void budgetExhaustedIsNotExactButStillCovers() {
        Random rnd = new Random(7);
        int findings = 12;
        int setCount = 40;
        double[] cost = new double[setCount];
        int[][] sets = new int[setCount][];
        BitSet[] removes = new BitSet[setCount];
        for (int s = 0; s < setCount; s++) {
            cost[s] = 1 + rnd.nextInt(10) * 0.1;
            sets[s] = new int[] {s};
            removes[s] = new BitSet();
            removes[s].set(rnd.nextInt(findings));
            removes[s].set(rnd.nextInt(findings));
        }
        BitSet all = new BitSet();
        all.set(0, findings);
        HittingSet.Choice c = new HittingSet(cost, sets, removes, findings, 3).solve();
        assertFalse(c.exact(), "3 nodes cannot prove 12 findings' cover the cheapest");
        assertTrue(covers(c.sets(), removes, all), "the best found (greedy's at worst) still removes everything");
        HittingSet.Choice full = new HittingSet(cost, sets, removes, findings, 10_000_000).solve();
        assertTrue(full.exact());
        assertTrue(full.price() <= c.price() + 1e-9);
    }

    private static double brute(HittingSet h, BitSet[] removes, BitSet want, int setCount) {
        double best = Double.POSITIVE_INFINITY;
        for (int mask = 0; mask < 1 << setCount; mask++) {
            BitSet chosen = BitSet.valueOf(new long[] {mask});
            BitSet covered = new BitSet();
            chosen.stream().forEach(s -> covered.or(removes[s]));
            BitSet left = (BitSet) want.clone();
            left.andNot(covered);
            if (left.isEmpty()) {
                best = Math.min(best, h.price(chosen));
            }
        }
        return best;
    }

    private static boolean covers(List<Integer> chosen, BitSet[] removes, BitSet want) {
        BitSet left = (BitSet) want.clone();
        for (int s : chosen) {
            left.andNot(removes[s]);
        }
        return left.isEmpty();
    }

    private static BitSet bits(int... on) {
        BitSet b = new BitSet();
        for (int i : on) {
            b.set(i);
        }
        return b;
    }
}
