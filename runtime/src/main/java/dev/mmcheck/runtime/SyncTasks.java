package dev.mmcheck.runtime;

import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Wraps the functions handed to java.util.concurrent (tasks given to executors, CompletableFuture
 * stages, barrier actions, computeIfAbsent mappings...) so that the JDK's synchronization around
 * their execution is seen from inside them: each call begins and ends with an interlocked event of the
 * thread running it ({@link Probes#logSync}) on the address of the synchronizer it was handed to
 * ({@link SyncObjects}): the receiver of the call that handed it over; for a function handed to a constructor
 * (a barrier's action), the synchronizer whose call the running thread is inside when the JDK calls it back (the
 * barrier's await); else the shared address of executors and futures. Without the end event, stores a callback
 * makes would look unpublished although the JDK publishes them (a false report under PSO); without
 * the begin event, a task would miss the handover to it. One allocation per function handed over,
 * none per event.
 */
public final class SyncTasks {

    private SyncTasks() {
    }

    /**
     * For a call through a java.util interface: wraps {@code f} (of the interface named by
     * {@code type}, e.g. "function") only when {@code receiver} is a concurrent or synchronized
     * collection, which then runs it under its own synchronization.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Object wrapIf(Object receiver, Object f, String type, int site) {
        if (f == null || receiver == null || !Probes.synchronizing(receiver.getClass())) {
            return f;
        }
        switch (type) {
            case "runnable": return runnable((Runnable) f, receiver, site);
            case "callable": return callable((Callable) f, receiver, site);
            case "supplier": return supplier((Supplier) f, receiver, site);
            case "function": return function((Function) f, receiver, site);
            case "unaryOperator": return unaryOperator((UnaryOperator) f, receiver, site);
            case "biFunction": return biFunction((BiFunction) f, receiver, site);
            case "binaryOperator": return binaryOperator((BinaryOperator) f, receiver, site);
            case "consumer": return consumer((Consumer) f, receiver, site);
            case "biConsumer": return biConsumer((BiConsumer) f, receiver, site);
            case "predicate": return predicate((Predicate) f, receiver, site);
            default: return f;
        }
    }

    /**
     * A function handed over, wrapped: says what the function it wraps says for {@link #toString()}, so that
     * what the application derives from it (a thread factory naming its thread after its task, a log line)
     * stays as without the agent.
     *
     * <p>Each call: {@code ThreadLog t = EventLog.current(); Object outer = t.syncObject; int outerSlot = t.syncSlot;
     * Object anchor = begin(t); int slot = t.syncSlotOut;} then the function, then {@code end(t, anchor, slot, outer,
     * outerSlot)}
     * in a finally block: the anchor is decided once per call, on the running thread (a function may run on several
     * at once), and the synchronizer the thread was inside is restored after (the function's own calls change it).
     */
    private abstract static class Wrapped<F> {
        /** The application's function. */
        final F f;
        /** The receiver of the call that handed it over, null for a constructor or a static call. */
        final Object receiver;
        /** The call site that handed it over. */
        final int site;

        Wrapped(F f, Object receiver, int site) {
            this.f = f;
            this.receiver = receiver;
            this.site = site;
        }

        /**
         * The JDK synchronization that hands the call over to the thread running it: returns the address's object,
         * its pseudo-field left in {@code t.syncSlotOut}.
         */
        final Object begin(ThreadLog t) {
            Object a;
            if (receiver != null) {
                a = SyncObjects.of(receiver, t);
            } else if (t.syncObject != null) {
                a = t.syncObject; // called back inside a call on a synchronizer (a barrier's action inside await)
                t.syncSlotOut = t.syncSlot;
            } else {
                a = SyncObjects.of(null, t);
            }
            int slot = t.syncSlotOut;
            Probes.logSync(t, site, a, slot);
            t.syncSlotOut = slot;
            return a;
        }

        /** The JDK synchronization that publishes what the call did; the thread's synchronizer as before the call. */
        final void end(ThreadLog t, Object a, int slot, Object outer, int outerSlot) {
            Probes.logSync(t, site, a, slot);
            t.syncObject = outer;
            t.syncSlot = outerSlot;
        }

        @Override
        public final String toString() {
            return f.toString();
        }
    }

    /** Wraps a Runnable. */
    public static Runnable runnable(Runnable f, Object receiver, int site) {
        return f == null ? null : new WrappedRunnable(f, receiver, site);
    }

    private static final class WrappedRunnable extends Wrapped<Runnable> implements Runnable {
        WrappedRunnable(Runnable f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public void run() {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                f.run();
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a Callable. */
    public static <V> Callable<V> callable(Callable<V> f, Object receiver, int site) {
        return f == null ? null : new WrappedCallable<>(f, receiver, site);
    }

    private static final class WrappedCallable<V> extends Wrapped<Callable<V>> implements Callable<V> {
        WrappedCallable(Callable<V> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public V call() throws Exception {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                return f.call();
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a Supplier. */
    public static <V> Supplier<V> supplier(Supplier<V> f, Object receiver, int site) {
        return f == null ? null : new WrappedSupplier<>(f, receiver, site);
    }

    private static final class WrappedSupplier<V> extends Wrapped<Supplier<V>> implements Supplier<V> {
        WrappedSupplier(Supplier<V> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public V get() {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                return f.get();
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a Function. */
    public static <A, R> Function<A, R> function(Function<A, R> f, Object receiver, int site) {
        return f == null ? null : new WrappedFunction<>(f, receiver, site);
    }

    private static final class WrappedFunction<A, R> extends Wrapped<Function<A, R>> implements Function<A, R> {
        WrappedFunction(Function<A, R> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public R apply(A a) {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                return f.apply(a);
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a UnaryOperator. */
    public static <A> UnaryOperator<A> unaryOperator(UnaryOperator<A> f, Object receiver, int site) {
        return f == null ? null : new WrappedUnaryOperator<>(f, receiver, site);
    }

    private static final class WrappedUnaryOperator<A> extends Wrapped<UnaryOperator<A>> implements UnaryOperator<A> {
        WrappedUnaryOperator(UnaryOperator<A> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public A apply(A a) {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                return f.apply(a);
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a BiFunction. */
    public static <A, B, R> BiFunction<A, B, R> biFunction(BiFunction<A, B, R> f, Object receiver, int site) {
        return f == null ? null : new WrappedBiFunction<>(f, receiver, site);
    }

    private static final class WrappedBiFunction<A, B, R> extends Wrapped<BiFunction<A, B, R>> implements BiFunction<A, B, R> {
        WrappedBiFunction(BiFunction<A, B, R> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public R apply(A a, B b) {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                return f.apply(a, b);
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a BinaryOperator. */
    public static <A> BinaryOperator<A> binaryOperator(BinaryOperator<A> f, Object receiver, int site) {
        return f == null ? null : new WrappedBinaryOperator<>(f, receiver, site);
    }

    private static final class WrappedBinaryOperator<A> extends Wrapped<BinaryOperator<A>> implements BinaryOperator<A> {
        WrappedBinaryOperator(BinaryOperator<A> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public A apply(A a, A b) {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                return f.apply(a, b);
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a Consumer. */
    public static <A> Consumer<A> consumer(Consumer<A> f, Object receiver, int site) {
        return f == null ? null : new WrappedConsumer<>(f, receiver, site);
    }

    private static final class WrappedConsumer<A> extends Wrapped<Consumer<A>> implements Consumer<A> {
        WrappedConsumer(Consumer<A> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public void accept(A a) {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                f.accept(a);
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a BiConsumer. */
    public static <A, B> BiConsumer<A, B> biConsumer(BiConsumer<A, B> f, Object receiver, int site) {
        return f == null ? null : new WrappedBiConsumer<>(f, receiver, site);
    }

    private static final class WrappedBiConsumer<A, B> extends Wrapped<BiConsumer<A, B>> implements BiConsumer<A, B> {
        WrappedBiConsumer(BiConsumer<A, B> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public void accept(A a, B b) {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                f.accept(a, b);
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }

    /** Wraps a Predicate. */
    public static <A> Predicate<A> predicate(Predicate<A> f, Object receiver, int site) {
        return f == null ? null : new WrappedPredicate<>(f, receiver, site);
    }

    private static final class WrappedPredicate<A> extends Wrapped<Predicate<A>> implements Predicate<A> {
        WrappedPredicate(Predicate<A> f, Object receiver, int site) {
            super(f, receiver, site);
        }

        @Override
        public boolean test(A a) {
            ThreadLog t = EventLog.current();
            Object outer = t.syncObject;
            int outerSlot = t.syncSlot;
            Object anchor = begin(t);
            int slot = t.syncSlotOut;
            try {
                return f.test(a);
            } finally {
                end(t, anchor, slot, outer, outerSlot);
            }
        }
    }
}
