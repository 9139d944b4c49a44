package dev.mmcheck.agent.rewrite;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.result.Violation;
import dev.mmcheck.runtime.Kinds;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Feeds the events rewritten code logged ({@link Rewritten}) to the checker's TSO and PSO monitors, thread by thread
 * in the order a test chooses (an interleaving of the real run's events, as the agent's merge could take them):
 * what the agent's model of a JDK call makes of a program, end to end, without a child JVM. Addresses are (object,
 * slot) by identity, as the agent's heap gives them; events with no object (fences) have none.
 */
final class Replay {

    private final Map<Object, Map<Integer, Integer>> addresses = new IdentityHashMap<>();
    private final Checker checker;

    Replay(Rewritten rewritten) {
        checker = new Checker(new Names() {
            @Override
            public String threadName(int id) {
                return "T" + id;
            }

            @Override
            public String addressName(int id) {
                return "a" + id;
            }

            @Override
            public long addressShape(int id) {
                return id; // finer than the field: every address its own
            }

            @Override
            public Site siteOf(int id) {
                return rewritten.sites.get(id);
            }
        }, Checker.Config.defaults().withAnalyses(EnumSet.of(Analysis.TSO, Analysis.PSO))
                .withMonitors(MonitorConfig.defaults()).withAutoSerializability(false));
    }

    /** Feeds {@code events} as thread {@code thread}'s next events. */
    Replay feed(int thread, List<Rewritten.Ev> events) {
        for (Rewritten.Ev e : events) {
            int operand = -1;
            if (e.object() != null && e.kind() != Kinds.THREAD_START && e.kind() != Kinds.THREAD_JOIN) {
                Map<Integer, Integer> slots = addresses.computeIfAbsent(e.object(), o -> new java.util.HashMap<>());
                operand = slots.computeIfAbsent(e.slot(), s -> addresses.values().stream().mapToInt(Map::size).sum());
            }
            checker.event(e.kind(), thread, operand, e.site());
        }
        return this;
    }

    /** The violations reported so far. */
    List<Violation> violations() {
        return new ArrayList<>(checker.violations());
    }
}
