package dev.mmcheck.checker.history;

import java.util.List;

/**
 * The verdict for one model. {@code stage} names what decided it: "CC", "CCv", "CM", "CCM" (SC) or
 * "wCCM" (TSO) when the polynomial check already fails, "time order" when a cycle needs the recorded
 * times, "search" when store orders had to be enumerated (or "program order" for the plain enumeration's
 * own pre-check). A consistent verdict carries a witness: the store order of every variable and, for SC,
 * a total order of all operations. An inconsistent one carries an explanation. {@code search} is null
 * when the search did not run.
 */
public record Verdict(Model model, Outcome outcome, boolean timed, String stage, List<int[]> storeOrder,
        int[] totalOrder, Explanation explanation, SearchStats search) {

    /** The three possible outcomes; UNKNOWN only when a search budget ran out. */
    public enum Outcome {
        /** Some witness exists. */
        CONSISTENT,
        /** No witness exists. */
        INCONSISTENT,
        /** The search stopped at its budget before deciding. */
        UNKNOWN
    }

    /** Whether the history is consistent with the model. */
    public boolean consistent() {
        return outcome == Outcome.CONSISTENT;
    }
}
