package dev.mmcheck.samples;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs one sample by name: {@code java -jar sample-apps/target/sample-apps.jar NAME}. With no name it
 * lists the samples, in reading order, with their expected verdicts.
 */
public final class Samples {

    private static final Map<String, Class<? extends Runnable>> SAMPLES = new LinkedHashMap<>();
    private static final Map<String, String> VERDICTS = new LinkedHashMap<>();

    static {
        add(S01_DekkerPlain.class);
        add(S02_DekkerVolatile.class);
        add(S03_DekkerFenced.class);
        add(S04_PetersonPlain.class);
        add(S05_PetersonVolatile.class);
        add(S06_MessagePassingPlain.class);
        add(S07_MessagePassingRelease.class);
        add(S08_UnsafePublication.class);
        add(S09_FinalFieldPublication.class);
        add(S10_BakeryPlain.class);
        add(S11_TreiberStack.class);
        add(S12_MichaelScottQueue.class);
        add(S13_LazySetMistake.class);
        add(S14_LatchHandover.class);
        add(S15_JoinHandover.class);
        add(S16_LockHandover.class);
        add(S17_ConcurrentMapHandover.class);
        add(S18_ExecutorHandover.class);
        add(S19_TaskPoolPlain.class);
        add(S20_TaskPoolFenced.class);
        add(S21_CheckThenActCounter.class);
        add(S22_SynchronizedCounter.class);
        add(S23_DekkerLoop.class);
        add(S24_StoreBufferingLoop.class);
        add(S25_DoubleCheckedLocking.class);
        add(S26_RingBufferLazySet.class);
        add(S27_StopFlagPlain.class);
        add(S28_StopFlagFenced.class);
        add(S29_PhasesAlone.class);
        add(S30_MapPublication.class);
        add(S31_WakeupFlagOrdered.class);
        add(S32_WakeupFlagFenced.class);
        add(S33_EventLoopLazySet.class);
        add(S34_EventLoopFenced.class);
        add(S35_PoolHandoffOpaque.class);
        add(S36_PoolHandoffRelease.class);
        add(S37_BroadcastLatestPlain.class);
        add(S38_BroadcastLatestOrdered.class);
        add(S39_WeakValueRelease.class);
        add(S40_WeakValueVolatile.class);
        add(S41_BufferHelperRaces.class);
        add(S42_StripedCounterFence.class);
        add(S43_IndependentBarriers.class);
        add(S44_SynchronizerHandovers.class);
        add(S45_WorkStealingPool.class);
        add(S46_GetThenSetEffects.class);
        add(S47_GetAndSetEffects.class);
        add(S48_CarelessReader.class);
        add(S49_AcquiringReader.class);
        add(S50_VolatileStorePlainLoad.class);
        add(S51_VolatileHandshake.class);
        add(S52_SeqlockReread.class);
        add(S53_ImmutablePublication.class);
        add(S54_SeqlockFenced.class);
        add(S55_StampedLockOptimistic.class);
        // benchmark workloads (bench/agent-overhead.sh): no verdict, not run by the samples' tests
        add(W01_QueueContention.class);
        add(W02_ArrayCompute.class);
        add(W03_TreiberContention.class);
        add(W04_QueueHandoff.class);
        add(W05_ThreadLocalWork.class);
        add(W06_SpscArrayQueue.class);
        add(W07_MpscArrayQueue.class);
        add(W08_SingleThreaded.class);
    }

    private Samples() {
    }

    private static void add(Class<? extends Runnable> c) {
        Expected e = c.getAnnotation(Expected.class);
        String verdict = e == null ? "workload, no verdict"
                : (e.tso() ? "TSO violation" : "TSO clean") + ", " + (e.pso() ? "PSO violation" : "PSO clean")
                        + (!hasAtomicMethods(c) ? "" : ", " + (e.scser() ? "not SC-serializable" : "SC-serializable")
                        + ", " + (e.tsoser() ? "not TSO-serializable" : "TSO-serializable"))
                        + (e.jmm() == Expected.Jmm.UNDECLARED ? ""
                                : e.jmm() == Expected.Jmm.VIOLATION ? ", JMM violation" : ", JMM clean");
        SAMPLES.put(c.getSimpleName(), c);
        VERDICTS.put(c.getSimpleName(), verdict);
    }

    /** Whether {@code c} declares methods {@link Atomic}: then the serializability checks run on it. */
    public static boolean hasAtomicMethods(Class<?> c) {
        for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Atomic.class)) {
                return true;
            }
        }
        return false;
    }

    /** The samples' names, in reading order (those with an expected verdict). */
    public static java.util.List<String> names() {
        return SAMPLES.entrySet().stream().filter(e -> e.getValue().isAnnotationPresent(Expected.class))
                .map(Map.Entry::getKey).toList();
    }

    /** A new instance of sample {@code name}. */
    public static Runnable sample(String name) {
        try {
            return SAMPLES.get(name).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create sample " + name, e);
        }
    }

    /** The class of sample {@code name}. */
    public static Class<? extends Runnable> sampleClass(String name) {
        return SAMPLES.get(name);
    }

    /** Runs the sample named by the first argument, or lists them. */
    public static void main(String[] args) throws java.io.IOException {
        if (args.length >= 1 && args[0].equals("litmus")) {
            litmus(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length != 1 || !SAMPLES.containsKey(args[0])) {
            if (args.length == 1) {
                System.err.println("samples: no sample named '" + args[0] + "'");
            }
            System.err.println("usage: java -jar sample-apps.jar NAME, one of:");
            VERDICTS.forEach((n, v) -> System.err.println("  " + n + "  (expected: " + v + ")"));
            System.err.println("or, with the checker on the class path, the litmus tests on this JVM (no agent):");
            System.err.println("  java -cp sample-apps.jar:mmcheck-checker.jar dev.mmcheck.samples.Samples litmus "
                    + "[--runs N] [--tests SB,MP,...] [--variants plain,opaque,rel-acq,volatile] [--save DIR]");
            System.exit(2);
        }
        sample(args[0]).run();
    }

    /**
     * Runs the litmus runner ({@link dev.mmcheck.samples.litmus.LitmusRunner}), which checks its histories
     * with the history checker: that is not in sample-apps.jar, so it must be on the class path.
     */
    private static void litmus(String[] args) throws java.io.IOException {
        try {
            Class.forName("dev.mmcheck.checker.history.HistoryChecker", false, Samples.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            System.err.println("samples: litmus needs the history checker on the class path: run it as "
                    + "java -cp sample-apps/target/sample-apps.jar:checker/target/mmcheck-checker.jar "
                    + "dev.mmcheck.samples.Samples litmus");
            System.exit(2);
        }
        dev.mmcheck.samples.litmus.LitmusRunner.main(args);
    }

    /** Joins {@code t}, restoring the interrupt flag if interrupted. */
    static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining " + t.getName(), e);
        }
    }
}
