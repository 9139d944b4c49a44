package dev.mmcheck.checker.jmm;

/**
 * Java's access modes (VarHandle's, plus the plain field access), as the robustness model reads them
 * (docs/jmm-model.md): plain and opaque as relaxed, acquire and release as the C++20 modes, volatile as a
 * full fence (the model's SC fence) followed by an acquire read, a release write or an acquire-release
 * read-modify-write.
 */
public enum AccessMode {
    /** A plain field or array access, get/set: relaxed (Java gives less: no coherence, load buffering). */
    PLAIN,
    /** getOpaque/setOpaque, weakCompareAndSetPlain's atomic update: relaxed. */
    OPAQUE,
    /** getAcquire, and the read part of compareAndExchangeAcquire, getAndAddAcquire...: acquire. */
    ACQUIRE,
    /** setRelease, lazySet, putOrdered, and the write part of the ...Release read-modify-writes: release. */
    RELEASE,
    /** volatile fields, getVolatile/setVolatile, the plain-named atomics (CAS, getAndAdd): full fence, then acquire/release. */
    VOLATILE;

    /** Whether a read in this mode acquires (its read part, for a read-modify-write). */
    public boolean acquires() {
        return this == ACQUIRE || this == VOLATILE;
    }

    /** Whether a write in this mode releases (its write part, for a read-modify-write). */
    public boolean releases() {
        return this == RELEASE || this == VOLATILE;
    }
}
