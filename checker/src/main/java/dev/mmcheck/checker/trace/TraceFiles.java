package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Symbols;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens a trace file of either format, telling them apart by the binary magic. */
public final class TraceFiles {

    private TraceFiles() {
    }

    /**
     * What was read.
     *
     * @param format   "text" or "binary"
     * @param events   events delivered
     * @param complete false when a binary trace was cut short
     * @param note     why it is incomplete, or empty
     */
    public record Summary(String format, long events, boolean complete, String note) {
    }

    /** Reads {@code file}, defining names in {@code symbols} and feeding its events to {@code sink}. */
    public static Summary read(Path file, Symbols symbols, EventSink sink) throws IOException, TraceFormatException {
        String name = file.toString();
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            raw.mark(BinaryTrace.MAGIC.length);
            byte[] head = raw.readNBytes(BinaryTrace.MAGIC.length);
            raw.reset();
            if (BinaryTraceReader.looksBinary(head, head.length)) {
                BinaryTraceReader.Result r = BinaryTraceReader.read(name, raw, symbols, sink);
                return new Summary("binary", r.events(), r.complete(), r.note());
            }
            for (byte b : head) {
                if (b == 0) {
                    throw new TraceFormatException(name, "neither a text trace nor an mmcheck binary trace");
                }
            }
            long n = TextTraceReader.read(name, new InputStreamReader(raw, StandardCharsets.UTF_8), symbols, sink);
            return new Summary("text", n, true, "");
        }
    }
}
