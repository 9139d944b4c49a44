package dev.mmcheck.checker.serial;

import dev.mmcheck.checker.monitor.Analysis;

import java.util.List;

/**
 * Receives the cycles a serializability check finds, in ids; the checker turns them into named,
 * deduplicated violations. Called on the checker thread, synchronously.
 */
@FunctionalInterface
public interface CycleSink {

    /** One event as the stream gave it: thread slot, kind code, operand (address or thread) and site. */
    record Ev(int thread, int kind, int operand, int site) {
    }

    /** One transaction: its thread slot, the site it begins at, and whether it is an atomic method's invocation. */
    record Tx(int thread, int site, boolean atomic) {
    }

    /** Edge from transaction {@code from} to {@code to} of the cycle (indices), for the report (see report.CycleEdge). */
    record Edge(int from, int to, String kind, Ev source, Ev target, String late) {
    }

    /** A cycle found by {@code analysis}: transactions in cycle order, edge i from transaction i to i + 1. */
    void cycle(Analysis analysis, List<Tx> transactions, List<Edge> edges, String advice);
}
