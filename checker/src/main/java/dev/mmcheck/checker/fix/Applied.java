package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.result.Finding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * A fix made to another run: the changes chosen on one run, replayed on another run of the same program (the changes
 * name instructions, which every run of the program shares), and the findings it still has (docs/fix.md, "Other
 * runs"). A fix proven on one run removes that run's findings; other runs may reach races it did not.
 */
public final class Applied {

    private Applied() {
    }

    /** The findings (cycles left out) of {@code run} replayed under {@code analyses} with {@code changes} made. */
    public static List<Finding> findings(EventBuffer run, Symbols symbols, Set<Analysis> analyses,
            Collection<Change> changes) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : replayed(run, symbols, analyses, changes)) {
            if (!f.isCycle()) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Every finding, cycles too, of {@code run} replayed under {@code analyses} (the serializability checks only when
     * named) with {@code changes} made: the one replay both this class and {@link FixSearch} make.
     */
    static List<Finding> replayed(EventBuffer run, Symbols symbols, Set<Analysis> analyses,
            Collection<Change> changes) {
        Checker checker = new Checker(symbols, Checker.Config.defaults().withAnalyses(analyses)
                .withAutoSerializability(false));
        Rewrite.replay(run, symbols, changes, checker);
        return Finding.group(checker.result().violations());
    }
}
