package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;

import java.util.List;

/**
 * How the loop sees the findings so far, grouped and worded as the report does: given by {@code AgentStart}, so that
 * no report formatting is done inside the loop. Called on the checker thread only.
 */
@FunctionalInterface
public interface FindingsView {

    /** The findings so far in {@code checker}, grouped as the report groups them, in the report's order. */
    List<? extends Shown> findings(Checker checker);

    /** One finding as the loop sees it. */
    interface Shown {
        /** The finding's key, the same over the run. */
        String key();

        /** Its summary paragraph as the {@code n}-th finding seen during test {@code test}, which it is now marked with. */
        String describe(int n, String test);
    }
}
