/**
 * The robustness analysis for Java's access modes (issue 32): a monitor after RSAN (Margalit,
 * Kokologiannakis, Itzhaky, Lahav, PLDI 2025) that decides, from one sequentially consistent run, at which
 * events some execution of the program under the model (RC20 with Java's modes mapped onto it,
 * docs/jmm-model.md) is not sequentially consistent.
 *
 * <p>Rules of this package:
 * <ul>
 *   <li>It uses only {@code event} and {@code finding}: {@link dev.mmcheck.checker.jmm.RobustnessMonitor} takes
 *       events through its own small API and knows nothing of the checker;
 *       {@link dev.mmcheck.checker.jmm.JmmAnalyzer} reads the stream's kinds and site modes into it and hands its
 *       violations on as findings.</li>
 *   <li>Every report is genuine: it names an execution of the model that the brute-force oracle of the
 *       tests (oracle.RaOracle) confirms is consistent and not SC, at every step of every interleaving of
 *       random programs (volatile read with the leading fence, where the monitor is exactly the model;
 *       the default volatile reading is checked against volatile as C11's seq_cst). Where exactness needs
 *       what the stream does not carry (a compare-and-set's values), the check is the one that cannot
 *       report falsely.</li>
 *   <li>Each Java mode maps to a model mode at least as strong as Java's (docs/jmm-model.md says what
 *       that can miss): strengthening loses reports, weakening would invent them.</li>
 *   <li>No allocation per event on the common path; a report allocates its record.</li>
 * </ul>
 */
package dev.mmcheck.checker.jmm;
