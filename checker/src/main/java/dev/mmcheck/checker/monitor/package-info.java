/**
 * The store-buffer monitors: {@code TsoMonitor} and {@code PsoMonitor} after Burnim, Sen and Stergiou (Figs. 4-5) with
 * Java's PSO generations, {@code SoberMonitor} after Burckhardt and Musuvathi, their store buffers and per-address
 * words, and {@code PartlyLogged} for the stores a sampled or solo run did not log.
 *
 * <p>Rules of this package: it uses {@code event}, {@code clock} and {@code finding} only; every report is genuine
 * (each monitor has a brute-force oracle and a differential test over random programs, and a change of algorithm comes
 * with a mutation that test catches); no allocation per event in the steady state ({@code CheckerTest} measures it);
 * violations leave through {@code FindingSink} in ids.
 */
package dev.mmcheck.checker.monitor;
