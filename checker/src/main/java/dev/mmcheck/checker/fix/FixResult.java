package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The fewest-cost changes that remove every finding of a run, and the replay that proves it (docs/fix.md).
 *
 * @param models     the models the run was replayed under: those that reported
 * @param findings   the run's findings this search addressed (store-buffer and access-mode findings)
 * @param cycles     the run's serializability findings, which no access-mode change removes: left to the user
 * @param changes    the changes chosen, dearest first
 * @param remaining  the findings the replay with every change made still has (empty when the proof holds)
 * @param candidates how many distinct candidate sets were tried, each by one replay
 * @param exact      whether the set is proven the cheapest of the candidates' combinations (else the search's
 *                   budget ran out and it is the best found, no worse than greedy's)
 * @param rounds     rounds of search: a second one when the first's choice left findings the first replay did not
 *                   show (then exactness is per round)
 * @param replays    replays of a run made in all
 * @param runs       how many runs were fixed together (their findings are removed all at once)
 */
public record FixResult(Set<Analysis> models, List<Finding> findings, List<Finding> cycles, List<Planned> changes,
        List<Finding> remaining, int candidates, boolean exact, int rounds, long replays, int runs) {

    /**
     * One change chosen.
     *
     * @param change     what to write and where
     * @param executions how many times the run executed what it changes
     * @param cost       its price: the edit's, plus the executions times its kind's weight
     * @param edit       the edit's price: 1 for a line written, 0.5 for a mode changed in place, 2 for a mode given to
     *                   a plain access (a VarHandle to declare)
     * @param removes    the keys of the findings it was chosen for (those a set it belongs to removes)
     * @param back       how many findings the replay without it (every other change made) has: at least 1 when the
     *                   set is minimal
     */
    public record Planned(Change change, long executions, double cost, double edit, List<String> removes, int back) {
    }

    /** Whether the replay with every change made has no finding, and leaving any one out brings one back. */
    public boolean proven() {
        if (!remaining.isEmpty()) {
            return false;
        }
        for (Planned p : changes) {
            if (p.back() == 0) {
                return false;
            }
        }
        return true;
    }

    /** The total price of the changes. */
    public double cost() {
        double c = 0;
        for (Planned p : changes) {
            c += p.cost();
        }
        return c;
    }

    /**
     * The result as a user reads it: one change per line as {@code File.java:LINE: what to write}, then the proof;
     * nothing but a line saying so when the run had no finding.
     */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        String names = String.join(", ", models.stream().map(a -> a.option()).toList());
        if (findings.isEmpty()) {
            out.add("no finding to remove" + (cycles.isEmpty() ? "" : " by an access-mode change (" + cycles.size()
                    + " serializability finding" + plural(cycles.size()) + ": see below)"));
        } else {
            out.add("the fewest changes that remove every finding of " + these() + " (" + findings.size() + " finding"
                    + plural(findings.size()) + " under " + names + "): " + changes.size() + " change"
                    + plural(changes.size()));
            for (Planned p : changes) {
                out.add("  " + p.change().line());
                String per = p.change().kind() == Change.Kind.VOLATILE_FIELD
                        ? (p.executions() == 1 ? " access" : " accesses") + ": stores x 1, loads x 0.1"
                        : " execution" + plural(p.executions()) + " x " + format(p.change().kind().weight());
                out.add("      cost " + format(p.cost()) + " (" + p.executions() + per + ", +"
                        + format(p.edit()) + " for the edit); removes "
                        + p.removes().size() + " finding" + plural(p.removes().size()) + "; left out, "
                        + p.back() + " finding" + plural(p.back()) + " come" + (p.back() == 1 ? "s" : "") + " back");
            }
            if (remaining.isEmpty()) {
                out.add("proof by replay under " + names + ": with these changes " + these() + (runs == 1 ? " has" : " have")
                        + " 0 findings"
                        + (changes.size() > 1 ? "; without any one of them at least 1 comes back (the set is minimal)"
                                : changes.size() == 1 ? "; without it, " + changes.get(0).back() : ""));
            } else {
                out.add("NOT PROVEN: with these changes the replay still has " + remaining.size() + " finding"
                        + plural(remaining.size()) + " that no candidate removed:");
                for (Finding f : remaining) {
                    out.add("  " + f.key());
                }
            }
            out.add("chosen among " + candidates + " candidate set" + plural(candidates) + ", each tried by a replay ("
                    + replays + " replays in all); " + (exact ? "the cheapest combination of them (exact search)"
                            : "the search's budget ran out: the best found, within greedy's bound")
                    + (rounds > 1 ? "; " + rounds + " rounds" : ""));
        }
        if (!cycles.isEmpty()) {
            out.add("not addressed: " + cycles.size() + " serializability finding" + plural(cycles.size())
                    + " (methods declared atomic interleave): no access mode makes a method atomic; a lock or a "
                    + "single compare-and-set does");
        }
        return out;
    }

    private String these() {
        return runs == 1 ? "this run" : "these " + runs + " runs";
    }

    private static String plural(long n) {
        return n == 1 ? "" : "s";
    }

    static String format(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
