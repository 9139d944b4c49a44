/**
 * Vector clocks for the happens-before relation of the stream ({@code VectorClocks}), over dense thread slots.
 *
 * <p>Rules of this package: it uses nothing of mmcheck; clocks live in flat int arrays sized by the live thread slots
 * and grown, never allocated per event; the engine advances them after every analysis has seen the event, so that
 * analyses see the clocks as of the previous event.
 */
package dev.mmcheck.checker.clock;
