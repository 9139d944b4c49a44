package dev.mmcheck.runtime;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Where the bytes a view VarHandle reaches are (docs/agent.md, "View VarHandles"): an access of N bytes at byte index i
 * of a byte[] touches its elements i..i+N-1, the addresses plain BALOAD/BASTORE use too, so that a view access
 * conflicts with the byte accesses and the other views it overlaps; a heap ByteBuffer's bytes are its backing
 * array's (at the buffer's offset), whichever buffer (a slice, a duplicate, a read-only view) reaches them; a direct
 * buffer's are elements of the buffer it was sliced or duplicated from (its root: what every view of that memory
 * shares), at their distance from the root's start. The buffer's fields are read through the package the agent opens
 * to the runtime; without it, only a writable heap buffer is resolved (its public array and offset), and another
 * buffer's accesses are counted as unlogged. Any thread; allocates nothing.
 */
final class Views {

    private static final Field HB = SyncObjects.field(ByteBuffer.class, "hb");
    private static final Field OFFSET = SyncObjects.field(ByteBuffer.class, "offset");
    private static final Field ADDRESS = SyncObjects.field(java.nio.Buffer.class, "address");
    private static final Field ATT = SyncObjects.field(directClass(), "att");

    private Views() {
    }

    private static Class<?> directClass() {
        try {
            return Class.forName("java.nio.DirectByteBuffer", false, null);
        } catch (ClassNotFoundException e) {
            return Object.class;
        }
    }

    /**
     * The object whose elements the bytes of {@code buffer} are (its backing array, or its direct root), with the
     * element index of its byte {@code index} left in {@code t.rangeFirst}; null when it cannot be told, or when
     * bytes index..index+size-1 are not within the buffer's limit (the access throws).
     */
    static Object bytesOf(ByteBuffer buffer, int index, int size, ThreadLog t) {
        if (index < 0 || index > buffer.limit() - size) {
            return null;
        }
        try {
            if (!buffer.isDirect()) {
                if (HB != null && OFFSET != null) {
                    t.rangeFirst = OFFSET.getInt(buffer) + index;
                    return HB.get(buffer);
                }
                if (buffer.hasArray()) {
                    t.rangeFirst = buffer.arrayOffset() + index;
                    return buffer.array();
                }
                return null;
            }
            if (ADDRESS == null || ATT == null) {
                return null;
            }
            Object root = ATT.get(buffer);
            if (!(root instanceof ByteBuffer) || !((ByteBuffer) root).isDirect()) {
                root = buffer; // memory of its own (a JNI or a segment's buffer): its own address space
            }
            long from = ADDRESS.getLong(buffer) - ADDRESS.getLong(root) + index;
            if (from < 0 || from > ((ByteBuffer) root).capacity() - size) {
                return null;
            }
            t.rangeFirst = (int) from;
            return root;
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }
}
