package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Runs the production {@link Checker} on every SC interleaving of a straight-line program (each
 * operation one event, each thread in program order) and records, per analysis, whether it reported
 * on at least one interleaving, and the first interleaving it reported on.
 */
public final class MonitorRuns {

    private final Program program;
    private final Set<Analysis> analyses;
    private final MonitorConfig config;
    private final Symbols symbols = new Symbols();
    private final int[] siteOf;
    private final int[][] ops;  // [thread][i] = global ref
    private final Map<Analysis, int[]> firstReport = new EnumMap<>(Analysis.class);
    private long interleavings;

    private MonitorRuns(Program program, Set<Analysis> analyses, MonitorConfig config) {
        this.program = program;
        this.analyses = analyses;
        this.config = config;
        int n = program.threads().size();
        for (int t = 0; t < n; t++) {
            symbols.thread("T" + t);
        }
        for (int a = 0; a < program.addresses(); a++) {
            symbols.address("a" + a);
        }
        siteOf = new int[program.size()];
        ops = new int[n][];
        int g = 0;
        for (int t = 0; t < n; t++) {
            ops[t] = new int[program.threads().get(t).size()];
            for (int i = 0; i < ops[t].length; i++) {
                ops[t][i] = g;
                siteOf[g] = symbols.site(Site.at("T" + t, i + 1));
                g++;
            }
        }
    }

    /** Runs every interleaving (stopping once every analysis has reported). */
    public static MonitorRuns run(Program program, Set<Analysis> analyses, MonitorConfig config) {
        MonitorRuns r = new MonitorRuns(program, analyses, config);
        int[] pc = new int[program.threads().size()];
        r.enumerate(pc, new int[program.size()], 0);
        return r;
    }

    /** Whether {@code a} reported on some interleaving. */
    public boolean reported(Analysis a) {
        return firstReport.containsKey(a);
    }

    /** The first interleaving (as a sequence of thread numbers) on which {@code a} reported, or null. */
    public int[] reportedOn(Analysis a) {
        return firstReport.get(a);
    }

    /** Interleavings run. */
    public long interleavings() {
        return interleavings;
    }

    private boolean enumerate(int[] pc, int[] order, int depth) {
        if (depth == order.length) {
            runOne(order);
            return firstReport.size() == analyses.size();
        }
        for (int t = 0; t < pc.length; t++) {
            if (pc[t] < ops[t].length) {
                order[depth] = t;
                pc[t]++;
                boolean stop = enumerate(pc, order, depth + 1);
                pc[t]--;
                if (stop) {
                    return true;
                }
            }
        }
        return false;
    }

    private void runOne(int[] order) {
        interleavings++;
        Set<Analysis> todo = EnumSet.copyOf(analyses);
        todo.removeAll(firstReport.keySet());
        Checker checker = new Checker(symbols, new Checker.Config(todo, config, 64, 16));
        int[] pc = new int[ops.length];
        for (int t : order) {
            int g = ops[t][pc[t]++];
            Program.Op op = program.threads().get(t).get(pc[t] - 1);
            checker.event(op.kind().code(), t, op.address(), siteOf[g]);
        }
        for (Analysis a : todo) {
            if (!checker.result().violationsOf(a).isEmpty()) {
                firstReport.put(a, order.clone());
            }
        }
    }
}
