package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Reads a binary trace ({@link BinaryTrace}) chunk by chunk, verifying each chunk's checksum before
 * feeding its events on. A trace cut short (by a crash of the recording JVM) is read up to its last
 * whole chunk and the result says so; a damaged or malformed one stops with a
 * {@link TraceFormatException} naming the byte offset. Not thread-safe.
 */
public final class BinaryTraceReader {

    /**
     * What a read delivered.
     *
     * @param events    events fed to the sink
     * @param chunks    whole chunks read
     * @param complete  whether the end chunk was reached
     * @param stoppedAt byte offset after the last whole chunk
     * @param note      why the trace is incomplete, or empty
     */
    public record Result(long events, long chunks, boolean complete, long stoppedAt, String note) {
    }

    private final String name;
    private final InputStream in;
    private final Symbols symbols;
    private final EventSink sink;
    private final CRC32 crc = new CRC32();
    private long offset;
    private long events;
    private long chunks;

    private BinaryTraceReader(String name, InputStream in, Symbols symbols, EventSink sink) {
        this.name = name;
        this.in = in;
        this.symbols = symbols;
        this.sink = sink;
    }

    /** Whether {@code head} starts like a binary trace. */
    public static boolean looksBinary(byte[] head, int length) {
        return length >= BinaryTrace.MAGIC.length
                && Arrays.equals(Arrays.copyOf(head, BinaryTrace.MAGIC.length), BinaryTrace.MAGIC);
    }

    /** Reads the trace {@code name} from {@code in}, defining symbols and feeding events to {@code sink}. */
    public static Result read(String name, InputStream in, Symbols symbols, EventSink sink)
            throws IOException, TraceFormatException {
        return new BinaryTraceReader(name, in, symbols, sink).run();
    }

    private Result run() throws IOException, TraceFormatException {
        byte[] header = new byte[BinaryTrace.HEADER];
        int got = in.readNBytes(header, 0, header.length);
        if (!looksBinary(header, got)) {
            throw error(0, "not an mmcheck binary trace (bad magic)");
        }
        if (got < header.length) {
            throw error(got, "the header is cut short");
        }
        int version = ((header[8] & 0xff) << 8) | (header[9] & 0xff);
        if (version < BinaryTrace.OLDEST_VERSION || version > BinaryTrace.VERSION) {
            throw error(8, "trace format version " + version + " is not supported (this mmcheck reads versions "
                    + BinaryTrace.OLDEST_VERSION + " to " + BinaryTrace.VERSION + ")");
        }
        offset = header.length;
        while (true) {
            long chunkStart = offset;
            int type = in.read();
            if (type < 0) {
                return new Result(events, chunks, false, offset,
                        "the trace has no end chunk: it was cut short after " + chunks + " whole chunks (byte "
                                + offset + ")");
            }
            byte[] len = in.readNBytes(4);
            if (len.length < 4) {
                return truncated(chunkStart);
            }
            long length = ((len[0] & 0xffL) << 24) | ((len[1] & 0xffL) << 16) | ((len[2] & 0xffL) << 8) | (len[3] & 0xffL);
            if (type != BinaryTrace.SYMBOLS && type != BinaryTrace.EVENTS && type != BinaryTrace.END) {
                throw error(chunkStart, "unknown chunk type " + type);
            }
            if (length > BinaryTrace.MAX_PAYLOAD) {
                throw error(chunkStart + 1, "chunk length " + length + " exceeds the limit of "
                        + BinaryTrace.MAX_PAYLOAD + " bytes");
            }
            byte[] body = in.readNBytes((int) length);
            byte[] sum = in.readNBytes(4);
            if (body.length < length || sum.length < 4) {
                return truncated(chunkStart);
            }
            crc.reset();
            crc.update(type);
            crc.update(body);
            int expected = ((sum[0] & 0xff) << 24) | ((sum[1] & 0xff) << 16) | ((sum[2] & 0xff) << 8) | (sum[3] & 0xff);
            if ((int) crc.getValue() != expected) {
                throw error(chunkStart, "chunk checksum mismatch: the trace is damaged");
            }
            offset = chunkStart + 1 + 4 + length + 4;
            Cursor c = new Cursor(body, chunkStart + 5);
            switch (type) {
                case BinaryTrace.SYMBOLS -> symbols(c);
                case BinaryTrace.EVENTS -> events(c);
                default -> {
                    long total = c.varint();
                    c.expectEnd();
                    if (total != events) {
                        throw error(chunkStart, "the end chunk counts " + total + " events but the trace holds " + events);
                    }
                    chunks++;
                    if (in.read() >= 0) {
                        throw error(offset, "unexpected data after the end chunk");
                    }
                    return new Result(events, chunks, true, offset, "");
                }
            }
            chunks++;
        }
    }

    private Result truncated(long chunkStart) {
        return new Result(events, chunks, false, chunkStart, "the trace was cut short inside the chunk at byte "
                + chunkStart + "; read its " + chunks + " whole chunks (" + events + " events) before it");
    }

    private void symbols(Cursor c) throws TraceFormatException {
        while (c.more()) {
            long at = c.position();
            int tag = c.u8();
            int id = c.id();
            try {
                switch (tag) {
                    case BinaryTrace.TAG_THREAD -> symbols.defineThread(id, c.string());
                    case BinaryTrace.TAG_ADDRESS -> symbols.defineAddress(id, c.string());
                    case BinaryTrace.TAG_SITE, BinaryTrace.TAG_SITE_MODE, BinaryTrace.TAG_SITE_CALLED -> {
                        String cls = c.string();
                        String method = c.string();
                        String file = c.string();
                        int line = c.id();
                        int bci = c.id() - 1;
                        String mode = tag == BinaryTrace.TAG_SITE ? "" : c.string();
                        Site caller = null;
                        if (tag == BinaryTrace.TAG_SITE_CALLED) {
                            String callerClass = c.string();
                            String callerMethod = c.string();
                            String callerFile = c.string();
                            caller = new Site(callerClass, callerMethod, callerFile, c.id(), -1);
                        }
                        symbols.defineSite(id, new Site(cls, method, file, line, bci, mode, caller));
                    }
                    default -> throw error(at, "unknown symbol tag " + tag);
                }
            } catch (IllegalArgumentException e) {
                throw error(at, e.getMessage());
            }
        }
    }

    private void events(Cursor c) throws TraceFormatException {
        long at = c.position();
        int count = c.id();
        if (count > (c.remaining() / 4)) {
            throw error(at, "the chunk claims " + count + " events but is too short to hold them");
        }
        // decode and validate the whole chunk before delivering any of it
        int[] buf = new int[count * 4];
        for (int i = 0; i < count; i++) {
            at = c.position();
            int kind = c.u8();
            int thread = c.id();
            int operand = c.id() - 1;
            int site = c.id() - 1;
            if (!EventKind.isValidCode(kind)) {
                throw error(at, "event " + (events + i) + " has unknown kind " + kind);
            }
            EventKind k = EventKind.of(kind);
            if (k != EventKind.ADDRESS_DEAD && !symbols.hasThread(thread)) {
                throw error(at, "event " + (events + i) + " refers to undefined thread " + thread);
            }
            if (k.operand() == EventKind.Operand.ADDRESS && !symbols.hasAddress(operand)) {
                throw error(at, "event " + (events + i) + " refers to undefined address " + operand);
            }
            if (k.operand() == EventKind.Operand.THREAD && !symbols.hasThread(operand)) {
                throw error(at, "event " + (events + i) + " refers to undefined thread " + operand);
            }
            if (site >= 0 && !symbols.hasSite(site)) {
                throw error(at, "event " + (events + i) + " refers to undefined site " + site);
            }
            buf[4 * i] = kind;
            buf[4 * i + 1] = thread;
            buf[4 * i + 2] = operand;
            buf[4 * i + 3] = site;
        }
        c.expectEnd();
        for (int i = 0; i < count; i++) {
            sink.event(buf[4 * i], buf[4 * i + 1], buf[4 * i + 2], buf[4 * i + 3]);
        }
        events += count;
    }

    private TraceFormatException error(long at, String what) {
        return new TraceFormatException(name + ": byte " + at, what);
    }

    /** Reads the primitives of one chunk's payload, failing with the offset when it runs out. */
    private final class Cursor {
        private final byte[] b;
        private final long base;
        private int i;

        Cursor(byte[] b, long base) {
            this.b = b;
            this.base = base;
        }

        long position() {
            return base + i;
        }

        int remaining() {
            return b.length - i;
        }

        boolean more() {
            return i < b.length;
        }

        int u8() throws TraceFormatException {
            if (i >= b.length) {
                throw error(position(), "chunk ends in the middle of a record");
            }
            return b[i++] & 0xff;
        }

        long varint() throws TraceFormatException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = u8();
                v |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw error(position(), "malformed varint");
        }

        int id() throws TraceFormatException {
            long at = position();
            long v = varint();
            if (v > Integer.MAX_VALUE) {
                throw error(at, "number " + v + " is out of range");
            }
            return (int) v;
        }

        String string() throws TraceFormatException {
            int n = id();
            if (n > b.length - i) {
                throw error(position(), "string of " + n + " bytes runs past the end of the chunk");
            }
            String s = new String(b, i, n, StandardCharsets.UTF_8);
            i += n;
            return s;
        }

        void expectEnd() throws TraceFormatException {
            if (i != b.length) {
                throw error(position(), (b.length - i) + " unexpected bytes at the end of the chunk");
            }
        }
    }
}
