package dev.mmcheck.checker.bench;

import dev.mmcheck.checker.engine.Checker;
import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.report.JsonReport;
import dev.mmcheck.checker.serial.SerialConfig;
import dev.mmcheck.checker.serial.TsoSerializability;

import java.io.IOException;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;

/**
 * Regression digest of the serializability checks on long synthetic streams, for optimisations that
 * must not change any verdict: prints, per stream, a SHA-256 of the whole JSON report (every cycle, in
 * order, and the notes), the notes and the TSO check's counters. Run before and after a change and diff the files:
 * {@code java -cp CP dev.mmcheck.checker.bench.SerialDigest out.txt [streams]} (CP as in
 * bench/checker-throughput.sh). The oracles check small traces; this checks that long ones, with
 * bounds reached and the pruning and collection at work, are reported exactly as before.
 */
public final class SerialDigest {

    private SerialDigest() {
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the digest to {@code args[0]}; {@code args[1]} streams (default 60). */
    public static void main(String[] args) throws IOException {
        int streams = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        try (PrintStream out = new PrintStream(new FileOutputStream(args[0]), false, "UTF-8")) {
            for (int i = 0; i < streams; i++) {
                int threads = 2 + i % 3;
                int elements = new int[] {4, 16, 256}[i / 3 % 3];
                int atomic = new int[] {0, 60, 95}[i / 9 % 3];
                boolean shortcut = i / 27 % 2 == 0;
                int events = 20_000 + 7919 * i % 40_000;
                Symbols symbols = new Symbols();
                EventBuffer b = SerialStream.generate(symbols, threads, elements, events, atomic, 1000 + i);
                SerialConfig serial = SerialConfig.defaults().withFencedShortcut(shortcut).withSearchSteps(2_000);
                Checker c = new Checker(symbols, Checker.Config.defaults()
                        .withAnalyses(EnumSet.of(Analysis.TSO, Analysis.PSO, Analysis.SCSER, Analysis.TSOSER))
                        .withSerial(serial));
                b.replay(c);
                TsoSerializability tso = c.tsoSerializability();
                out.printf("stream %d: threads %d elements %d atomic %d shortcut %b events %d%n", i, threads,
                        elements, atomic, shortcut, events);
                out.printf("tsoser: transactions %d cycles %d searches %d cut %d live %d%n", tso.transactions(),
                        tso.cycles(), tso.searches(), tso.searchesCut(), tso.live());
                String json = JsonReport.toString("stream " + i, true, c.result());
                out.printf("report: %d chars, %d violations, sha-256 %s%n", json.length(), c.result().violations().size(),
                        sha256(json));
                out.println(c.result().notes());
            }
        }
    }
}
