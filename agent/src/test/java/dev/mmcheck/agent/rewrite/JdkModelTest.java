package dev.mmcheck.agent.rewrite;

import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

import static dev.mmcheck.agent.rewrite.JdkModel.Treatment.ATOMIC;
import static dev.mmcheck.agent.rewrite.JdkModel.Treatment.FENCE;
import static dev.mmcheck.agent.rewrite.JdkModel.Treatment.HANDLE;
import static dev.mmcheck.agent.rewrite.JdkModel.Treatment.JUC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mapping of JDK calls to events: each access mode of atomics, VarHandles and Unsafe, fences, threads. */
class JdkModelTest {

    private static JdkModel.Call virt(String owner, String name, String desc) {
        return JdkModel.classify(Opcodes.INVOKEVIRTUAL, owner, name, desc, false);
    }

    /** The mode a site records beyond its kind, which decides a finding's category (race or relaxed). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', nullValues = "-", value = {
        "ATOMIC       | get               | volatile",
        "ATOMIC       | intValue          | volatile",
        "ATOMIC       | getPlain          | -",
        "ATOMIC       | getAcquire        | acquire",
        "ATOMIC       | getOpaque         | opaque",
        "ATOMIC       | setOpaque         | opaque",
        "ATOMIC       | setPlain          | -",
        "ATOMIC       | lazySet           | -",
        "ATOMIC       | compareAndSet     | -",
        "ATOMIC       | sum               | volatile",
        "ATOMIC       | getReference      | volatile",
        "ATOMIC_HOLDER | get              | volatile",
        "ATOMIC_ARRAY | get               | volatile",
        "UPDATER      | get               | volatile",
        "HANDLE       | get               | -",
        "HANDLE       | getVolatile       | volatile",
        "HANDLE       | getAcquire        | acquire",
        "HANDLE       | set               | -",
        "UNSAFE       | getInt            | -",
        "UNSAFE       | getIntVolatile    | volatile",
        "UNSAFE       | getObjectAcquire  | acquire",
        "UNSAFE       | putIntVolatile    | -",
    })
    void sitesRecordTheModeTheKindDoesNotSay(JdkModel.Treatment treatment, String method, String mode) {
        assertEquals(mode == null ? "" : mode, JdkModel.mode(treatment, method), treatment + " " + method);
    }

    @Test
    void atomicsByAccessMode() {
        String ai = "java/util/concurrent/atomic/AtomicInteger";
        assertEquals(Kinds.LOAD, virt(ai, "get", "()I").kind());
        assertEquals(Kinds.LOAD, virt(ai, "getAcquire", "()I").kind());
        assertEquals(Kinds.LOAD, virt(ai, "getOpaque", "()I").kind());
        assertEquals(Kinds.VOLATILE_STORE, virt(ai, "set", "(I)V").kind());
        assertEquals(Kinds.RELEASE_STORE, virt(ai, "lazySet", "(I)V").kind());
        assertEquals(Kinds.RELEASE_STORE, virt(ai, "setRelease", "(I)V").kind());
        assertEquals(Kinds.STORE, virt(ai, "setPlain", "(I)V").kind());
        assertEquals(Kinds.STORE, virt(ai, "setOpaque", "(I)V").kind());
        for (String rmw : new String[] {"compareAndSet", "weakCompareAndSetVolatile", "getAndSet", "getAndAdd",
            "incrementAndGet", "compareAndExchangeAcquire"}) {
            assertEquals(Kinds.INTERLOCKED, virt(ai, rmw, "(II)I").kind(), rmw);
        }
        assertTrue(virt(ai, "updateAndGet", "(Ljava/util/function/IntUnaryOperator;)I").muting());
        assertEquals(ATOMIC, virt("java/util/concurrent/atomic/AtomicReference", "get", "()Ljava/lang/Object;").treatment());
        assertEquals(JdkModel.Treatment.NONE, virt("java/util/concurrent/atomic/AtomicIntegerArray", "length", "()I")
                .treatment());
    }

    /** Every class of java.util.concurrent.atomic beyond the four plain atomics, by method family. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        // class                 | method         | descriptor                         | kind         | muted
        "LongAdder               | increment      | ()V                                | INTERLOCKED  | false",
        "LongAdder               | add            | (J)V                               | INTERLOCKED  | false",
        "LongAdder               | decrement      | ()V                                | INTERLOCKED  | false",
        "LongAdder               | sum            | ()J                                | LOAD         | false",
        "LongAdder               | intValue       | ()I                                | LOAD         | false",
        "LongAdder               | toString       | ()Ljava/lang/String;               | LOAD         | false",
        "LongAdder               | sumThenReset   | ()J                                | INTERLOCKED  | false",
        "LongAdder               | reset          | ()V                                | VOLATILE_STORE | false",
        "DoubleAdder             | add            | (D)V                               | INTERLOCKED  | false",
        "DoubleAdder             | sum            | ()D                                | LOAD         | false",
        "DoubleAdder             | sumThenReset   | ()D                                | INTERLOCKED  | false",
        "LongAccumulator         | accumulate     | (J)V                               | INTERLOCKED  | true",
        "LongAccumulator         | get            | ()J                                | LOAD         | true",
        "LongAccumulator         | longValue      | ()J                                | LOAD         | true",
        "LongAccumulator         | getThenReset   | ()J                                | INTERLOCKED  | true",
        "LongAccumulator         | reset          | ()V                                | VOLATILE_STORE | false",
        "DoubleAccumulator       | accumulate     | (D)V                               | INTERLOCKED  | true",
        "DoubleAccumulator       | get            | ()D                                | LOAD         | true",
        "AtomicStampedReference  | getReference   | ()Ljava/lang/Object;               | LOAD         | false",
        "AtomicStampedReference  | getStamp       | ()I                                | LOAD         | false",
        "AtomicStampedReference  | set            | (Ljava/lang/Object;I)V             | VOLATILE_STORE | false",
        "AtomicStampedReference  | compareAndSet  | (Ljava/lang/Object;Ljava/lang/Object;II)Z | INTERLOCKED | false",
        "AtomicStampedReference  | attemptStamp   | (Ljava/lang/Object;I)Z             | INTERLOCKED  | false",
        "AtomicMarkableReference | isMarked       | ()Z                                | LOAD         | false",
        "AtomicMarkableReference | weakCompareAndSet | (Ljava/lang/Object;Ljava/lang/Object;ZZ)Z | INTERLOCKED | false",
        "AtomicMarkableReference | attemptMark    | (Ljava/lang/Object;Z)Z             | INTERLOCKED  | false",
        "AtomicInteger           | shortValue     | ()S                                | LOAD         | false",
    })
    void everyAtomicClassByMethodFamily(String type, String method, String desc, String kind, boolean muted) {
        JdkModel.Call c = virt("java/util/concurrent/atomic/" + type, method, desc);
        assertEquals(ATOMIC, c.treatment(), type + "." + method);
        assertEquals(kindOf(kind), c.kind(), type + "." + method);
        assertEquals(muted, c.muting(), type + "." + method + ": runs the application's function");
    }

    private static int kindOf(String name) {
        try {
            return Kinds.class.getField(name).getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(name, e);
        }
    }

    @Test
    void aPairsGetWithAHolderAlsoStoresIntoIt() {
        JdkModel.Call c = virt("java/util/concurrent/atomic/AtomicStampedReference", "get", "([I)Ljava/lang/Object;");
        assertEquals(JdkModel.Treatment.ATOMIC_HOLDER, c.treatment());
        assertEquals(Kinds.LOAD, c.kind());
        assertEquals(JdkModel.Treatment.ATOMIC_HOLDER, virt("java/util/concurrent/atomic/AtomicMarkableReference", "get",
                "([Z)Ljava/lang/Object;").treatment());
    }

    @Test
    void varHandlesByAccessModeAndCoordinates() {
        String vh = "java/lang/invoke/VarHandle";
        JdkModel.Call set = virt(vh, "setRelease", "(Ldev/X;I)V");
        assertEquals(HANDLE, set.treatment());
        assertEquals(Kinds.RELEASE_STORE, set.kind());
        assertEquals(1, set.coordinates());
        JdkModel.Call cas = virt(vh, "compareAndSet", "([IIII)Z");
        assertEquals(Kinds.INTERLOCKED, cas.kind());
        assertEquals(2, cas.coordinates(), "array and index");
        assertEquals(0, virt(vh, "getVolatile", "()I").coordinates(), "a static field");
        assertEquals(Kinds.STORE, virt(vh, "set", "(Ldev/X;I)V").kind(), "VarHandle.set is a plain store");
        assertEquals(Kinds.VOLATILE_STORE, virt(vh, "setVolatile", "(Ldev/X;I)V").kind());
        JdkModel.Call fence = JdkModel.classify(Opcodes.INVOKESTATIC, vh, "storeStoreFence", "()V", false);
        assertEquals(FENCE, fence.treatment());
        assertEquals(Kinds.STORE_STORE_FENCE, fence.kind());
        assertEquals(Kinds.LOAD_FENCE, JdkModel.classify(Opcodes.INVOKESTATIC, vh, "acquireFence", "()V", false).kind());
        assertEquals(Kinds.FULL_FENCE, JdkModel.classify(Opcodes.INVOKESTATIC, vh, "fullFence", "()V", false).kind());
    }

    @Test
    void unsafe() {
        String u = "sun/misc/Unsafe";
        assertEquals(Kinds.INTERLOCKED, virt(u, "compareAndSwapInt", "(Ljava/lang/Object;JII)Z").kind());
        assertEquals(Kinds.RELEASE_STORE, virt(u, "putOrderedObject", "(Ljava/lang/Object;JLjava/lang/Object;)V").kind());
        assertEquals(Kinds.VOLATILE_STORE, virt(u, "putIntVolatile", "(Ljava/lang/Object;JI)V").kind());
        assertEquals(Kinds.LOAD, virt(u, "getLongVolatile", "(Ljava/lang/Object;J)J").kind());
        assertEquals(Kinds.STORE, virt(u, "putInt", "(Ljava/lang/Object;JI)V").kind());
        assertEquals(JdkModel.Treatment.NONE, virt(u, "putInt", "(JI)V").treatment(), "off-heap");
        assertEquals(Kinds.STORE_STORE_FENCE, virt(u, "storeFence", "()V").kind());
        assertEquals(Kinds.LOAD_FENCE, virt(u, "loadFence", "()V").kind());
    }

    @Test
    void threadsAndTheJdksSynchronization() {
        assertEquals(JdkModel.Treatment.START, JdkModel.classify(Opcodes.INVOKEVIRTUAL, "com/x/Worker", "start", "()V",
                true).treatment());
        assertEquals(JdkModel.Treatment.NONE, JdkModel.classify(Opcodes.INVOKEVIRTUAL, "com/x/Other", "start", "()V",
                false).treatment());
        assertEquals(JdkModel.Treatment.JOIN, JdkModel.classify(Opcodes.INVOKEVIRTUAL, "java/lang/Thread", "join",
                "(J)V", true).treatment());
        assertEquals(JdkModel.Treatment.WAIT, virt("java/lang/Object", "wait", "()V").treatment());
        assertEquals(JUC, virt("java/util/concurrent/CountDownLatch", "countDown", "()V").treatment());
        assertEquals(JUC, JdkModel.classify(Opcodes.INVOKEINTERFACE, "java/util/concurrent/locks/Lock", "lock", "()V",
                false).treatment());
        assertEquals(JUC, virt("java/io/PrintStream", "println", "(Ljava/lang/String;)V").treatment(),
                "streams synchronize internally");
        assertEquals(JdkModel.Treatment.MAYBE_JUC, JdkModel.classify(Opcodes.INVOKEINTERFACE, "java/util/Map", "put",
                "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", false).treatment());
        assertEquals(JdkModel.Treatment.JUC_FUNCTIONS, JdkModel.classify(Opcodes.INVOKESPECIAL,
                "java/util/concurrent/CyclicBarrier", "<init>", "(ILjava/lang/Runnable;)V", false).treatment());
        assertEquals(JdkModel.Treatment.NONE, virt("java/lang/String", "length", "()I").treatment());
    }

    @Test
    void threadLocalRandomAndTimeUnitSynchronizeOnlyWhereTheJdkDoes() {
        String tlr = "java/util/concurrent/ThreadLocalRandom";
        assertEquals(JdkModel.Treatment.JUC_FIRST_CALL, JdkModel.classify(Opcodes.INVOKESTATIC, tlr, "current",
                "()Ljava/util/concurrent/ThreadLocalRandom;", false).treatment(), "the seed's initialization draws from a shared atomic");
        assertEquals(JdkModel.Treatment.NONE, virt(tlr, "nextInt", "()I").treatment(), "the thread's own seed");
        assertEquals(JdkModel.Treatment.NONE, virt(tlr, "nextLong", "(JJ)J").treatment());
        assertEquals(JUC, virt(tlr, "nextGaussian", "()D").treatment(), "Random's, synchronized on the shared instance");
        String unit = "java/util/concurrent/TimeUnit";
        assertEquals(JdkModel.Treatment.NONE, virt(unit, "toNanos", "(J)J").treatment());
        assertEquals(JdkModel.Treatment.NONE, virt(unit, "sleep", "(J)V").treatment(), "Thread.sleep synchronizes nothing");
        assertEquals(JdkModel.Treatment.TIMED_JOIN, virt(unit, "timedJoin", "(Ljava/lang/Thread;J)V").treatment(),
                "a join does");
        assertEquals(JdkModel.Treatment.TIMED_WAIT, virt(unit, "timedWait", "(Ljava/lang/Object;J)V").treatment(),
                "a wait does");
    }

    @Test
    void aCallThatOnlyReadsAMapIsDecidedByItsReceiver() {
        String chm = "java/util/concurrent/ConcurrentHashMap";
        assertEquals(JdkModel.Treatment.JUC_READ, virt(chm, "get", "(Ljava/lang/Object;)Ljava/lang/Object;").treatment());
        assertEquals(JdkModel.Treatment.JUC_READ, virt(chm, "mappingCount", "()J").treatment());
        assertEquals(JdkModel.Treatment.JUC_READ, JdkModel.classify(Opcodes.INVOKEINTERFACE, "java/util/concurrent/ConcurrentMap",
                "containsKey", "(Ljava/lang/Object;)Z", false).treatment());
        assertEquals(JdkModel.Treatment.MAYBE_JUC_READ, JdkModel.classify(Opcodes.INVOKEINTERFACE, "java/util/Map", "get",
                "(Ljava/lang/Object;)Ljava/lang/Object;", false).treatment());
        assertEquals(JUC, virt(chm, "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;").treatment(), "a write");
        assertEquals(JUC, virt(chm, "computeIfAbsent",
                "(Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;").treatment(), "a write");
        assertEquals(JUC, virt("java/util/concurrent/ConcurrentSkipListMap", "get", "(Ljava/lang/Object;)Ljava/lang/Object;")
                .treatment(), "its reads may unlink deleted nodes with a CAS");
        assertEquals(JdkModel.Treatment.MAYBE_JUC, JdkModel.classify(Opcodes.INVOKEINTERFACE, "java/util/Map", "put",
                "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", false).treatment());
    }
}
