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

    /**
     * The mode a site records beyond its kind (docs/mapping.md, "Access modes"), which decides a finding's category
     * (race or relaxed) and which the access-mode analysis reads: a load's or store's mode, a read-modify-write's
     * flavour, a fence's; and for a compare-and-set, which can fail, the mode of the site it logs when it failed.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', nullValues = "-", value = {
        // owner        | method                       | descriptor                  | kind           | mode      | failed
        "AtomicInteger  | get                          | ()I                         | LOAD           | volatile  | -",
        "AtomicInteger  | intValue                     | ()I                         | LOAD           | volatile  | -",
        "AtomicInteger  | getPlain                     | ()I                         | LOAD           | ''        | -",
        "AtomicInteger  | getAcquire                   | ()I                         | LOAD           | acquire   | -",
        "AtomicInteger  | getOpaque                    | ()I                         | LOAD           | opaque    | -",
        "AtomicInteger  | setOpaque                    | (I)V                        | STORE          | opaque    | -",
        "AtomicInteger  | setPlain                     | (I)V                        | STORE          | ''        | -",
        "AtomicInteger  | lazySet                      | (I)V                        | RELEASE_STORE  | ''        | -",
        "AtomicInteger  | compareAndSet                | (II)Z                       | INTERLOCKED    | ''        | failed",
        "AtomicInteger  | weakCompareAndSetVolatile    | (II)Z                       | INTERLOCKED    | ''        | failed",
        "AtomicInteger  | weakCompareAndSet            | (II)Z                       | INTERLOCKED    | plain     | plain-failed",
        "AtomicInteger  | weakCompareAndSetPlain       | (II)Z                       | INTERLOCKED    | plain     | plain-failed",
        "AtomicInteger  | weakCompareAndSetAcquire     | (II)Z                       | INTERLOCKED    | acquire   | acquire-failed",
        "AtomicInteger  | weakCompareAndSetRelease     | (II)Z                       | INTERLOCKED    | release   | release-failed",
        "AtomicInteger  | compareAndExchange           | (II)I                       | INTERLOCKED    | ''        | failed",
        "AtomicInteger  | compareAndExchangeAcquire    | (II)I                       | INTERLOCKED    | acquire   | acquire-failed",
        "AtomicInteger  | compareAndExchangeRelease    | (II)I                       | INTERLOCKED    | release   | release-failed",
        "AtomicInteger  | getAndSet                    | (I)I                        | INTERLOCKED    | ''        | -",
        "AtomicInteger  | incrementAndGet              | ()I                         | INTERLOCKED    | ''        | -",
        "AtomicInteger  | getAndUpdate                 | (Ljava/util/function/IntUnaryOperator;)I | INTERLOCKED | '' | -",
        "AtomicReferenceArray | weakCompareAndSet      | (ILjava/lang/Object;Ljava/lang/Object;)Z | INTERLOCKED | plain | plain-failed",
        "AtomicLongFieldUpdater | weakCompareAndSet    | (Ljava/lang/Object;JJ)Z     | INTERLOCKED    | plain     | plain-failed",
        "AtomicLongFieldUpdater | compareAndSet        | (Ljava/lang/Object;JJ)Z     | INTERLOCKED    | ''        | failed",
        "AtomicStampedReference | compareAndSet        | (Ljava/lang/Object;Ljava/lang/Object;II)Z | INTERLOCKED | '' | failed",
        "AtomicStampedReference | weakCompareAndSet    | (Ljava/lang/Object;Ljava/lang/Object;II)Z | INTERLOCKED | plain | plain-failed",
        "AtomicStampedReference | attemptStamp         | (Ljava/lang/Object;I)Z      | INTERLOCKED    | ''        | failed",
        "AtomicMarkableReference | attemptMark        | (Ljava/lang/Object;Z)Z      | INTERLOCKED    | ''        | failed",
        "AtomicStampedReference | getReference         | ()Ljava/lang/Object;        | LOAD           | volatile  | -",
        "LongAdder      | sum                          | ()J                         | LOAD           | volatile  | -",
        "LongAdder      | increment                    | ()V                         | INTERLOCKED    | ''        | -",
        "LongAccumulator | accumulate                  | (J)V                        | INTERLOCKED    | ''        | -",
        "AtomicIntegerArray | get                      | (I)I                        | LOAD           | volatile  | -",
        "AtomicIntegerFieldUpdater | get               | (Ljava/lang/Object;)I       | LOAD           | volatile  | -",
        "VarHandle      | get                          | (Ljava/lang/Object;)I       | LOAD           | ''        | -",
        "VarHandle      | getVolatile                  | (Ljava/lang/Object;)I       | LOAD           | volatile  | -",
        "VarHandle      | getAcquire                   | (Ljava/lang/Object;)I       | LOAD           | acquire   | -",
        "VarHandle      | set                          | (Ljava/lang/Object;I)V      | STORE          | ''        | -",
        "VarHandle      | compareAndSet                | (Ljava/lang/Object;II)Z     | INTERLOCKED    | ''        | failed",
        "VarHandle      | weakCompareAndSet            | (Ljava/lang/Object;II)Z     | INTERLOCKED    | ''        | failed",
        "VarHandle      | weakCompareAndSetPlain       | (Ljava/lang/Object;II)Z     | INTERLOCKED    | plain     | plain-failed",
        "VarHandle      | weakCompareAndSetAcquire     | (Ljava/lang/Object;II)Z     | INTERLOCKED    | acquire   | acquire-failed",
        "VarHandle      | weakCompareAndSetRelease     | (Ljava/lang/Object;II)Z     | INTERLOCKED    | release   | release-failed",
        "VarHandle      | compareAndExchange           | (Ljava/lang/Object;JJ)J     | INTERLOCKED    | ''        | failed",
        "VarHandle      | compareAndExchangeAcquire    | (Ljava/lang/Object;DD)D     | INTERLOCKED    | acquire   | acquire-failed",
        "VarHandle      | compareAndExchangeRelease    | (Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object; | INTERLOCKED | release | release-failed",
        "VarHandle      | getAndSet                    | (Ljava/lang/Object;I)I      | INTERLOCKED    | ''        | -",
        "VarHandle      | getAndSetAcquire             | (Ljava/lang/Object;I)I      | INTERLOCKED    | acquire   | -",
        "VarHandle      | getAndSetRelease             | (Ljava/lang/Object;I)I      | INTERLOCKED    | release   | -",
        "VarHandle      | getAndAdd                    | (Ljava/lang/Object;I)I      | INTERLOCKED    | ''        | -",
        "VarHandle      | getAndAddAcquire             | (Ljava/lang/Object;I)I      | INTERLOCKED    | acquire   | -",
        "VarHandle      | getAndAddRelease             | (Ljava/lang/Object;I)I      | INTERLOCKED    | release   | -",
        "VarHandle      | getAndBitwiseOr              | (Ljava/lang/Object;I)I      | INTERLOCKED    | ''        | -",
        "VarHandle      | getAndBitwiseAndAcquire      | (Ljava/lang/Object;I)I      | INTERLOCKED    | acquire   | -",
        "VarHandle      | getAndBitwiseXorRelease      | (Ljava/lang/Object;I)I      | INTERLOCKED    | release   | -",
        "VarHandle      | fullFence                    | ()V                         | FULL_FENCE     | ''        | -",
        "VarHandle      | releaseFence                 | ()V                         | STORE_STORE_FENCE | release | -",
        "VarHandle      | storeStoreFence              | ()V                         | STORE_STORE_FENCE | storestore | -",
        "VarHandle      | acquireFence                 | ()V                         | LOAD_FENCE     | acquire   | -",
        "VarHandle      | loadLoadFence                | ()V                         | LOAD_FENCE     | loadload  | -",
        "Unsafe         | fullFence                    | ()V                         | FULL_FENCE     | ''        | -",
        "Unsafe         | storeFence                   | ()V                         | STORE_STORE_FENCE | release | -",
        "Unsafe         | loadFence                    | ()V                         | LOAD_FENCE     | acquire   | -",
        "Unsafe         | getInt                       | (Ljava/lang/Object;J)I      | LOAD           | ''        | -",
        "Unsafe         | getIntVolatile               | (Ljava/lang/Object;J)I      | LOAD           | volatile  | -",
        "Unsafe         | putIntVolatile               | (Ljava/lang/Object;JI)V     | VOLATILE_STORE | ''        | -",
        "Unsafe         | putOrderedInt                | (Ljava/lang/Object;JI)V     | RELEASE_STORE  | ''        | -",
        "Unsafe         | compareAndSwapInt            | (Ljava/lang/Object;JII)Z    | INTERLOCKED    | ''        | failed",
        "Unsafe         | compareAndSwapObject         | (Ljava/lang/Object;JLjava/lang/Object;Ljava/lang/Object;)Z | INTERLOCKED | '' | failed",
        "Unsafe         | getAndAddLong                | (Ljava/lang/Object;JJ)J     | INTERLOCKED    | ''        | -",
        "Unsafe         | getAndSetObject              | (Ljava/lang/Object;JLjava/lang/Object;)Ljava/lang/Object; | INTERLOCKED | '' | -",
        "internal.Unsafe | getReferenceAcquire         | (Ljava/lang/Object;J)Ljava/lang/Object; | LOAD | acquire | -",
        "internal.Unsafe | getIntOpaque                | (Ljava/lang/Object;J)I      | LOAD           | opaque    | -",
        "internal.Unsafe | compareAndSetInt            | (Ljava/lang/Object;JII)Z    | INTERLOCKED    | ''        | failed",
        "internal.Unsafe | compareAndSetReference      | (Ljava/lang/Object;JLjava/lang/Object;Ljava/lang/Object;)Z | INTERLOCKED | '' | failed",
        "internal.Unsafe | weakCompareAndSetInt        | (Ljava/lang/Object;JII)Z    | INTERLOCKED    | ''        | failed",
        "internal.Unsafe | weakCompareAndSetIntPlain   | (Ljava/lang/Object;JII)Z    | INTERLOCKED    | plain     | plain-failed",
        "internal.Unsafe | weakCompareAndSetLongAcquire | (Ljava/lang/Object;JJJ)Z   | INTERLOCKED    | acquire   | acquire-failed",
        "internal.Unsafe | weakCompareAndSetReferenceRelease | (Ljava/lang/Object;JLjava/lang/Object;Ljava/lang/Object;)Z | INTERLOCKED | release | release-failed",
        "internal.Unsafe | compareAndExchangeInt       | (Ljava/lang/Object;JII)I    | INTERLOCKED    | ''        | failed",
        "internal.Unsafe | compareAndExchangeLongAcquire | (Ljava/lang/Object;JJJ)J  | INTERLOCKED    | acquire   | acquire-failed",
        "internal.Unsafe | compareAndExchangeDoubleRelease | (Ljava/lang/Object;JDD)D | INTERLOCKED    | release   | release-failed",
        "internal.Unsafe | getAndAddIntAcquire         | (Ljava/lang/Object;JI)I     | INTERLOCKED    | acquire   | -",
        "internal.Unsafe | getAndSetReferenceRelease   | (Ljava/lang/Object;JLjava/lang/Object;)Ljava/lang/Object; | INTERLOCKED | release | -",
        "internal.Unsafe | getAndBitwiseOrIntRelease   | (Ljava/lang/Object;JI)I     | INTERLOCKED    | release   | -",
        "internal.Unsafe | getAndBitwiseAndLongAcquire | (Ljava/lang/Object;JJ)J     | INTERLOCKED    | acquire   | -",
        "internal.Unsafe | putIntRelease               | (Ljava/lang/Object;JI)V     | RELEASE_STORE  | ''        | -",
    })
    void sitesRecordTheModeTheKindDoesNotSay(String owner, String method, String desc, String kind, String mode,
            String failed) {
        String internal = switch (owner) {
            case "VarHandle" -> "java/lang/invoke/VarHandle";
            case "Unsafe" -> "sun/misc/Unsafe";
            case "internal.Unsafe" -> "jdk/internal/misc/Unsafe";
            default -> "java/util/concurrent/atomic/" + owner;
        };
        boolean fence = method.endsWith("Fence");
        JdkModel.Call c = JdkModel.classify(fence && owner.equals("VarHandle") ? Opcodes.INVOKESTATIC
                : Opcodes.INVOKEVIRTUAL, internal, method, desc, false);
        String at = owner + "." + method;
        assertEquals(kindOf(kind), c.kind(), at);
        assertEquals(mode, AtomicModel.mode(c, method), at);
        assertEquals(failed != null, AtomicModel.canFail(c, method), at + " can fail");
        if (failed != null) {
            assertEquals(failed, dev.mmcheck.checker.event.SiteModes.failed(AtomicModel.mode(c, method)), at);
            assertEquals(method.startsWith("compareAndExchange"), AtomicModel.returnsWitness(method), at);
        }
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
        // Java 21's builders and virtual threads: a start with its edge, as Thread.start
        assertEquals(JdkModel.Treatment.START_BUILT, JdkModel.classify(Opcodes.INVOKEINTERFACE,
                "java/lang/Thread$Builder$OfVirtual", "start", "(Ljava/lang/Runnable;)Ljava/lang/Thread;", false)
                .treatment());
        assertEquals(JdkModel.Treatment.START_BUILT, JdkModel.classify(Opcodes.INVOKEINTERFACE,
                "java/lang/Thread$Builder", "start", "(Ljava/lang/Runnable;)Ljava/lang/Thread;", false).treatment());
        assertEquals(JdkModel.Treatment.START_VIRTUAL, JdkModel.classify(Opcodes.INVOKESTATIC, "java/lang/Thread",
                "startVirtualThread", "(Ljava/lang/Runnable;)Ljava/lang/Thread;", false).treatment());
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

    /** StampedLock's calls carry what the JDK does inside them, for the jmm analysis; every other JUC call nothing. */
    @Test
    void stampedLockCallsCarryTheirModes() {
        String sl = "java/util/concurrent/locks/StampedLock";
        assertEquals("optimistic-read", JdkModel.jucMode(sl, "tryOptimisticRead"));
        assertEquals("validate", JdkModel.jucMode(sl, "validate"));
        for (String m : java.util.List.of("writeLock", "tryWriteLock", "writeLockInterruptibly", "tryConvertToWriteLock")) {
            assertEquals("write-lock", JdkModel.jucMode(sl, m), m);
        }
        assertEquals("", JdkModel.jucMode(sl, "readLock"));
        assertEquals("", JdkModel.jucMode(sl, "unlockWrite"));
        assertEquals("", JdkModel.jucMode("java/util/concurrent/locks/ReentrantLock", "lock"));
    }
}
