package dev.mmcheck.checker.oracle;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.monitor.MonitorConfig;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.serial.SerialConfig;

import java.util.EnumSet;
import java.util.Set;

/** The production {@link Checker} on one {@link SerialTrace}: what each analysis reported. */
public record SerialRun(CheckResult result) {

    /** Runs {@code analyses} on {@code trace} with the serializability bounds {@code serial}. */
    public static SerialRun of(SerialTrace trace, Set<Analysis> analyses, SerialConfig serial) {
        Symbols symbols = new Symbols();
        for (int t = 0; t < trace.threads(); t++) {
            symbols.thread("T" + t);
        }
        for (int a = 0; a < trace.addresses(); a++) {
            symbols.address("a" + a);
        }
        int[] sites = new int[trace.events().size()];
        for (int i = 0; i < sites.length; i++) {
            sites[i] = symbols.site(Site.at("e", i + 1));
        }
        int[] txSites = new int[trace.atomicBlocks()];
        for (int i = 0; i < txSites.length; i++) {
            txSites[i] = symbols.site(new Site("Tx", "tx" + i, "tx", i + 1, -1));
        }
        Checker checker = new Checker(symbols, new Checker.Config(EnumSet.copyOf(analyses), MonitorConfig.defaults(),
                64, 16, false, serial, null));
        trace.feed(checker, sites, txSites);
        return new SerialRun(checker.result());
    }

    /** SC- and TSO-serializability, exact bounds, no shortcut. */
    public static SerialRun exact(SerialTrace trace) {
        return of(trace, EnumSet.of(Analysis.SCSER, Analysis.TSOSER), SerialConfig.exact());
    }

    /** Whether {@code a} reported anything. */
    public boolean reported(Analysis a) {
        return !result.violationsOf(a).isEmpty();
    }
}
