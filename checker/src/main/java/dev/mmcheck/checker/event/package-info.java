/**
 * The event stream's vocabulary: event kinds ({@code EventKind}, {@code Codes}), sites and their access modes
 * ({@code Site}, {@code SiteModes}), the names of ids ({@code Names}, {@code Symbols}), and the engine's per-event
 * memory ({@code EventWindow} for report paths, {@code LastEvents}, {@code EventBuffer}).
 *
 * <p>Rules of this package: it is the bottom of the checker and uses nothing of mmcheck, so that every other package,
 * the agent's included, can speak it; events are ints (kind, thread, address, site), never objects per event, and
 * nothing here names anything until a report asks ({@code Names}).
 */
package dev.mmcheck.checker.event;
