package dev.mmcheck.checker.fix;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The cheapest choice of candidate sets that removes every finding: a weighted set cover whose price is that of the
 * union of the chosen sets' elements, each element paid once however many chosen sets share it (docs/fix.md,
 * "The cheapest set").
 *
 * <p>Exact by branch and bound: take the uncovered finding with the fewest sets that remove it, try each of them,
 * cheapest addition first, and prune a branch once its price plus a lower bound on what is left (the dearest of the
 * uncovered findings' cheapest additions) reaches the best found; the greedy choice below seeds the best. The search
 * is exponential in the worst case; it stops after a budget of nodes and keeps the best found, which is then only
 * known to be within the greedy bound. Greedy: repeatedly the set with the lowest price per newly removed finding,
 * within a factor H(n) = 1 + 1/2 + ... + 1/n of the cheapest for n findings when the sets share no element (the
 * classic bound for weighted set cover; Chvatal 1979).
 */
final class HittingSet {

    /** What was chosen: indices of sets, the price, whether it is proven the cheapest, and nodes searched. */
    record Choice(List<Integer> sets, double price, boolean exact, long nodes) {
    }

    private final double[] cost;       // per element
    private final int[][] sets;        // per set: its elements
    private final BitSet[] removes;    // per set: the findings it removes
    private final int findings;
    private final long budget;
    private final List<List<Integer>> setsOf = new ArrayList<>();   // per finding: the sets that remove it

    private double best;
    private BitSet bestSets;
    private long nodes;
    private boolean stopped;

    /**
     * A problem over {@code findings} findings: set i consists of elements {@code sets[i]} and removes the findings
     * {@code removes[i]}; element j costs {@code cost[j]}; the search visits at most {@code budget} nodes.
     */
    HittingSet(double[] cost, int[][] sets, BitSet[] removes, int findings, long budget) {
        this.cost = cost.clone();
        this.sets = sets.clone();
        this.removes = removes.clone();
        this.findings = findings;
        this.budget = budget;
        for (int f = 0; f < findings; f++) {
            List<Integer> of = new ArrayList<>();
            for (int s = 0; s < sets.length; s++) {
                if (removes[s].get(f)) {
                    of.add(s);
                }
            }
            setsOf.add(of);
        }
    }

    /** The findings no set removes: left out of the cover. */
    BitSet unremovable() {
        BitSet none = new BitSet();
        for (int f = 0; f < findings; f++) {
            if (setsOf.get(f).isEmpty()) {
                none.set(f);
            }
        }
        return none;
    }

    /** The cheapest choice that removes every removable finding. */
    Choice solve() {
        BitSet todo = new BitSet();
        todo.set(0, findings);
        todo.andNot(unremovable());
        BitSet greedy = greedy((BitSet) todo.clone());
        bestSets = greedy;
        best = price(greedy);
        search(todo, new BitSet(), new BitSet(), 0);
        List<Integer> chosen = new ArrayList<>();
        bestSets.stream().forEach(chosen::add);
        return new Choice(List.copyOf(chosen), best, !stopped, nodes);
    }

    /** The greedy choice: the lowest price per newly removed finding first. */
    BitSet greedy(BitSet todo) {
        BitSet chosen = new BitSet();
        BitSet elements = new BitSet();
        while (!todo.isEmpty()) {
            int pick = -1;
            double ratio = Double.POSITIVE_INFINITY;
            for (int s = 0; s < sets.length; s++) {
                BitSet gain = (BitSet) removes[s].clone();
                gain.and(todo);
                if (gain.isEmpty()) {
                    continue;
                }
                double r = added(s, elements) / gain.cardinality();
                if (r < ratio) {
                    ratio = r;
                    pick = s;
                }
            }
            chosen.set(pick);
            for (int e : sets[pick]) {
                elements.set(e);
            }
            todo.andNot(removes[pick]);
        }
        return chosen;
    }

    private void search(BitSet todo, BitSet chosenSets, BitSet elements, double price) {
        if (++nodes > budget) {
            stopped = true;
            return;
        }
        if (todo.isEmpty()) {
            if (price < best - 1e-9) {
                best = price;
                bestSets = (BitSet) chosenSets.clone();
            }
            return;
        }
        // the finding with the fewest sets left to remove it; the bound: the dearest cheapest addition of any
        int pickFinding = -1;
        double bound = 0;
        for (int f = todo.nextSetBit(0); f >= 0; f = todo.nextSetBit(f + 1)) {
            double cheapest = Double.POSITIVE_INFINITY;
            for (int s : setsOf.get(f)) {
                cheapest = Math.min(cheapest, added(s, elements));
            }
            bound = Math.max(bound, cheapest);
            if (pickFinding < 0 || setsOf.get(f).size() < setsOf.get(pickFinding).size()) {
                pickFinding = f;
            }
        }
        if (price + bound >= best - 1e-9) {
            return;
        }
        List<Integer> order = new ArrayList<>(setsOf.get(pickFinding));
        order.sort((a, b) -> Double.compare(added(a, elements), added(b, elements)));
        for (int s : order) {
            double add = added(s, elements);
            if (price + add >= best - 1e-9) {
                break;
            }
            BitSet newElements = (BitSet) elements.clone();
            for (int e : sets[s]) {
                newElements.set(e);
            }
            BitSet rest = (BitSet) todo.clone();
            rest.andNot(removes[s]);
            chosenSets.set(s);
            search(rest, chosenSets, newElements, price + add);
            chosenSets.clear(s);
            if (stopped) {
                return;
            }
        }
    }

    /** What set {@code s} adds to the price of {@code elements}. */
    private double added(int s, BitSet elements) {
        double p = 0;
        for (int e : sets[s]) {
            if (!elements.get(e)) {
                p += cost[e];
            }
        }
        return p;
    }

    /** The price of the union of {@code chosen}'s elements. */
    double price(BitSet chosen) {
        BitSet elements = new BitSet();
        for (int s = chosen.nextSetBit(0); s >= 0; s = chosen.nextSetBit(s + 1)) {
            for (int e : sets[s]) {
                elements.set(e);
            }
        }
        double p = 0;
        for (int e = elements.nextSetBit(0); e >= 0; e = elements.nextSetBit(e + 1)) {
            p += cost[e];
        }
        return p;
    }
}
