/**
 * {@code mmcheck check-history} (docs/history.md): recorded histories of reads with the values they saw, checked for SC
 * or TSO conformance by the gradual checker (the CC, CCv, CM, CCM and wCCM pre-checks, then a search over store orders
 * pruned by the operations' time intervals), and reading history files ({@code HistoryFiles}); the command line is
 * {@code cli.HistoryCommand}.
 *
 * <p>Rules of this package: it is apart from the event stream (it uses only the report's {@code Version}); a verdict
 * comes with its witness or its explanation; malformed input is a {@code HistoryFormatException} that the command turns
 * into one line and a non-zero exit.
 */
package dev.mmcheck.checker.history;
