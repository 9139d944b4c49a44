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
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Streams the checker's event stream to a binary trace file ({@code trace=FILE}), so that a run can
 * be replayed offline with {@code mmcheck replay}. Names are made valid text-trace names, so that
 * {@code mmcheck convert} can turn the trace into text. With {@code %t} in the file's name, one trace per test
 * ({@link #endTest}): each test's file holds every event taken since the previous test's end was served, so its own
 * from its beginning, and each file is a trace of its own (its own names). Checker thread only.
 */
public final class TraceTee implements EventSink, Closeable {

    /** What {@code %t} becomes for the events after the last test's end (or of a run without tests). */
    static final String OUTSIDE = "outside-tests";

    private final Names names;
    private final Path pattern;  // the file, or, per test, its name with %t
    private final boolean perTest;
    private final Set<String> used = new HashSet<>();
    private Symbols symbols;
    private Map<Integer, Integer> threads;
    private BinaryTraceWriter writer;
    private Path current;
    private long written;  // events in the current file
    private int tests;

    /** A tee to {@code file}, or, with {@code %t} in its name, to one file per test. */
    public TraceTee(Path file, Names names) throws IOException {
        this.names = names;
        this.pattern = file.toAbsolutePath();
        this.perTest = perTest(file);
        Path parent = pattern.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        used.add(OUTSIDE); // the file being written: a test of that name gets -2, its trace never overwritten
        open(perTest ? named(OUTSIDE) : pattern);
    }

    /** Whether {@code file} asks for one trace per test: {@code %t} in its name. */
    public static boolean perTest(Path file) {
        return file.getFileName() != null && file.getFileName().toString().contains("%t");
    }

    private Path named(String test) {
        return pattern.resolveSibling(pattern.getFileName().toString().replace("%t", test));
    }

    private void open(Path file) throws IOException {
        current = file;
        symbols = new Symbols();
        threads = new HashMap<>();
        written = 0;
        writer = new BinaryTraceWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), symbols);
    }

    /**
     * Per test: test {@code test}'s end was served, so the events taken so far end its trace: the file is closed and
     * named after the test (a name seen before gets {@code -2}, {@code -3}...), and the next test's begins. Returns
     * the test's file, or null when the tee writes one file for the run (or could not write this one: then tracing
     * stops, and the run's trace output says so at exit, {@link #describe}).
     */
    public Path endTest(String test) {
        if (!perTest || closed) {
            return null;
        }
        String base = fileName(test);
        String name = base;
        for (int n = 2; !used.add(name); n++) {
            name = base + "-" + n;
        }
        try {
            writer.close();
            Path file = named(name);
            Files.move(current, file, StandardCopyOption.REPLACE_EXISTING);
            tests++;
            open(named(OUTSIDE));
            return file;
        } catch (IOException e) {
            failure = e;
            closed = true;
            return null;
        }
    }

    /** A test's name as a file name: {@code FlagsTest.plainFlags()} is {@code FlagsTest.plainFlags}. */
    static String fileName(String test) {
        String t = test.replace("()", "");
        StringBuilder b = new StringBuilder(t.length());
        for (int i = 0; i < t.length() && b.length() < 120; i++) {
            char c = t.charAt(i);
            boolean ok = Character.isLetterOrDigit(c) || c == '.' || c == '-';
            if (ok) {
                b.append(c);
            } else if (b.length() > 0 && b.charAt(b.length() - 1) != '_') {
                b.append('_');
            }
        }
        while (b.length() > 0 && (b.charAt(b.length() - 1) == '_' || b.charAt(b.length() - 1) == '.')) {
            b.setLength(b.length() - 1);
        }
        return b.length() == 0 ? "test" : b.toString();
    }

    /** What the tee wrote, for the run's output lines. After {@link #close}. */
    public String describe() {
        if (!perTest) {
            return "mmcheck: trace written to " + pattern;
        }
        return "mmcheck: " + tests + " per-test traces written to " + pattern.getParent() + " (" + pattern.getFileName()
                + (written > 0 ? "; events after the last test in " + named(OUTSIDE).getFileName() : "") + ")"
                + (failure == null ? "" : "; INCOMPLETE: tracing per test stopped: " + failure);
    }

    @Override
    public void event(int kind, int thread, int operand, int site) {
        if (closed) {
            return; // per test, after a file could not be written (describe() says so); else after the run's end
        }
        EventKind k = EventKind.of(kind);
        int t = k == EventKind.ADDRESS_DEAD ? 0 : thread(thread);
        int op = switch (k.operand()) {
            case ADDRESS -> symbols.address(clean(names.addressName(operand)));
            case THREAD -> thread(operand);
            case NONE -> -1;
        };
        writer.event(kind, t, op, site >= 0 ? symbols.site(names.siteOf(site)) : -1);
        written++;
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

    /**
     * Closes the file once: the fix at exit (fix=true) closes it before the outputs do. Per test, the events after the
     * last test's end stay in the {@code outside-tests} file, which is removed when there are none.
     */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            writer.close();
            if (perTest && written == 0) {
                Files.deleteIfExists(current);
            }
        }
    }

    private boolean closed;
    private IOException failure;
}
