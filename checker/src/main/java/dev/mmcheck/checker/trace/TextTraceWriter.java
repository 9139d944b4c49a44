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
 * its site. Thread and address names must be valid text-trace names. Not thread-safe.
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
            b.append(symbols.threadName(thread)).append(' ').append(k.label());
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

    private static void site(StringBuilder b, Site s) {
        b.append(' ').append(s.file().replace(' ', '_')).append(':').append(Math.max(0, s.line()));
        if (!s.method().isEmpty()) {
            b.append(' ').append(s.className().isEmpty() ? "_" : s.className()).append('.').append(s.method());
        }
    }
}
