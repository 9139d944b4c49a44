package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * Writes events in the text trace format that {@link TextTraceReader} reads, one per line, each with
 * its site, the site's access mode in the operation's word ({@link #word}). Thread and address names must be valid
 * text-trace names. Not thread-safe.
 */
public final class TextTraceWriter implements EventSink {

    private final Writer out;
    private final Symbols symbols;

    /** A writer to {@code out} resolving ids through {@code symbols}. */
    public TextTraceWriter(Writer out, Symbols symbols) {
        this.out = out;
        this.symbols = symbols;
    }

    @Override
    public void event(int kind, int thread, int operand, int site) {
        EventKind k = EventKind.of(kind);
        StringBuilder b = new StringBuilder();
        if (k == EventKind.ADDRESS_DEAD) {
            b.append("dead ").append(symbols.addressName(operand));
        } else {
            b.append(symbols.threadName(thread)).append(' ').append(word(k, site >= 0 ? symbols.siteOf(site).mode() : ""));
            if (k.operand() == EventKind.Operand.ADDRESS) {
                b.append(' ').append(symbols.addressName(operand));
            } else if (k.operand() == EventKind.Operand.THREAD) {
                b.append(' ').append(symbols.threadName(operand));
            }
            if (site >= 0) {
                Site s = symbols.siteOf(site);
                site(b, s);
                if (s.caller() != null) {
                    b.append(" via");
                    site(b, s.caller());
                }
            }
        }
        b.append('\n');
        try {
            out.write(b.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The word of an event of kind {@code k} at a site of mode {@code mode} ({@link Site#mode()}): the kind's label
     * when the mode is empty, else the word naming both ({@code load-acquire}, {@code cas-acquire-failed}, {@code
     * release-fence}...; docs/trace-format.md), and for a mode that has no word {@code LABEL:MODE}, which the reader
     * reads back too. {@link TextTraceReader#mode} is its inverse.
     */
    static String word(EventKind k, String mode) {
        if (mode.isEmpty()) {
            return k.label();
        }
        String w = switch (k) {
            case LOAD -> switch (mode) {
                case "volatile" -> "volatile-load";
                case "acquire" -> "load-acquire";
                case "opaque" -> "opaque-load";
                default -> null;
            };
            case STORE -> switch (mode) {
                case "opaque" -> "opaque-store";
                case "release" -> "release-fenced-store";
                default -> null;
            };
            case INTERLOCKED -> switch (mode) {
                case "acquire", "release", "plain", "failed", "acquire-failed", "release-failed", "plain-failed" ->
                        "cas-" + mode;
                case "optimistic-read", "validate", "write-lock" -> "juc-" + mode;
                default -> null;
            };
            case STORE_STORE_FENCE -> switch (mode) {
                case "release" -> "release-fence";
                case "storestore" -> "storestore-only-fence";
                default -> null;
            };
            case LOAD_FENCE -> switch (mode) {
                case "acquire" -> "acquire-fence";
                case "loadload" -> "loadload-fence";
                default -> null;
            };
            default -> null;
        };
        return w != null ? w : k.label() + ":" + mode;
    }

    private static void site(StringBuilder b, Site s) {
        b.append(' ').append(s.file().replace(' ', '_')).append(':').append(Math.max(0, s.line()));
        if (!s.method().isEmpty()) {
            b.append(' ').append(s.className().isEmpty() ? "_" : s.className()).append('.').append(s.method());
        }
    }
}
