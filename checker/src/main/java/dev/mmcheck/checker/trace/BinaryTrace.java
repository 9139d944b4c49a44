package dev.mmcheck.checker.trace;

/**
 * Constants of the binary trace format (docs/trace-format.md).
 *
 * <pre>
 *   header:  "MMCTRACE" (8 bytes), u16 version, u16 flags (0)
 *   chunk:   u8 type, u32 payload length, payload, u32 CRC-32 of type and payload
 *   'S' symbols: records of u8 tag, varint id, then
 *                't' thread: string name | 'a' address: string name |
 *                's' site: string class, string method, string file, varint line, varint bci+1 |
 *                'm' site with a mode (version 2): as 's', then string mode |
 *                'c' site reached through a call (version 3): as 'm', then the call's string class,
 *                    string method, string file, varint line
 *   'E' events:  varint count, then per event u8 kind, varint thread, varint operand+1, varint site+1
 *   'Z' end:     varint total number of events
 * </pre>
 *
 * Integers are big-endian; varints are unsigned LEB128; strings are a varint byte length and UTF-8.
 * Every id is defined in a symbols chunk before an events chunk uses it.
 */
public final class BinaryTrace {

    private BinaryTrace() {
    }

    /** The first eight bytes of every binary trace. */
    public static final byte[] MAGIC = {'M', 'M', 'C', 'T', 'R', 'A', 'C', 'E'};
    /** The format version this code writes (it reads 1 to 3; 2 added sites with a mode, 3 sites with a caller). */
    public static final int VERSION = 3;
    /** The oldest version this code reads. */
    public static final int OLDEST_VERSION = 1;
    /** Header length in bytes. */
    public static final int HEADER = 12;
    /** Chunk of symbol definitions. */
    public static final int SYMBOLS = 'S';
    /** Chunk of events. */
    public static final int EVENTS = 'E';
    /** The last chunk. */
    public static final int END = 'Z';
    /** Largest payload a reader accepts. */
    public static final int MAX_PAYLOAD = 64 << 20;
    /** Events per chunk written. */
    public static final int EVENTS_PER_CHUNK = 16384;

    static final int TAG_THREAD = 't';
    static final int TAG_ADDRESS = 'a';
    static final int TAG_SITE = 's';
    static final int TAG_SITE_MODE = 'm';
    static final int TAG_SITE_CALLED = 'c';
}
