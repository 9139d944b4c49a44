package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * Every runtime method the rewritten code calls, with its descriptor, in one table: the rewriter emits
 * calls only through it, and ProbeTableTest checks each against the real signatures of
 * {@code dev.mmcheck.runtime.Probes} and {@code SyncTasks}, so a mistyped descriptor fails a test
 * instead of the user's application ({@code NoSuchMethodError}).
 *
 * <p>The names say what the probe does around the application's own instruction: {@code lock*} takes the
 * address's stripe before an access, {@code logLoad*} writes the event after a load and releases the
 * stripe, {@code logStore*} writes it before a store (released by {@code unlock} after the store),
 * {@code load*} performs a load itself (so that it can leave a repeated one unlogged), {@code log*}
 * writes an event that needs no separate lock.
 */
enum Probe {
    /** The calling thread's log, into a local at method entry. */
    THREAD_LOG("threadLog", "()" + Desc.LOG),
    /** The site of the call that reached the running method, as the log holds it at entry (docs/report-format.md, "One finding per race"). */
    CALLER("caller", "(" + Desc.LOG + ")I"),
    /** Before a call (the call's site) and after it (what {@link #CALLER} gave): (log, site). */
    CALL_FROM("callFrom", "(" + Desc.LOG + "I)V"),

    /** Lock before GETFIELD/PUTFIELD of a volatile field (always logged): (object, log, field id). */
    LOCK_FIELD("lockField", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** Lock before GETFIELD/PUTFIELD of a plain field (unlogged on objects sample= leaves out): (object, log, field id). */
    LOCK_PLAIN_FIELD("lockPlainField", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** Lock before GETSTATIC/PUTSTATIC: (log, field id). */
    LOCK_STATIC("lockStatic", "(" + Desc.LOG + "I)V"),
    LOCK_VOLATILE_STORE("lockVolatileStore", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    LOCK_STATIC_VOLATILE_STORE("lockStaticVolatileStore", "(" + Desc.LOG + "I)V"),
    /** Lock before GETSTATIC of a static final: (log, field id); only the thread's first read of it is logged. */
    LOCK_STATIC_FINAL("lockStaticFinal", "(" + Desc.LOG + "I)V"),
    /** Lock before an array element load (AALOAD) or a primitive element store: (array, index, log). */
    LOCK_ELEMENT("lockElement", "(Ljava/lang/Object;I" + Desc.LOG + ")V"),
    /** Lock before AASTORE: (array, index, value, log); takes nothing when the store will throw. */
    LOCK_ELEMENT_STORE("lockElementStore", "([Ljava/lang/Object;ILjava/lang/Object;" + Desc.LOG + ")V"),
    /** {@link #LOCK_PLAIN_FIELD} for the first access of a group (MethodRewriter.groups): a solo window stays open after it. */
    LOCK_PLAIN_FIELD_FIRST("lockPlainFieldFirst", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** {@link #LOCK_PLAIN_FIELD} for a later access of a group. */
    LOCK_PLAIN_FIELD_IN("lockPlainFieldIn", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** {@link #LOCK_ELEMENT} for the first access of a group. */
    LOCK_ELEMENT_FIRST("lockElementFirst", "(Ljava/lang/Object;I" + Desc.LOG + ")V"),
    /** {@link #LOCK_ELEMENT} for a later access of a group. */
    LOCK_ELEMENT_IN("lockElementIn", "(Ljava/lang/Object;I" + Desc.LOG + ")V"),
    /** {@link #LOCK_ELEMENT_STORE} for the first access of a group. */
    LOCK_ELEMENT_STORE_FIRST("lockElementStoreFirst", "([Ljava/lang/Object;ILjava/lang/Object;" + Desc.LOG + ")V"),
    /** {@link #LOCK_ELEMENT_STORE} for a later access of a group. */
    LOCK_ELEMENT_STORE_IN("lockElementStoreIn", "([Ljava/lang/Object;ILjava/lang/Object;" + Desc.LOG + ")V"),
    /** After the last access of a group: closes the window its first access left open: (log). */
    END_GROUP("endGroup", "(" + Desc.LOG + ")V"),
    /** Lock before a call on an Atomic{Integer,Long,Boolean,Reference}: (atomic, log). */
    LOCK_ATOMIC("lockAtomic", "(Ljava/lang/Object;" + Desc.LOG + ")V"),
    /** Lock before a call on an Atomic*Array element: (array, index, log). */
    LOCK_ATOMIC_ELEMENT("lockAtomicElement", "(Ljava/lang/Object;I" + Desc.LOG + ")V"),
    /** Lock before a field updater call: (updater, target, log). */
    LOCK_UPDATER("lockUpdater", "(Ljava/lang/Object;Ljava/lang/Object;" + Desc.LOG + ")V"),
    /** Lock before a VarHandle access: (handle, coordinate 0, coordinate 1, how many coordinates, log). */
    LOCK_HANDLE("lockHandle", "(Ljava/lang/Object;Ljava/lang/Object;II" + Desc.LOG + ")V"),
    /** Lock before an Unsafe access: (object, offset, log). */
    LOCK_UNSAFE("lockUnsafe", "(Ljava/lang/Object;J" + Desc.LOG + ")V"),
    /** {@link #LOCK_HANDLE} for an access that runs no user function, which a solo period leaves out. */
    LOCK_HANDLE_UNLESS_SOLO("lockHandleUnlessSolo", "(Ljava/lang/Object;Ljava/lang/Object;II" + Desc.LOG + ")V"),
    /** {@link #LOCK_ATOMIC} for a call that runs no user function, which a solo period leaves out. */
    LOCK_ATOMIC_UNLESS_SOLO("lockAtomicUnlessSolo", "(Ljava/lang/Object;" + Desc.LOG + ")V"),
    /** {@link #LOCK_ATOMIC_ELEMENT} for a call that runs no user function, which a solo period leaves out. */
    LOCK_ATOMIC_ELEMENT_UNLESS_SOLO("lockAtomicElementUnlessSolo", "(Ljava/lang/Object;I" + Desc.LOG + ")V"),
    /** {@link #LOCK_UPDATER} for a call that runs no user function, which a solo period leaves out. */
    LOCK_UPDATER_UNLESS_SOLO("lockUpdaterUnlessSolo", "(Ljava/lang/Object;Ljava/lang/Object;" + Desc.LOG + ")V"),
    /** {@link #LOCK_UNSAFE} for an access that runs no user function, which a solo period leaves out. */
    LOCK_UNSAFE_UNLESS_SOLO("lockUnsafeUnlessSolo", "(Ljava/lang/Object;J" + Desc.LOG + ")V"),

    /** Log after an int-typed load, then unlock: (value, log, site). */
    LOG_LOAD_I("logLoadI", "(I" + Desc.LOG + "I)V"),
    /** Log after a long load. */
    LOG_LOAD_J("logLoadJ", "(J" + Desc.LOG + "I)V"),
    /** Log after a float load. */
    LOG_LOAD_F("logLoadF", "(F" + Desc.LOG + "I)V"),
    /** Log after a double load. */
    LOG_LOAD_D("logLoadD", "(D" + Desc.LOG + "I)V"),
    /** Log after a reference load. */
    LOG_LOAD_A("logLoadA", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),

    /** Log before an int-typed store of a kind (store, volatile store): (value, log, site, kind). */
    LOG_STORE_I("logStoreI", "(I" + Desc.LOG + "II)V"),
    /** Log before a long store. */
    LOG_STORE_J("logStoreJ", "(J" + Desc.LOG + "II)V"),
    /** Log before a float store. */
    LOG_STORE_F("logStoreF", "(F" + Desc.LOG + "II)V"),
    /** Log before a double store. */
    LOG_STORE_D("logStoreD", "(D" + Desc.LOG + "II)V"),
    /** Log before a reference store. */
    LOG_STORE_A("logStoreA", "(Ljava/lang/Object;" + Desc.LOG + "II)V"),
    /** Release the stripe after a store, or after a bracketed call that threw. */
    UNLOCK("unlock", "(" + Desc.LOG + ")V"),

    /** Replaces IALOAD: (array, index, log, site) -> element. */
    LOAD_ELEMENT_I("loadElementI", "([II" + Desc.LOG + "I)I"),
    /** Replaces LALOAD. */
    LOAD_ELEMENT_J("loadElementJ", "([JI" + Desc.LOG + "I)J"),
    /** Replaces FALOAD. */
    LOAD_ELEMENT_F("loadElementF", "([FI" + Desc.LOG + "I)F"),
    /** Replaces DALOAD. */
    LOAD_ELEMENT_D("loadElementD", "([DI" + Desc.LOG + "I)D"),
    /** Replaces BALOAD (byte[] or boolean[]). */
    LOAD_ELEMENT_B("loadElementB", "(Ljava/lang/Object;I" + Desc.LOG + "I)I"),
    /** Replaces CALOAD. */
    LOAD_ELEMENT_C("loadElementC", "([CI" + Desc.LOG + "I)I"),
    /** Replaces SALOAD. */
    LOAD_ELEMENT_S("loadElementS", "([SI" + Desc.LOG + "I)I"),
    /** {@link #LOAD_ELEMENT_I} for a later access of a group (MethodRewriter.groups). */
    LOAD_ELEMENT_I_IN("loadElementIIn", "([II" + Desc.LOG + "I)I"),
    /** {@link #LOAD_ELEMENT_J} in a group. */
    LOAD_ELEMENT_J_IN("loadElementJIn", "([JI" + Desc.LOG + "I)J"),
    /** {@link #LOAD_ELEMENT_F} in a group. */
    LOAD_ELEMENT_F_IN("loadElementFIn", "([FI" + Desc.LOG + "I)F"),
    /** {@link #LOAD_ELEMENT_D} in a group. */
    LOAD_ELEMENT_D_IN("loadElementDIn", "([DI" + Desc.LOG + "I)D"),
    /** {@link #LOAD_ELEMENT_B} in a group. */
    LOAD_ELEMENT_B_IN("loadElementBIn", "(Ljava/lang/Object;I" + Desc.LOG + "I)I"),
    /** {@link #LOAD_ELEMENT_C} in a group. */
    LOAD_ELEMENT_C_IN("loadElementCIn", "([CI" + Desc.LOG + "I)I"),
    /** {@link #LOAD_ELEMENT_S} in a group. */
    LOAD_ELEMENT_S_IN("loadElementSIn", "([SI" + Desc.LOG + "I)I"),

    /** After a bracketed call: log the access of a kind, then unlock: (log, site, kind). */
    LOG_CALL("logCall", "(" + Desc.LOG + "II)V"),
    /**
     * After AtomicStampedReference.get(int[]) or AtomicMarkableReference.get(boolean[]): the JDK's store into element
     * 0 of the holder, logged as a plain store of the calling thread: (holder, log, site).
     */
    HOLDER_STORED("holderStored", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** Before a bracketed call that runs a user function (getAndUpdate...): its accesses are not logged. */
    MUTE("mute", "(" + Desc.LOG + ")V"),
    /** Before the lock probe of a bracketed call that writes: under sampling the lock probe takes its flush ticket. */
    BRACKET_WRITES("bracketWrites", "(" + Desc.LOG + ")V"),
    /** {@link #LOG_CALL} after a muted call. */
    LOG_CALL_UNMUTE("logCallUnmute", "(" + Desc.LOG + "II)V"),
    /** Before a {@code LOG_CAS*} probe after a muted call: its accesses are logged again: (log). */
    UNMUTE("unmute", "(" + Desc.LOG + ")V"),
    /**
     * After a compare-and-set that returns whether it succeeded: the CAS at the site, or at its failure site when it
     * failed, then unlock: (ok, log, site, failed site).
     */
    LOG_CAS("logCas", "(Z" + Desc.LOG + "II)V"),
    /** After an int-typed compareAndExchange: {@link #LOG_CAS} by witness and expected value: (witness, expected, log, site, failed site). */
    LOG_CAS_I("logCasI", "(II" + Desc.LOG + "II)V"),
    /** {@link #LOG_CAS_I} for a long. */
    LOG_CAS_J("logCasJ", "(JJ" + Desc.LOG + "II)V"),
    /** {@link #LOG_CAS_I} for a float (raw bits). */
    LOG_CAS_F("logCasF", "(FF" + Desc.LOG + "II)V"),
    /** {@link #LOG_CAS_I} for a double (raw bits). */
    LOG_CAS_D("logCasD", "(DD" + Desc.LOG + "II)V"),
    /** {@link #LOG_CAS_I} for a reference: (witness, expected, the VarHandle or null, log, site, failed site). */
    LOG_CAS_A("logCasA", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;" + Desc.LOG + "II)V"),
    /** {@link #UNLOCK} after a muted call threw. */
    UNLOCK_UNMUTE("unlockUnmute", "(" + Desc.LOG + ")V"),

    /** After monitorenter, or a synchronized method's entry: (monitor, log, site). */
    LOG_MONITOR_ENTER("logMonitorEnter", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** Before monitorexit, or each exit of a synchronized method. */
    LOG_MONITOR_EXIT("logMonitorExit", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** Replaces {@code o.wait()}: (o, log, site). */
    WAIT_0("wait0", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** Replaces {@code o.wait(ms)}. */
    WAIT_1("wait1", "(Ljava/lang/Object;J" + Desc.LOG + "I)V"),
    /** Replaces {@code o.wait(ms, ns)}. */
    WAIT_2("wait2", "(Ljava/lang/Object;JI" + Desc.LOG + "I)V"),
    /** A fence of a kind (full, StoreStore, load): (log, site, kind). */
    LOG_FENCE("logFence", "(" + Desc.LOG + "II)V"),
    /**
     * Before a call into java.util.concurrent: an interlocked event on the address of the receiver's synchronization
     * (null for a static call): (receiver, log, site).
     */
    LOG_JUC_BEFORE("logJucBefore", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** After it, also when it throws: (receiver, log, site). */
    LOG_JUC_AFTER("logJucAfter", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** After ThreadLocalRandom.current(): {@link #LOG_JUC_BEFORE} on the seeder, on the thread's first such call only: (log, site). */
    LOG_JUC_FIRST("logJucFirst", "(" + Desc.LOG + "I)V"),
    /** Before a call that only reads a map: LOG_JUC_BEFORE or LOG_JUC_IF, left out in a solo period on a ConcurrentHashMap: (receiver, log, site, jucOwner). */
    LOG_MAP_READ_BEFORE("logMapReadBefore", "(Ljava/lang/Object;" + Desc.LOG + "II)V"),
    /** After it: the same. */
    LOG_MAP_READ_AFTER("logMapReadAfter", "(Ljava/lang/Object;" + Desc.LOG + "II)V"),
    /** {@link #LOG_JUC_BEFORE} when the receiver of a java.util interface call synchronizes: (receiver, log, site). */
    LOG_JUC_IF("logJucIf", "(Ljava/lang/Object;" + Desc.LOG + "I)V"),
    /** An atomic method begins: (log, site). */
    TX_BEGIN("txBegin", "(" + Desc.LOG + "I)V"),
    /** An atomic method ends, normally or by an exception. */
    TX_END("txEnd", "(" + Desc.LOG + "I)V"),
    /**
     * Before a JDK call that may synchronize and is not modelled: a full fence, counted under the callee's id
     * (runtime Unmodelled): (log, site, callee).
     */
    UNMODELLED_CALL("unmodelledCall", "(" + Desc.LOG + "II)V"),
    /** Before Field.get*(o)/set*(o, v): {@link #UNMODELLED_CALL} when the field is volatile: (field, log, site, callee). */
    REFLECTIVE_ACCESS("reflectiveAccess", "(Ljava/lang/reflect/Field;" + Desc.LOG + "II)V"),
    /** Lock before Thread.interrupt(), isInterrupted() or interrupted(): (thread, log); its interrupt status. */
    LOCK_INTERRUPT("lockInterrupt", "(Ljava/lang/Object;" + Desc.LOG + ")V"),
    /**
     * After Thread.interrupted(): a load at the read site, or when it returned true (and cleared the status) a CAS at
     * the site; unlock: (result, log, site, read site).
     */
    LOG_INTERRUPTED("logInterrupted", "(Z" + Desc.LOG + "II)V"),
    /** After Thread.isAlive(): a join when it returned false: (alive, thread, log, site). */
    ALIVE_CHECKED("aliveChecked", "(ZLjava/lang/Thread;" + Desc.LOG + "I)V"),
    /** After Thread.getState(): a join when it returned TERMINATED: (state, thread, log, site). */
    STATE_CHECKED("stateChecked", "(Ljava/lang/Thread$State;Ljava/lang/Thread;" + Desc.LOG + "I)V"),
    /** Replaces {@code unit.timedJoin(thread, timeout)}: (unit, thread, timeout, log, site). */
    TIMED_JOIN("timedJoin", "(Ljava/util/concurrent/TimeUnit;Ljava/lang/Thread;J" + Desc.LOG + "I)V"),
    /** Replaces {@code unit.timedWait(monitor, timeout)}: (unit, monitor, timeout, log, site). */
    TIMED_WAIT("timedWait", "(Ljava/util/concurrent/TimeUnit;Ljava/lang/Object;J" + Desc.LOG + "I)V"),
    /**
     * Lock before Reference.get, refersTo, clear or enqueue (by index, JdkModel.REFERENT_METHODS): the referent's
     * address, unless the receiver's class overrides the method (its instrumented code is seen): (reference, method, log).
     */
    LOCK_REFERENT("lockReferent", "(Ljava/lang/Object;I" + Desc.LOG + ")V"),
    /** Replaces {@code t.start()}: (thread, log, site). */
    START_THREAD("startThread", "(Ljava/lang/Thread;" + Desc.LOG + "I)V"),
    /** Replaces {@code builder.start(task)} (Thread.Builder, Java 21+): (builder, task, log, site), returns the thread. */
    START_BUILT("startBuilt", "(Ljava/lang/Object;Ljava/lang/Runnable;" + Desc.LOG + "I)Ljava/lang/Thread;"),
    /** Replaces {@code Thread.startVirtualThread(task)} (Java 21+): (task, log, site), returns the thread. */
    START_VIRTUAL("startVirtual", "(Ljava/lang/Runnable;" + Desc.LOG + "I)Ljava/lang/Thread;"),
    /** Replaces {@code t.join()}. */
    JOIN_THREAD_0("joinThread0", "(Ljava/lang/Thread;" + Desc.LOG + "I)V"),
    /** Replaces {@code t.join(ms)}. */
    JOIN_THREAD_1("joinThread1", "(Ljava/lang/Thread;J" + Desc.LOG + "I)V"),
    /** Replaces {@code t.join(ms, ns)}. */
    JOIN_THREAD_2("joinThread2", "(Ljava/lang/Thread;JI" + Desc.LOG + "I)V"),

    /** After {@code newUpdater}: (updater, class, field name). */
    UPDATER_CREATED("updaterCreated", "(Ljava/lang/Object;Ljava/lang/Class;Ljava/lang/String;)V"),
    /** After {@code findVarHandle}/{@code findStaticVarHandle}: (handle, class, name, static). */
    FIELD_HANDLE_CREATED("fieldHandleCreated", "(Ljava/lang/invoke/VarHandle;Ljava/lang/Class;Ljava/lang/String;Z)V"),
    /** After {@code arrayElementVarHandle}: (handle). */
    ARRAY_HANDLE_CREATED("arrayHandleCreated", "(Ljava/lang/invoke/VarHandle;)V"),
    /** After {@code objectFieldOffset}: (offset, field). */
    OFFSET_CREATED("offsetCreated", "(JLjava/lang/reflect/Field;)V"),

    /** Wraps a function handed to java.util.concurrent when the receiver synchronizes: (receiver, f, kind, site). */
    WRAP_IF(Desc.TASKS, "wrapIf", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;I)Ljava/lang/Object;"),
    /** Wraps a Runnable handed to a call on a receiver (null for a constructor or a static call): (f, receiver, site). */
    RUNNABLE(Desc.TASKS, "runnable", "(Ljava/lang/Runnable;Ljava/lang/Object;I)Ljava/lang/Runnable;"),
    /** Wraps a Callable. */
    CALLABLE(Desc.TASKS, "callable", "(Ljava/util/concurrent/Callable;Ljava/lang/Object;I)Ljava/util/concurrent/Callable;"),
    /** Wraps a Supplier. */
    SUPPLIER(Desc.TASKS, "supplier", "(Ljava/util/function/Supplier;Ljava/lang/Object;I)Ljava/util/function/Supplier;"),
    /** Wraps a Function. */
    FUNCTION(Desc.TASKS, "function", "(Ljava/util/function/Function;Ljava/lang/Object;I)Ljava/util/function/Function;"),
    /** Wraps a UnaryOperator. */
    UNARY_OPERATOR(Desc.TASKS, "unaryOperator",
            "(Ljava/util/function/UnaryOperator;Ljava/lang/Object;I)Ljava/util/function/UnaryOperator;"),
    /** Wraps a BiFunction. */
    BI_FUNCTION(Desc.TASKS, "biFunction", "(Ljava/util/function/BiFunction;Ljava/lang/Object;I)Ljava/util/function/BiFunction;"),
    /** Wraps a BinaryOperator. */
    BINARY_OPERATOR(Desc.TASKS, "binaryOperator",
            "(Ljava/util/function/BinaryOperator;Ljava/lang/Object;I)Ljava/util/function/BinaryOperator;"),
    /** Wraps a Consumer. */
    CONSUMER(Desc.TASKS, "consumer", "(Ljava/util/function/Consumer;Ljava/lang/Object;I)Ljava/util/function/Consumer;"),
    /** Wraps a BiConsumer. */
    BI_CONSUMER(Desc.TASKS, "biConsumer", "(Ljava/util/function/BiConsumer;Ljava/lang/Object;I)Ljava/util/function/BiConsumer;"),
    /** Wraps a Predicate. */
    PREDICATE(Desc.TASKS, "predicate", "(Ljava/util/function/Predicate;Ljava/lang/Object;I)Ljava/util/function/Predicate;");

    /** Internal names and descriptors the table is written with. */
    static final class Desc {
        /** The facade instrumented code calls. */
        static final String PROBES = "dev/mmcheck/runtime/Probes";
        /** Wrappers of functions handed to java.util.concurrent. */
        static final String TASKS = "dev/mmcheck/runtime/SyncTasks";
        /** A thread's log, as a descriptor. */
        static final String LOG = "Ldev/mmcheck/runtime/ThreadLog;";

        private Desc() {
        }
    }

    /** The class declaring the method (internal name). */
    final String owner;
    /** The method's name. */
    final String method;
    /** The method's descriptor. */
    final String descriptor;

    Probe(String method, String descriptor) {
        this(Desc.PROBES, method, descriptor);
    }

    Probe(String owner, String method, String descriptor) {
        this.owner = owner;
        this.method = method;
        this.descriptor = descriptor;
    }

    /** A call of this probe (INVOKESTATIC). */
    MethodInsnNode call() {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, owner, method, descriptor, false);
    }

    /** The log-after-load probe for a value of letter I, J, F, D or A. */
    static Probe logLoad(char letter) {
        return switch (letter) {
            case 'J' -> LOG_LOAD_J;
            case 'F' -> LOG_LOAD_F;
            case 'D' -> LOG_LOAD_D;
            case 'A' -> LOG_LOAD_A;
            default -> LOG_LOAD_I;
        };
    }

    /** The log-before-store probe for a value of letter I, J, F, D or A. */
    static Probe logStore(char letter) {
        return switch (letter) {
            case 'J' -> LOG_STORE_J;
            case 'F' -> LOG_STORE_F;
            case 'D' -> LOG_STORE_D;
            case 'A' -> LOG_STORE_A;
            default -> LOG_STORE_I;
        };
    }

    /** The probe after a compareAndExchange whose witness is of letter I, J, F, D or A. */
    static Probe logCas(char letter) {
        return switch (letter) {
            case 'J' -> LOG_CAS_J;
            case 'F' -> LOG_CAS_F;
            case 'D' -> LOG_CAS_D;
            case 'A' -> LOG_CAS_A;
            default -> LOG_CAS_I;
        };
    }

    /** {@link #loadElement} for a later access of a group: its {@code _IN} twin. */
    static Probe loadElementInGroup(char suffix) {
        return valueOf(loadElement(suffix).name() + "_IN");
    }

    /** The probe replacing a primitive element load, by the element's letter (IJFDBCS). */
    static Probe loadElement(char suffix) {
        return switch (suffix) {
            case 'J' -> LOAD_ELEMENT_J;
            case 'F' -> LOAD_ELEMENT_F;
            case 'D' -> LOAD_ELEMENT_D;
            case 'B' -> LOAD_ELEMENT_B;
            case 'C' -> LOAD_ELEMENT_C;
            case 'S' -> LOAD_ELEMENT_S;
            default -> LOAD_ELEMENT_I;
        };
    }

    /** The probe replacing {@code join} or {@code wait} with {@code arguments} arguments. */
    static Probe join(int arguments) {
        return arguments == 0 ? JOIN_THREAD_0 : arguments == 1 ? JOIN_THREAD_1 : JOIN_THREAD_2;
    }

    /** The probe replacing {@code wait} with {@code arguments} arguments. */
    static Probe waitOn(int arguments) {
        return arguments == 0 ? WAIT_0 : arguments == 1 ? WAIT_1 : WAIT_2;
    }

    /** The wrapper of a function of this type descriptor handed to java.util.concurrent, or null. */
    static Probe wrapper(String descriptor) {
        return switch (descriptor) {
            case "Ljava/lang/Runnable;" -> RUNNABLE;
            case "Ljava/util/concurrent/Callable;" -> CALLABLE;
            case "Ljava/util/function/Supplier;" -> SUPPLIER;
            case "Ljava/util/function/Function;" -> FUNCTION;
            case "Ljava/util/function/UnaryOperator;" -> UNARY_OPERATOR;
            case "Ljava/util/function/BiFunction;" -> BI_FUNCTION;
            case "Ljava/util/function/BinaryOperator;" -> BINARY_OPERATOR;
            case "Ljava/util/function/Consumer;" -> CONSUMER;
            case "Ljava/util/function/BiConsumer;" -> BI_CONSUMER;
            case "Ljava/util/function/Predicate;" -> PREDICATE;
            default -> null;
        };
    }
}
