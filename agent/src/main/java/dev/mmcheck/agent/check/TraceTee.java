package dev.mmcheck.agent.check;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Symbols;
import dev.mmcheck.checker.trace.BinaryTraceWriter;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Streams the checker's event stream to a binary trace file ({@code trace=FILE}), so that a run can
 * be replayed offline with {@code mmcheck replay}. Names are made valid text-trace names, so that
 * {@code mmcheck convert} can turn the trace into text. Checker thread only.
 */
public final class TraceTee implements EventSink, Closeable {

    private final Symbols symbols = new Symbols();
    private final Map<Integer, Integer> threads = new HashMap<>();
    private final Names names;
    private final BinaryTraceWriter writer;

    public TraceTee(Path file, Names names) throws IOException {
        this.names = names;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.writer = new BinaryTraceWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), symbols);
    }

    @Override
    public void event(int kind, int thread, int operand, int site) {
        EventKind k = EventKind.of(kind);
        int t = k == EventKind.ADDRESS_DEAD ? 0 : thread(thread);
        int op = switch (k.operand()) {
            case ADDRESS -> symbols.address(clean(names.addressName(operand)));
            case THREAD -> thread(operand);
            case NONE -> -1;
        };
        writer.event(kind, t, op, site >= 0 ? symbols.site(names.siteOf(site)) : -1);
    }

    private int thread(int serial) {
        return threads.computeIfAbsent(serial, s -> symbols.thread(clean(names.threadName(s)) + "#" + s));
    }

    /** A valid text-trace name: letters, digits and {@code _ $ . # [ ] @ -}, starting with no digit. */
    static String clean(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            b.append(Character.isLetterOrDigit(c) || "_$.#[]@-".indexOf(c) >= 0 ? c : '_');
        }
        if (b.length() == 0 || !(Character.isLetter(b.charAt(0)) || b.charAt(0) == '_' || b.charAt(0) == '$')) {
            b.insert(0, '_');
        }
        return b.toString();
    }

    /** Writes what is buffered (whole chunks). */
    public void flush() throws IOException {
        writer.flush();
    }

    /** Closes the file once: the fix at exit (fix=true) closes it before the outputs do. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            writer.close();
        }
    }

    private boolean closed;
}
