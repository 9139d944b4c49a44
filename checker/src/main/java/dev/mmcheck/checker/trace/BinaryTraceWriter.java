package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Streams events to the binary trace format ({@link BinaryTrace}): every
 * {@link BinaryTrace#EVENTS_PER_CHUNK} events, and on {@link #flush()}, it writes the symbols defined
 * since the last chunk and then a checksummed chunk of events, so that a trace cut short by a crash
 * keeps all its whole chunks. {@link #close()} writes the end chunk. One writer thread at a time.
 */
public final class BinaryTraceWriter implements EventSink, Closeable {

    private final OutputStream out;
    private final Symbols symbols;
    private final ByteArrayOutputStream events = new ByteArrayOutputStream(1 << 16);
    private final ByteArrayOutputStream scratch = new ByteArrayOutputStream(1 << 12);
    private final CRC32 crc = new CRC32();
    private int pending;
    private long total;
    private int threadsWritten;
    private int addressesWritten;
    private int sitesWritten;
    private boolean closed;

    /** Writes the header to {@code out} now; names are taken from {@code symbols} as they are defined. */
    public BinaryTraceWriter(OutputStream out, Symbols symbols) throws IOException {
        this.out = out;
        this.symbols = symbols;
        out.write(BinaryTrace.MAGIC);
        out.write(BinaryTrace.VERSION >>> 8);
        out.write(BinaryTrace.VERSION);
        out.write(0);
        out.write(0);
    }

    @Override
    public void event(int kind, int thread, int operand, int site) {
        events.write(kind);
        varint(events, thread);
        varint(events, operand + 1L);
        varint(events, site + 1L);
        pending++;
        total++;
        if (pending == BinaryTrace.EVENTS_PER_CHUNK) {
            try {
                flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Writes new symbols and the buffered events as whole chunks, and flushes the stream. */
    public void flush() throws IOException {
        writeSymbols();
        if (pending > 0) {
            scratch.reset();
            varint(scratch, pending);
            events.writeTo(scratch);
            chunk(BinaryTrace.EVENTS, scratch);
            events.reset();
            pending = 0;
        }
        out.flush();
    }

    private void writeSymbols() throws IOException {
        scratch.reset();
        for (; threadsWritten < symbols.threadCount(); threadsWritten++) {
            scratch.write(BinaryTrace.TAG_THREAD);
            varint(scratch, threadsWritten);
            string(scratch, symbols.threadName(threadsWritten));
        }
        for (; addressesWritten < symbols.addressCount(); addressesWritten++) {
            scratch.write(BinaryTrace.TAG_ADDRESS);
            varint(scratch, addressesWritten);
            string(scratch, symbols.addressName(addressesWritten));
        }
        for (; sitesWritten < symbols.siteCount(); sitesWritten++) {
            Site s = symbols.siteOf(sitesWritten);
            scratch.write(s.caller() != null ? BinaryTrace.TAG_SITE_CALLED
                    : s.mode().isEmpty() ? BinaryTrace.TAG_SITE : BinaryTrace.TAG_SITE_MODE);
            varint(scratch, sitesWritten);
            string(scratch, s.className());
            string(scratch, s.method());
            string(scratch, s.file());
            varint(scratch, Math.max(0, s.line()));
            varint(scratch, s.bci() + 1L);
            if (!s.mode().isEmpty() || s.caller() != null) {
                string(scratch, s.mode());
            }
            if (s.caller() != null) {
                string(scratch, s.caller().className());
                string(scratch, s.caller().method());
                string(scratch, s.caller().file());
                varint(scratch, Math.max(0, s.caller().line()));
            }
        }
        if (scratch.size() > 0) {
            chunk(BinaryTrace.SYMBOLS, scratch);
        }
    }

    private void chunk(int type, ByteArrayOutputStream payload) throws IOException {
        byte[] body = payload.toByteArray();
        crc.reset();
        crc.update(type);
        crc.update(body);
        out.write(type);
        int32(body.length);
        out.write(body);
        int32((int) crc.getValue());
    }

    private void int32(int v) throws IOException {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    /** Writes what is buffered and the end chunk, then closes the stream. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        flush();
        scratch.reset();
        varint(scratch, total);
        chunk(BinaryTrace.END, scratch);
        out.close();
    }

    static void varint(ByteArrayOutputStream b, long v) {
        while ((v & ~0x7FL) != 0) {
            b.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.write((int) v);
    }

    private static void string(ByteArrayOutputStream b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        varint(b, bytes.length);
        b.write(bytes, 0, bytes.length);
    }
}
