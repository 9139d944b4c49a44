package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.Violation;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the per-interleaving differential tests share: a program's operations named as sites
 * ({@code T<thread>:<index + 1>}), its SC interleavings, and reports read back as (store, access) pairs
 * of operation numbers (an operation's number is its thread's base plus its index).
 */
final class Interleavings {

    /** A reported pair: the operation numbers of the store and of the access. */
    record Pair(int store, int access) {
    }

    /** A program's symbols: its threads, addresses and one site per operation. */
    record Named(Symbols symbols, int[] siteOf, int[] base) {
    }

    private Interleavings() {
    }

    /** Names {@code p}'s threads, addresses and operations. */
    static Named name(Program p) {
        int n = p.threads().size();
        Symbols symbols = new Symbols();
        for (int t = 0; t < n; t++) {
            symbols.thread("T" + t);
        }
        for (int a = 0; a < p.addresses(); a++) {
            symbols.address("a" + a);
        }
        int[] base = new int[n + 1];
        int[] siteOf = new int[p.size()];
        for (int t = 0, g = 0; t < n; t++) {
            base[t] = g;
            for (int k = 0; k < p.threads().get(t).size(); k++, g++) {
                siteOf[g] = symbols.site(Site.at("T" + t, k + 1));
            }
        }
        base[n] = p.size();
        return new Named(symbols, siteOf, base);
    }

    /** The (store, access) pairs of {@code violations}. */
    static Set<Pair> pairs(List<Violation> violations, int[] base) {
        Set<Pair> out = new HashSet<>();
        for (Violation v : violations) {
            out.add(new Pair(ref(v.store().site(), base), ref(v.access().site(), base)));
        }
        return out;
    }

    /**
     * TSO and PSO (with {@code config}) on interleaving {@code order} of {@code p}, leaving out the
     * operations {@code drop} marks (by operation number).
     */
    static CheckResult check(Program p, Named named, int[] order, MonitorConfig config, boolean[] drop) {
        Checker checker = new Checker(named.symbols(), new Checker.Config(
                EnumSet.of(Analysis.TSO, Analysis.PSO), config, 64, 16));
        int[] pc = new int[p.threads().size()];
        for (int t : order) {
            int ref = named.base()[t] + pc[t];
            Program.Op op = p.threads().get(t).get(pc[t]++);
            if (!drop[ref]) {
                checker.event(op.kind().code(), t, op.address(), named.siteOf()[ref]);
            }
        }
        return checker.result();
    }

    private static int ref(Site site, int[] base) {
        return base[Integer.parseInt(site.file().substring(1))] + site.line() - 1;
    }

    /** Every SC interleaving of {@code p} (a thread number per operation), up to {@code max} of them. */
    static List<int[]> of(Program p, int max) {
        List<int[]> out = new ArrayList<>();
        enumerate(p, new int[p.threads().size()], new int[p.size()], 0, out, max);
        return out;
    }

    private static void enumerate(Program p, int[] pc, int[] order, int depth, List<int[]> out, int max) {
        if (out.size() >= max) {
            return;
        }
        if (depth == order.length) {
            out.add(order.clone());
            return;
        }
        for (int t = 0; t < pc.length; t++) {
            if (pc[t] < p.threads().get(t).size()) {
                order[depth] = t;
                pc[t]++;
                enumerate(p, pc, order, depth + 1, out, max);
                pc[t]--;
            }
        }
    }
}
