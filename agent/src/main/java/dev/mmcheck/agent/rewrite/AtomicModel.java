package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.rewrite.JdkModel.Call;
import dev.mmcheck.agent.rewrite.JdkModel.Treatment;
import dev.mmcheck.checker.event.SiteModes;
import dev.mmcheck.runtime.Kinds;

/**
 * The access methods of java.util.concurrent.atomic (the atomics, arrays, field updaters, adders, accumulators,
 * stamped and markable references), VarHandle and Unsafe, for {@link JdkModel} (docs/mapping.md): each method's
 * event kind, and the access mode, flavour and failure of the call it makes. Pure functions of the method's name and
 * descriptor.
 */
final class AtomicModel {

    private AtomicModel() {
    }

    /**
     * The access mode of an access through an atomic, updater, VarHandle or Unsafe method, or of a fence, beyond what
     * its event kind says ({@code Site.mode}, checker.event.SiteModes): for a load {@code volatile}, {@code acquire},
     * {@code opaque}, or empty for a plain one (VarHandle {@code get}, Unsafe {@code getInt}, {@code getPlain}); for a
     * store {@code opaque}, or empty (plain, and the kinds that say it all: release and volatile stores); for a
     * read-modify-write its flavour ({@link #flavour}); for a fence ({@link Treatment#FENCE}) {@code release}
     * (releaseFence, Unsafe.storeFence), {@code storestore} (storeStoreFence), {@code acquire} (acquireFence,
     * Unsafe.loadFence), {@code loadload} (loadLoadFence), empty for a full fence. Thread.isInterrupted() is a
     * volatile load; Thread.interrupted()'s clear a read-modify-write of the volatile flavour (empty), its read alone
     * (when it returns false) a volatile load at a second site (CallRewriting).
     */
    static String mode(Call c, String name) {
        if (c.treatment() == Treatment.FENCE) {
            return switch (name) {
                case "releaseFence", "storeFence" -> SiteModes.RELEASE;
                case "storeStoreFence" -> SiteModes.STORESTORE;
                case "acquireFence", "loadFence" -> SiteModes.ACQUIRE;
                case "loadLoadFence" -> SiteModes.LOADLOAD;
                default -> "";
            };
        }
        if (c.kind() == Kinds.INTERLOCKED) {
            return flavour(c.treatment(), name);
        }
        Treatment treatment = c.treatment();
        if (treatment == Treatment.INTERRUPT_READ) {
            return SiteModes.VOLATILE; // Thread.isInterrupted(): the interrupt status, read as JLS 17.4.4 says
        }
        if (name.contains("Opaque")) {
            return SiteModes.OPAQUE;
        }
        if (name.contains("Acquire")) {
            return SiteModes.ACQUIRE;
        }
        if (name.equals("getVolatile") || name.startsWith("get") && name.endsWith("Volatile")) {
            return SiteModes.VOLATILE;
        }
        boolean atomicLoad = treatment == Treatment.ATOMIC || treatment == Treatment.ATOMIC_ARRAY
                || treatment == Treatment.UPDATER || treatment == Treatment.ATOMIC_HOLDER;
        if (atomicLoad && (accessKind(name) == Kinds.LOAD || adderKind(name) == Kinds.LOAD || name.equals("getReference")
                || name.equals("getStamp") || name.equals("isMarked")) && !name.equals("getPlain")) {
            return SiteModes.VOLATILE; // Atomic*.get(), intValue(), LongAdder.sum(): volatile reads
        }
        return "";
    }

    /**
     * The flavour of a read-modify-write method: {@code acquire} (compareAndExchangeAcquire, weakCompareAndSetAcquire,
     * getAndSetAcquire, getAndAddAcquire, getAndBitwise*Acquire, Unsafe's ...Acquire), {@code release} (the ...Release
     * ones), {@code plain} (weakCompareAndSetPlain, Unsafe's weakCompareAndSet*Plain, and the weakCompareAndSet of
     * java.util.concurrent.atomic: its javadoc gives the atomics' and arrays' "memory effects as specified by
     * VarHandle.weakCompareAndSetPlain" since JDK 9, and the field updaters' and AtomicStamped/MarkableReference's
     * "does not provide ordering guarantees", whatever the JDK's code does today), else empty: volatile
     * (compareAndSet, weakCompareAndSetVolatile, getAndSet, incrementAndGet..., VarHandle's weakCompareAndSet,
     * Unsafe's compareAndSwap* and compareAndSet*, attemptStamp, the adders').
     */
    static String flavour(Treatment treatment, String name) {
        if (name.contains("Acquire")) {
            return SiteModes.ACQUIRE;
        }
        if (name.contains("Release")) {
            return SiteModes.RELEASE;
        }
        if (name.contains("Plain") || name.equals("weakCompareAndSet") && (treatment == Treatment.ATOMIC
                || treatment == Treatment.ATOMIC_ARRAY || treatment == Treatment.UPDATER)) {
            return SiteModes.PLAIN;
        }
        return "";
    }

    /**
     * Whether read-modify-write method {@code name} can fail, its outcome told by its result: the compare-and-set
     * family of the atomics, arrays, updaters, VarHandles and Unsafe (compareAndSet*, weakCompareAndSet*,
     * compareAndExchange*, compareAndSwap*) and AtomicStamped/MarkableReference's compareAndSet, weakCompareAndSet,
     * attemptStamp and attemptMark. A failed one only reads: it logs the site of mode {@code SiteModes.failed} of its
     * flavour, the kind staying INTERLOCKED (a locked instruction all the same).
     */
    static boolean canFail(Call c, String name) {
        return c.kind() == Kinds.INTERLOCKED && switch (c.treatment()) {
            case ATOMIC, ATOMIC_ARRAY, UPDATER, HANDLE, UNSAFE -> name.startsWith("compareAndSet")
                    || name.startsWith("weakCompareAndSet") || name.startsWith("compareAndExchange")
                    || name.startsWith("compareAndSwap") || name.equals("attemptStamp") || name.equals("attemptMark");
            default -> false;
        };
    }

    /** Whether a method that {@link #canFail} returns the value it found (the witness) rather than its success. */
    static boolean returnsWitness(String name) {
        return name.startsWith("compareAndExchange");
    }

    /**
     * The event kind of a method of LongAdder or DoubleAdder (also the methods accumulators share with them), or -1:
     * add/increment/decrement are a CAS; every read is volatile loads of the base and the cells; reset() volatile
     * stores; sumThenReset() a getAndSet of each.
     */
    static int adderKind(String name) {
        switch (name) {
            case "add": case "increment": case "decrement": case "sumThenReset":
                return Kinds.INTERLOCKED;
            case "sum": case "intValue": case "longValue": case "floatValue": case "doubleValue": case "byteValue":
            case "shortValue": case "toString":
                return Kinds.LOAD; // toString formats sum(): no code of the application's
            case "reset":
                return Kinds.VOLATILE_STORE;
            default:
                return -1;
        }
    }

    /**
     * A method of AtomicStampedReference or AtomicMarkableReference: reads of the pair are volatile loads,
     * set a volatile store, the compare-and-set family a CAS of the pair (when the expected pair does not match, or
     * matches the new one, the JDK makes no CAS: modelled as one all the same, as a failed CAS of an AtomicReference
     * is, a full fence the program may not have made, which can only take findings away).
     */
    static Call pair(String name, String desc) {
        switch (name) {
            case "getReference": case "getStamp": case "isMarked":
                return Call.access(Treatment.ATOMIC, Kinds.LOAD, false);
            case "get":
                return desc.startsWith("([") ? Call.access(Treatment.ATOMIC_HOLDER, Kinds.LOAD, false) : Call.NONE;
            case "set":
                return Call.access(Treatment.ATOMIC, Kinds.VOLATILE_STORE, false);
            case "compareAndSet": case "weakCompareAndSet": case "attemptStamp": case "attemptMark":
                return Call.access(Treatment.ATOMIC, Kinds.INTERLOCKED, false);
            default:
                return Call.NONE;
        }
    }

    static boolean isFunctional(String name) {
        return name.endsWith("Update") || name.endsWith("Accumulate") || name.equals("updateAndGet")
                || name.equals("accumulateAndGet");
    }

    /** The event kind of an access method of an atomic or updater, or -1 when it is not an access. */
    static int accessKind(String name) {
        switch (name) {
            case "get": case "getPlain": case "getOpaque": case "getAcquire": case "intValue": case "longValue":
            case "floatValue": case "doubleValue": case "byteValue": case "shortValue":
                return Kinds.LOAD; // not toString: AtomicReference's calls the value's toString, user code
            case "set":
                return Kinds.VOLATILE_STORE;
            case "lazySet": case "setRelease":
                return Kinds.RELEASE_STORE;
            case "setPlain": case "setOpaque":
                return Kinds.STORE;
            case "compareAndSet": case "weakCompareAndSet": case "weakCompareAndSetPlain":
            case "weakCompareAndSetVolatile": case "weakCompareAndSetAcquire": case "weakCompareAndSetRelease":
            case "compareAndExchange": case "compareAndExchangeAcquire": case "compareAndExchangeRelease":
            case "getAndSet": case "getAndAdd": case "getAndIncrement": case "getAndDecrement":
            case "incrementAndGet": case "decrementAndGet": case "addAndGet": case "getAndUpdate":
            case "updateAndGet": case "getAndAccumulate": case "accumulateAndGet":
                return Kinds.INTERLOCKED;
            default:
                return -1;
        }
    }

    static Call handle(String name, String desc, boolean isStatic) {
        if (isStatic) {
            switch (name) {
                case "fullFence":
                    return Call.access(Treatment.FENCE, Kinds.FULL_FENCE, false);
                case "acquireFence": case "loadLoadFence":
                    return Call.access(Treatment.FENCE, Kinds.LOAD_FENCE, false);
                case "releaseFence": case "storeStoreFence":
                    return Call.access(Treatment.FENCE, Kinds.STORE_STORE_FENCE, false);
                default:
                    return Call.NONE;
            }
        }
        int values;
        int kind;
        if (name.equals("get") || name.equals("getVolatile") || name.equals("getAcquire") || name.equals("getOpaque")) {
            values = 0;
            kind = Kinds.LOAD;
        } else if (name.equals("set") || name.equals("setOpaque")) {
            values = 1;
            kind = Kinds.STORE;
        } else if (name.equals("setRelease")) {
            values = 1;
            kind = Kinds.RELEASE_STORE;
        } else if (name.equals("setVolatile")) {
            values = 1;
            kind = Kinds.VOLATILE_STORE;
        } else if (name.startsWith("compareAndSet") || name.startsWith("compareAndExchange")
                || name.startsWith("weakCompareAndSet")) {
            values = 2;
            kind = Kinds.INTERLOCKED;
        } else if (name.startsWith("getAndSet") || name.startsWith("getAndAdd") || name.startsWith("getAndBitwise")) {
            values = 1;
            kind = Kinds.INTERLOCKED;
        } else {
            return Call.NONE;
        }
        int coordinates = org.objectweb.asm.Type.getArgumentTypes(desc).length - values;
        if (coordinates < 0 || coordinates > 2) {
            return Call.NONE;
        }
        // a static field's VarHandle initializes the field's class on first use: run that muted
        return new Call(Treatment.HANDLE, kind, coordinates == 0, coordinates);
    }

    static Call unsafe(String name, String desc) {
        switch (name) {
            case "fullFence":
                return Call.access(Treatment.FENCE, Kinds.FULL_FENCE, false);
            case "loadFence":
                return Call.access(Treatment.FENCE, Kinds.LOAD_FENCE, false);
            case "storeFence":
                return Call.access(Treatment.FENCE, Kinds.STORE_STORE_FENCE, false);
            case "objectFieldOffset":
                return desc.startsWith("(Ljava/lang/reflect/Field;)") ? Call.of(Treatment.UNSAFE_OFFSET) : Call.NONE;
            default:
                break;
        }
        if (!desc.startsWith("(Ljava/lang/Object;J")) {
            return Call.NONE; // off-heap addresses and the like
        }
        int kind;
        if (name.startsWith("compareAndSwap") || name.startsWith("compareAndSet") || name.startsWith("compareAndExchange")
                || name.startsWith("weakCompareAndSet") || name.startsWith("getAndAdd") || name.startsWith("getAndSet")
                || name.startsWith("getAndBitwise")) {
            kind = Kinds.INTERLOCKED;
        } else if (name.startsWith("get")) {
            kind = Kinds.LOAD;
        } else if (name.startsWith("putOrdered") || name.endsWith("Release")) {
            kind = Kinds.RELEASE_STORE;
        } else if (name.endsWith("Volatile") && name.startsWith("put")) {
            kind = Kinds.VOLATILE_STORE;
        } else if (name.startsWith("put")) {
            kind = Kinds.STORE;
        } else {
            return Call.NONE;
        }
        return Call.access(Treatment.UNSAFE, kind, false);
    }
}
