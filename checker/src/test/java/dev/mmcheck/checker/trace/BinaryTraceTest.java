package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.event.EventBuffer;
import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The binary trace format: round trip, traces cut short at every byte, damage, malformed input. */
class BinaryTraceTest {

    private static final int EVENTS = 3 * BinaryTrace.EVENTS_PER_CHUNK + 123;

    /** A random stream over a few threads, addresses and sites, with every event kind. */
    private static EventBuffer randomStream(Symbols symbols, int n, long seed) {
        Random rnd = new Random(seed);
        for (int t = 0; t < 5; t++) {
            symbols.thread("T" + t);
        }
        EventBuffer b = new EventBuffer();
        for (int i = 0; i < n; i++) {
            EventKind k = EventKind.of(rnd.nextInt(EventKind.values().length));
            int thread = rnd.nextInt(5);
            int operand = switch (k.operand()) {
                case ADDRESS -> symbols.address("obj" + rnd.nextInt(50) + ".f");
                case THREAD -> (thread + 1) % 5;
                case NONE -> -1;
            };
            int line = 1 + rnd.nextInt(200);
            Site at = new Site("com.example.C" + line % 4, "m", "C.java", line, 3 * line, line % 3 == 0 ? "opaque" : "");
            if (line % 5 == 0) {
                at = at.calledFrom(new Site("com.example.D", "call" + line % 2, "D.java", line / 5, 7));
            }
            int site = rnd.nextInt(10) == 0 ? -1 : symbols.site(at);
            b.event(k.code(), thread, operand, site);
        }
        return b;
    }

    private static byte[] write(Symbols symbols, EventBuffer events, boolean close) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryTraceWriter w = new BinaryTraceWriter(out, symbols);
        events.replay(w);
        if (close) {
            w.close();
        } else {
            w.flush();
        }
        return out.toByteArray();
    }

    private static void assertSameEvents(EventBuffer expected, int count, EventBuffer actual) {
        assertEquals(count, actual.size());
        for (int i = 0; i < count; i++) {
            assertEquals(expected.kind(i), actual.kind(i), "kind of event " + i);
            assertEquals(expected.thread(i), actual.thread(i), "thread of event " + i);
            assertEquals(expected.operand(i), actual.operand(i), "operand of event " + i);
            assertEquals(expected.site(i), actual.site(i), "site of event " + i);
        }
    }

    @Test
    void roundTripKeepsEveryEventAndName() throws Exception {
        Symbols symbols = new Symbols();
        EventBuffer events = randomStream(symbols, EVENTS, 1);
        byte[] bytes = write(symbols, events, true);
        Symbols read = new Symbols();
        EventBuffer back = new EventBuffer();
        BinaryTraceReader.Result r = BinaryTraceReader.read("t.mmct", new ByteArrayInputStream(bytes), read, back);
        assertTrue(r.complete());
        assertEquals(EVENTS, r.events());
        assertSameEvents(events, EVENTS, back);
        assertEquals(symbols.siteCount(), read.siteCount());
        boolean called = false;
        for (int i = 0; i < symbols.siteCount(); i++) {
            assertEquals(symbols.siteOf(i), read.siteOf(i));
            called |= symbols.siteOf(i).caller() != null;
        }
        assertTrue(called, "sites reached through calls are in the stream");
        for (int i = 0; i < symbols.addressCount(); i++) {
            assertEquals(symbols.addressName(i), read.addressName(i));
        }
        // compact: a few bytes per event
        assertTrue(bytes.length < EVENTS * 6, "size " + bytes.length);
    }

    @Test
    void aTraceCutAnywhereIsReadUpToItsLastWholeChunk() throws Exception {
        Symbols symbols = new Symbols();
        EventBuffer events = randomStream(symbols, 2 * BinaryTrace.EVENTS_PER_CHUNK + 10, 2);
        byte[] full = write(symbols, events, true);
        // chunk boundaries, from a sequential scan of the full trace
        int[] ends = chunkEnds(full);
        long[] eventsBefore = new long[ends.length];
        long seen = 0;
        for (int c = 0; c < ends.length; c++) {
            eventsBefore[c] = seen;
            seen += eventsIn(full, c == 0 ? BinaryTrace.HEADER : ends[c - 1]);
        }
        Random rnd = new Random(3);
        for (int trial = 0; trial < 300; trial++) {
            int cut = trial < ends.length ? ends[trial] - 1 : BinaryTrace.HEADER + rnd.nextInt(full.length - BinaryTrace.HEADER);
            byte[] part = Arrays.copyOf(full, cut);
            EventBuffer back = new EventBuffer();
            BinaryTraceReader.Result r = BinaryTraceReader.read("cut.mmct", new ByteArrayInputStream(part),
                    new Symbols(), back);
            assertFalse(r.complete(), "cut at " + cut);
            assertFalse(r.note().isEmpty());
            int whole = 0;
            while (whole < ends.length && ends[whole] <= cut) {
                whole++;
            }
            long expected = whole == ends.length ? seen : eventsBefore[whole];
            assertEquals(expected, r.events(), "cut at " + cut);
            assertSameEvents(events, (int) expected, back);
        }
    }

    /** Byte offsets where each chunk ends. */
    private static int[] chunkEnds(byte[] b) {
        int[] ends = new int[0];
        int at = BinaryTrace.HEADER;
        while (at < b.length) {
            int len = ((b[at + 1] & 0xff) << 24) | ((b[at + 2] & 0xff) << 16) | ((b[at + 3] & 0xff) << 8) | (b[at + 4] & 0xff);
            at += 1 + 4 + len + 4;
            ends = Arrays.copyOf(ends, ends.length + 1);
            ends[ends.length - 1] = at;
        }
        return ends;
    }

    private static long eventsIn(byte[] b, int at) {
        if (b[at] != BinaryTrace.EVENTS) {
            return 0;
        }
        long v = 0;
        int shift = 0;
        int i = at + 5;
        while (true) {
            int x = b[i++] & 0xff;
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
            shift += 7;
        }
    }

    @Test
    void aFlushedButUnclosedTraceSaysItHasNoEnd() throws Exception {
        Symbols symbols = new Symbols();
        EventBuffer events = randomStream(symbols, 100, 4);
        byte[] bytes = write(symbols, events, false);
        BinaryTraceReader.Result r = BinaryTraceReader.read("open.mmct", new ByteArrayInputStream(bytes), new Symbols(),
                new EventBuffer());
        assertFalse(r.complete());
        assertEquals(100, r.events());
        assertTrue(r.note().contains("no end chunk"), r.note());
    }

    @Test
    void damageIsAnErrorNamingTheOffset() throws Exception {
        Symbols symbols = new Symbols();
        byte[] bytes = write(symbols, randomStream(symbols, 1000, 5), true);
        int[] ends = chunkEnds(bytes);
        byte[] bad = bytes.clone();
        int at = ends[0] + 20; // inside the second chunk's payload
        bad[at] ^= 0x40;
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> BinaryTraceReader.read("bad.mmct",
                new ByteArrayInputStream(bad), new Symbols(), new EventBuffer()));
        assertEquals("bad.mmct: byte " + ends[0] + ": chunk checksum mismatch: the trace is damaged", e.getMessage());
    }

    @Test
    void malformedHeadersAreErrors() {
        byte[] notTrace = "T1 load x\n".getBytes();
        assertThrows(TraceFormatException.class, () -> BinaryTraceReader.read("x", new ByteArrayInputStream(notTrace),
                new Symbols(), new EventBuffer()));
        byte[] future = Arrays.copyOf(BinaryTrace.MAGIC, BinaryTrace.HEADER);
        future[9] = 9;
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> BinaryTraceReader.read("v9",
                new ByteArrayInputStream(future), new Symbols(), new EventBuffer()));
        assertTrue(e.getMessage().contains("version 9 is not supported"), e.getMessage());
    }

    @Test
    void eventsMustReferToDefinedNames() throws Exception {
        // hand-made chunk: one event naming thread 3 that no symbols chunk defined
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        BinaryTraceWriter.varint(payload, 1);
        payload.write(EventKind.LOAD.code());
        BinaryTraceWriter.varint(payload, 3);
        BinaryTraceWriter.varint(payload, 1);
        BinaryTraceWriter.varint(payload, 0);
        byte[] body = payload.toByteArray();
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(BinaryTrace.EVENTS);
        crc.update(body);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write(BinaryTrace.MAGIC);
        file.write(new byte[] {0, 1, 0, 0});
        file.write(BinaryTrace.EVENTS);
        file.write(new byte[] {0, 0, 0, (byte) body.length});
        file.write(body);
        long c = crc.getValue();
        file.write(new byte[] {(byte) (c >>> 24), (byte) (c >>> 16), (byte) (c >>> 8), (byte) c});
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> BinaryTraceReader.read("u.mmct",
                new ByteArrayInputStream(file.toByteArray()), new Symbols(), new EventBuffer()));
        assertEquals("u.mmct: byte 18: event 0 refers to undefined thread 3", e.getMessage());
        assertArrayEquals(BinaryTrace.MAGIC, Arrays.copyOf(file.toByteArray(), 8));
    }

    /**
     * Every access mode a site can carry (docs/mapping.md): a read-modify-write's flavours and failures, the fences'
     * flavours, the loads' and stores' modes, through the writer and back.
     */
    @Test
    void everyModeOfASiteRoundTrips() throws Exception {
        java.util.List<String> modes = java.util.List.of("", "volatile", "acquire", "release", "opaque", "plain",
                "storestore", "loadload", "failed", "acquire-failed", "release-failed", "plain-failed");
        Symbols symbols = new Symbols();
        int t = symbols.thread("T1");
        int x = symbols.address("x");
        EventBuffer events = new EventBuffer();
        int line = 0;
        for (String mode : modes) {
            for (EventKind k : java.util.List.of(EventKind.INTERLOCKED, EventKind.LOAD, EventKind.STORE,
                    EventKind.STORE_STORE_FENCE, EventKind.LOAD_FENCE, EventKind.FULL_FENCE)) {
                Site at = new Site("com.example.C", "m", "C.java", ++line, line, mode);
                events.event(k.code(), t, k.operand() == EventKind.Operand.ADDRESS ? x : -1,
                        symbols.site(line % 2 == 0 ? at : at.calledFrom(new Site("com.example.D", "d", "D.java", 4, 9))));
            }
        }
        byte[] bytes = write(symbols, events, true);
        Symbols read = new Symbols();
        EventBuffer back = new EventBuffer();
        assertTrue(BinaryTraceReader.read("m.mmct", new ByteArrayInputStream(bytes), read, back).complete());
        assertSameEvents(events, events.size(), back);
        for (int i = 0; i < symbols.siteCount(); i++) {
            assertEquals(symbols.siteOf(i), read.siteOf(i));
        }
        assertEquals(modes.size() * 6, read.siteCount(), "one site per (instruction, mode): a CAS's two outcomes are two");
    }

    /**
     * A trace written by a version of mmcheck before sites had these modes, made here byte by byte (version 1: sites
     * without modes; version 2: with a mode), reads as it did: its fences and CASes keep their kinds, and a site
     * without a mode has the empty one (a fence whose flavour is not said, a CAS of the volatile flavour that
     * succeeded).
     */
    @Test
    void anOlderTraceReadsAsBefore() throws Exception {
        for (int version : new int[] {1, 2}) {
            ByteArrayOutputStream sym = new ByteArrayOutputStream();
            sym.write('t');
            BinaryTraceWriter.varint(sym, 0);
            utf(sym, "T1");
            sym.write('a');
            BinaryTraceWriter.varint(sym, 0);
            utf(sym, "x");
            for (int i = 0; i < 3; i++) {
                sym.write(version == 2 && i == 2 ? 'm' : 's');
                BinaryTraceWriter.varint(sym, i);
                utf(sym, "com.example.C");
                utf(sym, "m");
                utf(sym, "C.java");
                BinaryTraceWriter.varint(sym, 10 + i);
                BinaryTraceWriter.varint(sym, 0);
                if (version == 2 && i == 2) {
                    utf(sym, "acquire");
                }
            }
            ByteArrayOutputStream ev = new ByteArrayOutputStream();
            int[][] recorded = {{EventKind.STORE_STORE_FENCE.code(), -1, 0}, {EventKind.INTERLOCKED.code(), 0, 1},
                {EventKind.LOAD_FENCE.code(), -1, 2}};
            BinaryTraceWriter.varint(ev, recorded.length);
            for (int[] e : recorded) {
                ev.write(e[0]);
                BinaryTraceWriter.varint(ev, 0);
                BinaryTraceWriter.varint(ev, e[1] + 1);
                BinaryTraceWriter.varint(ev, e[2] + 1);
            }
            ByteArrayOutputStream end = new ByteArrayOutputStream();
            BinaryTraceWriter.varint(end, recorded.length);
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            file.write(BinaryTrace.MAGIC);
            file.write(new byte[] {0, (byte) version, 0, 0});
            chunk(file, BinaryTrace.SYMBOLS, sym.toByteArray());
            chunk(file, BinaryTrace.EVENTS, ev.toByteArray());
            chunk(file, BinaryTrace.END, end.toByteArray());
            Symbols read = new Symbols();
            EventBuffer back = new EventBuffer();
            assertTrue(BinaryTraceReader.read("v" + version + ".mmct", new ByteArrayInputStream(file.toByteArray()), read,
                    back).complete());
            assertEquals(3, back.size());
            for (int i = 0; i < 3; i++) {
                assertEquals(recorded[i][0], back.kind(i), "version " + version + ", event " + i);
                assertEquals(new Site("com.example.C", "m", "C.java", 10 + i, -1, version == 2 && i == 2 ? "acquire" : ""),
                        read.siteOf(back.site(i)), "version " + version + ", event " + i);
            }
        }
    }

    private static void utf(ByteArrayOutputStream b, String s) {
        byte[] u = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        BinaryTraceWriter.varint(b, u.length);
        b.writeBytes(u);
    }

    private static void chunk(ByteArrayOutputStream file, int type, byte[] body) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(type);
        crc.update(body);
        file.write(type);
        file.writeBytes(new byte[] {(byte) (body.length >>> 24), (byte) (body.length >>> 16), (byte) (body.length >>> 8),
            (byte) body.length});
        file.writeBytes(body);
        long c = crc.getValue();
        file.writeBytes(new byte[] {(byte) (c >>> 24), (byte) (c >>> 16), (byte) (c >>> 8), (byte) c});
    }
}
