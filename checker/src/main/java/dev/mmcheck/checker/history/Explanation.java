package dev.mmcheck.checker.history;

import java.util.List;

/**
 * Why a history is inconsistent: either one cycle that no witness can avoid ({@code cycle}, with
 * {@code claim} saying what it shows), or, when the search had to try store orders, one case per choice
 * it could make at a point ({@code cases}), each refuted in turn. {@code cycle} is null for a case split
 * and {@code cases} empty for a single cycle; a case may also say it was refuted only by further search.
 */
public record Explanation(String claim, List<Edge> cycle, List<Explanation> cases) {

    /** Number of cycles in this explanation, counting all cases. */
    public int cycles() {
        int c = cycle == null ? 0 : 1;
        for (Explanation e : cases) {
            c += e.cycles();
        }
        return c;
    }
}
