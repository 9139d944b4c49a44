package dev.mmcheck.agent.rewrite;

import dev.mmcheck.checker.event.SiteModes;
import dev.mmcheck.runtime.Kinds;

import java.util.Set;

/**
 * What a call from application code into the JDK means to the checker (docs/mapping.md): an access
 * through an atomic, a field updater, a VarHandle or Unsafe; a fence; a thread start, join or wait;
 * synchronization inside java.util.concurrent; or nothing. Pure functions of the call instruction.
 */
final class JdkModel {

    private JdkModel() {
    }

    /** How a call is treated. */
    enum Treatment {
        /** not modelled */
        NONE,
        /**
         * synchronization inside the JDK: an interlocked event before and after the call on the address of the
         * receiver's synchronization (runtime.SyncObjects)
         */
        JUC,
        /**
         * ThreadLocalRandom.current(): JUC on a thread's first call only (its seed's initialization draws from a
         * shared atomic); later calls, like every other ThreadLocalRandom method, touch only the thread's own seed
         */
        JUC_FIRST_CALL,
        /**
         * a call that only reads a concurrent map (get, containsKey, size...) through ConcurrentHashMap or
         * ConcurrentMap: JUC, but left out in a solo period when the receiver is a ConcurrentHashMap (it cannot block)
         */
        JUC_READ,
        /** {@link #JUC_READ} through a java.util.Map: {@link #MAYBE_JUC}, but left out in a solo period on a ConcurrentHashMap */
        MAYBE_JUC_READ,
        /** a java.util.concurrent constructor: only its function arguments are wrapped */
        JUC_FUNCTIONS,
        /** a call on a java.util interface: JUC when the receiver turns out to be a concurrent or synchronized class */
        MAYBE_JUC,
        /** LockSupport.park, all arities: {@link #JUC} on the calling thread's address */
        PARK,
        /** LockSupport.unpark(thread): {@link #JUC} on that thread's address */
        UNPARK,
        /**
         * a JDK call that may synchronize and that mmcheck does not model: a full fence of the calling thread before
         * the call (which can only take findings away, never make one), counted by method and named in the run's
         * notes; never a happens-before edge (docs/mapping.md, "The JDK's memory-relevant methods")
         */
        UNMODELLED,
        /**
         * {@code Thread.Builder.start(Runnable)} (Java 21+, platform or virtual): the builder's unstarted thread,
         * started as {@code Thread.start} is, so that the start is the happens-before edge it is (Probes.startBuilt)
         */
        START_BUILT,
        /** {@code Thread.startVirtualThread(Runnable)} (Java 21+): as {@link #START_BUILT}, with {@code Thread.ofVirtual()} */
        START_VIRTUAL,
        /**
         * Field.get*(Object), Field.set*(Object, ...): a reflective access of a field, which is not an event; of a
         * volatile field (decided at run time) {@link #UNMODELLED}, a full fence counted under the method's name
         */
        REFLECTIVE,
        /** Thread.interrupt(): a volatile store of the thread's interrupt status, bracketed, any override muted */
        INTERRUPT,
        /** Thread.isInterrupted(): a load of the thread's interrupt status, bracketed */
        INTERRUPT_READ,
        /** Thread.interrupted(): the calling thread's status read, and cleared when it was set: a load or a CAS */
        INTERRUPTED,
        /** Thread.isAlive(): when it returns false, the thread has ended: a join (JLS 17.4.4) */
        ALIVE,
        /** Thread.getState(): TERMINATED, as isAlive() returning false */
        STATE,
        /** TimeUnit.timedJoin(thread, timeout): Thread.join(ms, ns) */
        TIMED_JOIN,
        /** TimeUnit.timedWait(monitor, timeout): Object.wait(ms, ns) */
        TIMED_WAIT,
        /**
         * Reference.get, refersTo, clear, enqueue: a load or store of the referent, a field of the reference object,
         * bracketed ({@link Call#coordinates} says which method, for the runtime's check of an override); enqueue's
         * queue then a full fence ({@link #UNMODELLED})
         */
        REFERENCE,
        /** Thread.start */
        START,
        /** Thread.join, all arities */
        JOIN,
        /** Object.wait, all arities */
        WAIT,
        /**
         * an access through an Atomic{Integer,Long,Boolean,Reference}, a Long/DoubleAdder, a Long/DoubleAccumulator
         * or an AtomicStamped/MarkableReference: one address, the object's value, stands for all its state
         */
        ATOMIC,
        /**
         * AtomicStampedReference.get(int[]) or AtomicMarkableReference.get(boolean[]): {@link #ATOMIC}'s load, and the
         * JDK's store of the stamp or mark into element 0 of the holder array the application passed
         */
        ATOMIC_HOLDER,
        /** an access through an Atomic*Array element */
        ATOMIC_ARRAY,
        /** an access through a field updater */
        UPDATER,
        /** AtomicXFieldUpdater.newUpdater */
        UPDATER_NEW,
        /** an access through a VarHandle */
        HANDLE,
        /** Lookup.findVarHandle */
        HANDLE_NEW_FIELD,
        /** Lookup.findStaticVarHandle */
        HANDLE_NEW_STATIC,
        /** MethodHandles.arrayElementVarHandle */
        HANDLE_NEW_ARRAY,
        /** an access through sun.misc.Unsafe or jdk.internal.misc.Unsafe */
        UNSAFE,
        /** Unsafe.objectFieldOffset */
        UNSAFE_OFFSET,
        /** a fence (VarHandle or Unsafe) */
        FENCE
    }

    /**
     * A call's treatment.
     *
     * @param treatment   what it is
     * @param kind        the event kind of an access or fence ({@link Kinds})
     * @param muting      the call runs a user function (getAndUpdate...): mute probes inside it
     * @param coordinates for a VarHandle access: how many leading arguments are coordinates
     */
    record Call(Treatment treatment, int kind, boolean muting, int coordinates) {
        static final Call NONE = new Call(Treatment.NONE, -1, false, 0);

        static Call of(Treatment t) {
            return new Call(t, -1, false, 0);
        }

        static Call access(Treatment t, int kind, boolean muting) {
            return new Call(t, kind, muting, 0);
        }
    }

    /**
     * The site mode of a {@link Treatment#JUC} call's events (checker.event.SiteModes): for StampedLock what the JDK
     * does inside (tryOptimisticRead a volatile read of the state, validate an acquire fence and that read, taking
     * the write lock a compare-and-set and a storeStoreFence), which the jmm analysis needs to see a seqlock in it;
     * empty for every other call.
     */
    static String jucMode(String owner, String name) {
        if (!owner.equals("java/util/concurrent/locks/StampedLock")) {
            return "";
        }
        return switch (name) {
            case "tryOptimisticRead" -> SiteModes.OPTIMISTIC_READ;
            case "validate" -> SiteModes.VALIDATE;
            case "writeLock", "tryWriteLock", "writeLockInterruptibly", "tryConvertToWriteLock" ->
                    SiteModes.WRITE_LOCK;
            default -> "";
        };
    }

    private static final Set<String> ATOMICS = Set.of("java/util/concurrent/atomic/AtomicInteger",
            "java/util/concurrent/atomic/AtomicLong", "java/util/concurrent/atomic/AtomicBoolean",
            "java/util/concurrent/atomic/AtomicReference");
    /**
     * The striped counters: each add is a CAS of one cell (or the base), a full fence; sum() reads the base and every
     * cell with volatile loads. One address stands for all the cells: the probes run the call under its stripe, so
     * that in the run itself no add falls between the reads of one sum().
     */
    private static final Set<String> ADDERS = Set.of("java/util/concurrent/atomic/LongAdder",
            "java/util/concurrent/atomic/DoubleAdder");
    /** Striped accumulators: as {@link #ADDERS}, but every read and accumulation runs the application's function. */
    private static final Set<String> ACCUMULATORS = Set.of("java/util/concurrent/atomic/LongAccumulator",
            "java/util/concurrent/atomic/DoubleAccumulator");
    /** A reference and a stamp (or mark) swapped together as one immutable pair in a volatile field. */
    private static final Set<String> PAIRS = Set.of("java/util/concurrent/atomic/AtomicStampedReference",
            "java/util/concurrent/atomic/AtomicMarkableReference");
    private static final Set<String> ATOMIC_ARRAYS = Set.of("java/util/concurrent/atomic/AtomicIntegerArray",
            "java/util/concurrent/atomic/AtomicLongArray", "java/util/concurrent/atomic/AtomicReferenceArray");
    private static final Set<String> UPDATERS = Set.of("java/util/concurrent/atomic/AtomicIntegerFieldUpdater",
            "java/util/concurrent/atomic/AtomicLongFieldUpdater",
            "java/util/concurrent/atomic/AtomicReferenceFieldUpdater");
    /**
     * The methods of a map that only read it: on a ConcurrentHashMap they make acquire loads and nothing that
     * can block, so a solo period may leave them out.
     */
    private static final Set<String> MAP_READS = Set.of("get(Ljava/lang/Object;)Ljava/lang/Object;",
            "containsKey(Ljava/lang/Object;)Z", "getOrDefault(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
            "containsValue(Ljava/lang/Object;)Z", "isEmpty()Z", "size()I", "mappingCount()J");
    /** The reference classes whose methods read or write the referent ({@link Treatment#REFERENCE}). */
    private static final Set<String> REFERENCES = Set.of("java/lang/ref/Reference", "java/lang/ref/WeakReference",
            "java/lang/ref/SoftReference", "java/lang/ref/PhantomReference");
    /**
     * The methods of a reference that touch the referent, by index (runtime Probes.lockReferent): get and refersTo
     * read it (the latter natively), clear writes null (natively, clear0, since JDK 16), enqueue clears it too and
     * then adds the reference to its queue.
     */
    static final java.util.List<String> REFERENT_METHODS = java.util.List.of("get()Ljava/lang/Object;",
            "refersTo(Ljava/lang/Object;)Z", "clear()V", "enqueue()Z");
    private static final Set<String> SYNCHRONIZED_CLASSES = Set.of("java/util/Vector", "java/util/Stack",
            "java/util/Hashtable", "java/lang/StringBuffer");

    /**
     * The treatment of {@code opcode owner.name desc}; {@code threadType} says whether {@code owner}
     * is java.lang.Thread or a subclass of it.
     */
    static Call classify(int opcode, String owner, String name, String desc, boolean threadType) {
        boolean isStatic = opcode == org.objectweb.asm.Opcodes.INVOKESTATIC;
        boolean isSpecial = opcode == org.objectweb.asm.Opcodes.INVOKESPECIAL;
        if (name.equals("<init>")) {
            return owner.startsWith("java/util/concurrent/") && !owner.startsWith("java/util/concurrent/atomic/")
                    ? Call.of(Treatment.JUC_FUNCTIONS) : Call.NONE;
        }
        if (threadType && !isStatic && !isSpecial) {
            if (name.equals("start") && desc.equals("()V")) {
                return Call.of(Treatment.START);
            }
            if (name.equals("join") && (desc.equals("()V") || desc.equals("(J)V") || desc.equals("(JI)V"))) {
                return Call.of(Treatment.JOIN);
            }
        }
        if (threadType && !isStatic) {
            Call c = thread(name, desc);
            if (c != null) {
                return c;
            }
        }
        if (owner.equals("java/lang/Thread") && isStatic) {
            if (name.equals("interrupted") && desc.equals("()Z")) {
                return Call.of(Treatment.INTERRUPTED);
            }
            // a thread the JDK starts: the probe makes it unstarted and starts it, to give it its edge
            return name.equals("startVirtualThread") && desc.equals("(Ljava/lang/Runnable;)Ljava/lang/Thread;")
                    ? Call.of(Treatment.START_VIRTUAL) : Call.NONE;
        }
        if (owner.startsWith("java/lang/Thread$Builder") && name.equals("start")) {
            return desc.equals("(Ljava/lang/Runnable;)Ljava/lang/Thread;") ? Call.of(Treatment.START_BUILT)
                    : Call.of(Treatment.UNMODELLED);
        }
        if (name.equals("wait") && !isStatic && (desc.equals("()V") || desc.equals("(J)V") || desc.equals("(JI)V"))) {
            return Call.of(Treatment.WAIT);
        }
        if (ATOMICS.contains(owner) && !isStatic) {
            if (name.equals("toString") && desc.equals("()Ljava/lang/String;")) {
                // a volatile read formatted; AtomicReference's calls the value's toString, code of the application's
                return Call.access(Treatment.ATOMIC, Kinds.LOAD, owner.endsWith("AtomicReference"));
            }
            int k = AtomicModel.accessKind(name);
            return k < 0 ? leftOver(name) : Call.access(Treatment.ATOMIC, k, AtomicModel.isFunctional(name));
        }
        if (ADDERS.contains(owner) && !isStatic) {
            int k = AtomicModel.adderKind(name);
            return k < 0 ? leftOver(name) : Call.access(Treatment.ATOMIC, k, false);
        }
        if (ACCUMULATORS.contains(owner) && !isStatic) {
            int k = AtomicModel.adderKind(name);
            if (name.equals("accumulate") || name.equals("get") || name.equals("getThenReset")) {
                k = name.equals("get") ? Kinds.LOAD : Kinds.INTERLOCKED;
            }
            // every read combines the cells with the application's function, and accumulate applies it: run muted;
            // reset() stores the identity and runs nothing
            return k < 0 ? leftOver(name) : Call.access(Treatment.ATOMIC, k, !name.equals("reset"));
        }
        if (PAIRS.contains(owner) && !isStatic) {
            Call c = AtomicModel.pair(name, desc);
            return c == Call.NONE ? leftOver(name) : c;
        }
        if (ATOMIC_ARRAYS.contains(owner) && !isStatic) {
            int k = AtomicModel.accessKind(name);
            return k < 0 ? leftOver(name) : Call.access(Treatment.ATOMIC_ARRAY, k, AtomicModel.isFunctional(name));
        }
        if (UPDATERS.contains(owner)) {
            if (isStatic && name.equals("newUpdater")) {
                return Call.of(Treatment.UPDATER_NEW);
            }
            int k = isStatic ? -1 : AtomicModel.accessKind(name);
            return k >= 0 ? Call.access(Treatment.UPDATER, k, AtomicModel.isFunctional(name))
                    : isStatic ? Call.NONE : leftOver(name);
        }
        if (owner.equals("java/lang/invoke/VarHandle")) {
            return AtomicModel.handle(name, desc, isStatic);
        }
        if (owner.equals("java/lang/invoke/MethodHandles$Lookup")) {
            if (name.equals("findVarHandle")) {
                return Call.of(Treatment.HANDLE_NEW_FIELD);
            }
            if (name.equals("findStaticVarHandle")) {
                return Call.of(Treatment.HANDLE_NEW_STATIC);
            }
            return Call.NONE;
        }
        if (owner.equals("java/lang/invoke/MethodHandles") && name.equals("arrayElementVarHandle")) {
            return Call.of(Treatment.HANDLE_NEW_ARRAY);
        }
        if (owner.equals("sun/misc/Unsafe") || owner.equals("jdk/internal/misc/Unsafe")) {
            return AtomicModel.unsafe(name, desc);
        }
        if (owner.equals("java/util/concurrent/ThreadLocalRandom")) {
            // its methods read and write the calling thread's seed with plain accesses and synchronize with no one,
            // except nextGaussian, which it inherits from Random: synchronized, on the one instance all threads share
            return isStatic && name.equals("current") ? Call.of(Treatment.JUC_FIRST_CALL)
                    : name.equals("nextGaussian") ? Call.of(Treatment.JUC) : Call.NONE;
        }
        if (owner.equals("java/util/concurrent/TimeUnit")) {
            // unit arithmetic and sleep (Thread.sleep: no synchronization in the memory model); a timed join or wait is
            if (name.equals("timedJoin") && desc.equals("(Ljava/lang/Thread;J)V")) {
                return Call.of(Treatment.TIMED_JOIN);
            }
            return name.equals("timedWait") && desc.equals("(Ljava/lang/Object;J)V") ? Call.of(Treatment.TIMED_WAIT)
                    : Call.NONE;
        }
        if (owner.equals("java/util/concurrent/locks/LockSupport")) {
            // a park returns after an unpark of its thread (or spuriously): both on the parked thread's address
            return name.startsWith("park") ? Call.of(Treatment.PARK)
                    : name.equals("unpark") ? Call.of(Treatment.UNPARK) : Call.NONE; // getBlocker: a plain read
        }
        boolean mapRead = !isStatic && MAP_READS.contains(name + desc);
        if (mapRead && (owner.equals("java/util/concurrent/ConcurrentHashMap") || owner.equals("java/util/concurrent/ConcurrentMap"))) {
            return Call.of(Treatment.JUC_READ);
        }
        if (owner.startsWith("java/util/concurrent/") && !owner.startsWith("java/util/concurrent/atomic/")) {
            return Call.of(Treatment.JUC);
        }
        if (mapRead && owner.equals("java/util/Map") && opcode == org.objectweb.asm.Opcodes.INVOKEINTERFACE) {
            return Call.of(Treatment.MAYBE_JUC_READ);
        }
        if (SYNCHRONIZED_CLASSES.contains(owner) || (owner.startsWith("java/io/") && !isStatic)) {
            return Call.of(Treatment.JUC);
        }
        if (REFERENCES.contains(owner) && !isStatic) {
            int method = REFERENT_METHODS.indexOf(name + desc);
            if (method >= 0 && !(method == 0 && owner.equals("java/lang/ref/PhantomReference"))) {
                // a phantom reference's get() returns null without reading the referent
                // a super call runs the JDK's method whatever the receiver's class overrides (runtime lockReferent)
                return new Call(Treatment.REFERENCE, method < 2 ? Kinds.LOAD : Kinds.STORE, false,
                        method | (isSpecial ? 4 : 0));
            }
        }
        if (owner.equals("java/lang/reflect/Field") && !isStatic && (name.startsWith("get") || name.startsWith("set"))
                && desc.startsWith("(Ljava/lang/Object;")) {
            return Call.of(Treatment.REFLECTIVE);
        }
        if (mayWait(owner, name, isStatic)) {
            return Call.of(Treatment.UNMODELLED);
        }
        if (opcode == org.objectweb.asm.Opcodes.INVOKEINTERFACE && owner.startsWith("java/util/")
                && owner.indexOf('/', "java/util/".length()) < 0) {
            return Call.of(Treatment.MAYBE_JUC);
        }
        return Call.NONE;
    }

    /**
     * A method of java.lang.Thread on an instance whose memory effect the JLS defines (17.4.4: an interrupt
     * synchronizes with the points that see it; a thread's end with the isAlive() that returns false) or that may
     * synchronize, or null for the others, which synchronize with no other thread (sleep, yield, onSpinWait, the
     * name, priority, daemon flag, stack trace...).
     */
    private static Call thread(String name, String desc) {
        switch (name) {
            case "interrupt":
                return desc.equals("()V") ? new Call(Treatment.INTERRUPT, Kinds.VOLATILE_STORE, true, 0) : null;
            case "isInterrupted":
                return desc.equals("()Z") ? Call.access(Treatment.INTERRUPT_READ, Kinds.LOAD, false) : null;
            case "isAlive":
                return desc.equals("()Z") ? Call.of(Treatment.ALIVE) : null;
            case "getState":
                return desc.equals("()Ljava/lang/Thread$State;") ? Call.of(Treatment.STATE) : null;
            case "stop": case "suspend": case "resume":
                return Call.of(Treatment.UNMODELLED); // unsupported since JDK 20, deprecated before
            default:
                return null;
        }
    }

    /**
     * A method of an atomic class the model has no row for: Object's own (equals, hashCode: identity), an array's
     * length (final) synchronize nothing; anything else (an atomic array's toString reads every element) is
     * {@link Treatment#UNMODELLED}.
     */
    private static Call leftOver(String name) {
        switch (name) {
            case "equals": case "hashCode": case "getClass": case "length": case "notify": case "notifyAll":
                return Call.NONE;
            default:
                return Call.of(Treatment.UNMODELLED);
        }
    }

    /**
     * Whether a call into the JDK outside java.util.concurrent may synchronize with another thread in a way the
     * model does not follow: reference queues, cleaners, a reference's enqueue state and reachabilityFence
     * (java.lang.ref's happens-before rules run through the collector); channels (a pipe's or a socket's write and
     * read, on threads of one JVM); java.util.Timer (its queue's lock hands a task to the timer's thread). Each is
     * {@link Treatment#UNMODELLED}: a full fence, counted and named. The methods of a reference that read or write
     * its referent are modelled as the accesses they are ({@link Treatment#REFERENCE}).
     */
    static boolean mayWait(String owner, String name, boolean isStatic) {
        if (owner.startsWith("java/lang/ref/")) {
            switch (owner) {
                case "java/lang/ref/ReferenceQueue":
                    return name.equals("poll") || name.equals("remove");
                case "java/lang/ref/Cleaner":
                    return name.equals("register");
                case "java/lang/ref/Cleaner$Cleanable":
                    return name.equals("clean");
                default:
                    return name.equals("isEnqueued") || name.equals("reachabilityFence");
            }
        }
        if (owner.startsWith("java/nio/channels/")) {
            return !isStatic;
        }
        if (owner.equals("java/util/Timer")) {
            return name.startsWith("schedule") || name.equals("cancel") || name.equals("purge");
        }
        return owner.equals("java/util/TimerTask") && name.equals("cancel");
    }
}
