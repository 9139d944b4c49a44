/**
 * Trace files (docs/trace-format.md): the text format for hand-written traces and the binary format the agent's
 * {@code trace=} writes, each with a reader and a writer, and {@code TraceFiles} to tell them apart.
 *
 * <p>Rules of this package: it uses {@code event} only; a reader turns every malformed input into a
 * {@code TraceFormatException} naming the line or offset, never another exception; a format change bumps the binary
 * version and keeps reading the older ones it documents.
 */
package dev.mmcheck.checker.trace;
