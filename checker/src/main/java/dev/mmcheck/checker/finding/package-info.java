/**
 * What an analysis is and how it reports: {@code Analyzer} (one event at a time), {@code FindingSink} (a violation,
 * in ids), {@code Analysis} (the analyses there are) and {@code Note} (what a run says about itself).
 *
 * <p>Rules of this package: it uses nothing of mmcheck; analyses report through {@code FindingSink} with ids only
 * (thread slot, kind, address, site, event number), never names, so that they can be tested on hand-written streams
 * and the report side alone decides how a finding reads.
 */
package dev.mmcheck.checker.finding;
