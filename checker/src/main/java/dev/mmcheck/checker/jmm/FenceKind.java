package dev.mmcheck.checker.jmm;

/** Java's fences, each as the model's fence it is read as (docs/jmm-model.md). */
public enum FenceKind {
    /** VarHandle.fullFence, Unsafe.fullFence: the model's SC fence. */
    FULL,
    /** VarHandle.acquireFence, Unsafe.loadFence: an acquire fence. */
    ACQUIRE,
    /** VarHandle.releaseFence, Unsafe.storeFence: a release fence. */
    RELEASE,
    /** VarHandle.loadLoadFence: an acquire fence (strengthened: Java orders only loads with later loads). */
    LOAD_LOAD,
    /** VarHandle.storeStoreFence: a release fence (strengthened: Java orders only stores with later stores). */
    STORE_STORE;

    /** Whether the fence has an acquire part (full, acquire, load-load). */
    public boolean acquires() {
        return this == FULL || this == ACQUIRE || this == LOAD_LOAD;
    }

    /** Whether the fence has a release part (full, release, store-store). */
    public boolean releases() {
        return this == FULL || this == RELEASE || this == STORE_STORE;
    }
}
