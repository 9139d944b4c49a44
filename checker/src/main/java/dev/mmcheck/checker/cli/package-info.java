/**
 * The command line ({@code Main}, picocli): {@code replay} and {@code convert} of trace files, {@code merge} of reports,
 * and {@code check-history}.
 *
 * <p>Rules of this package: it is the top of the checker and may use every other package; nothing uses it back; bad
 * input ({@code UsageException}, a malformed file) is one clear line and a non-zero exit, never a stack trace; the exit
 * statuses are the ones docs/user-guide.md lists.
 */
package dev.mmcheck.checker.cli;
