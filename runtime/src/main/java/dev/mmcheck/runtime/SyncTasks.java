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
 * their execution is seen from inside them: each call begins and ends with the JDK synchronization
 * event ({@link Probes#logJuc}) of the thread running it. Without the end event, stores a callback
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
            case "runnable": return runnable((Runnable) f, site);
            case "callable": return callable((Callable) f, site);
            case "supplier": return supplier((Supplier) f, site);
            case "function": return function((Function) f, site);
            case "unaryOperator": return unaryOperator((UnaryOperator) f, site);
            case "biFunction": return biFunction((BiFunction) f, site);
            case "binaryOperator": return binaryOperator((BinaryOperator) f, site);
            case "consumer": return consumer((Consumer) f, site);
            case "biConsumer": return biConsumer((BiConsumer) f, site);
            case "predicate": return predicate((Predicate) f, site);
            default: return f;
        }
    }

    /**
     * A function handed over, wrapped: says what the function it wraps says for {@link #toString()}, so that
     * what the application derives from it (a thread factory naming its thread after its task, a log line)
     * stays as without the agent.
     */
    private abstract static class Wrapped<F> {
        /** The application's function. */
        final F f;
        /** The call site that handed it over. */
        final int site;

        Wrapped(F f, int site) {
            this.f = f;
            this.site = site;
        }

        /** The JDK synchronization that hands the call over to the thread running it. */
        final ThreadLog begin() {
            ThreadLog t = EventLog.current();
            Probes.logJuc(t, site);
            return t;
        }

        /** The JDK synchronization that publishes what the call did. */
        final void end(ThreadLog t) {
            Probes.logJuc(t, site);
        }

        @Override
        public final String toString() {
            return f.toString();
        }
    }

    /** Wraps a Runnable. */
    public static Runnable runnable(Runnable f, int site) {
        return f == null ? null : new WrappedRunnable(f, site);
    }

    private static final class WrappedRunnable extends Wrapped<Runnable> implements Runnable {
        WrappedRunnable(Runnable f, int site) {
            super(f, site);
        }

        @Override
        public void run() {
            ThreadLog t = begin();
            try {
                f.run();
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a Callable. */
    public static <V> Callable<V> callable(Callable<V> f, int site) {
        return f == null ? null : new WrappedCallable<>(f, site);
    }

    private static final class WrappedCallable<V> extends Wrapped<Callable<V>> implements Callable<V> {
        WrappedCallable(Callable<V> f, int site) {
            super(f, site);
        }

        @Override
        public V call() throws Exception {
            ThreadLog t = begin();
            try {
                return f.call();
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a Supplier. */
    public static <V> Supplier<V> supplier(Supplier<V> f, int site) {
        return f == null ? null : new WrappedSupplier<>(f, site);
    }

    private static final class WrappedSupplier<V> extends Wrapped<Supplier<V>> implements Supplier<V> {
        WrappedSupplier(Supplier<V> f, int site) {
            super(f, site);
        }

        @Override
        public V get() {
            ThreadLog t = begin();
            try {
                return f.get();
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a Function. */
    public static <A, R> Function<A, R> function(Function<A, R> f, int site) {
        return f == null ? null : new WrappedFunction<>(f, site);
    }

    private static final class WrappedFunction<A, R> extends Wrapped<Function<A, R>> implements Function<A, R> {
        WrappedFunction(Function<A, R> f, int site) {
            super(f, site);
        }

        @Override
        public R apply(A a) {
            ThreadLog t = begin();
            try {
                return f.apply(a);
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a UnaryOperator. */
    public static <A> UnaryOperator<A> unaryOperator(UnaryOperator<A> f, int site) {
        return f == null ? null : new WrappedUnaryOperator<>(f, site);
    }

    private static final class WrappedUnaryOperator<A> extends Wrapped<UnaryOperator<A>> implements UnaryOperator<A> {
        WrappedUnaryOperator(UnaryOperator<A> f, int site) {
            super(f, site);
        }

        @Override
        public A apply(A a) {
            ThreadLog t = begin();
            try {
                return f.apply(a);
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a BiFunction. */
    public static <A, B, R> BiFunction<A, B, R> biFunction(BiFunction<A, B, R> f, int site) {
        return f == null ? null : new WrappedBiFunction<>(f, site);
    }

    private static final class WrappedBiFunction<A, B, R> extends Wrapped<BiFunction<A, B, R>> implements BiFunction<A, B, R> {
        WrappedBiFunction(BiFunction<A, B, R> f, int site) {
            super(f, site);
        }

        @Override
        public R apply(A a, B b) {
            ThreadLog t = begin();
            try {
                return f.apply(a, b);
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a BinaryOperator. */
    public static <A> BinaryOperator<A> binaryOperator(BinaryOperator<A> f, int site) {
        return f == null ? null : new WrappedBinaryOperator<>(f, site);
    }

    private static final class WrappedBinaryOperator<A> extends Wrapped<BinaryOperator<A>> implements BinaryOperator<A> {
        WrappedBinaryOperator(BinaryOperator<A> f, int site) {
            super(f, site);
        }

        @Override
        public A apply(A a, A b) {
            ThreadLog t = begin();
            try {
                return f.apply(a, b);
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a Consumer. */
    public static <A> Consumer<A> consumer(Consumer<A> f, int site) {
        return f == null ? null : new WrappedConsumer<>(f, site);
    }

    private static final class WrappedConsumer<A> extends Wrapped<Consumer<A>> implements Consumer<A> {
        WrappedConsumer(Consumer<A> f, int site) {
            super(f, site);
        }

        @Override
        public void accept(A a) {
            ThreadLog t = begin();
            try {
                f.accept(a);
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a BiConsumer. */
    public static <A, B> BiConsumer<A, B> biConsumer(BiConsumer<A, B> f, int site) {
        return f == null ? null : new WrappedBiConsumer<>(f, site);
    }

    private static final class WrappedBiConsumer<A, B> extends Wrapped<BiConsumer<A, B>> implements BiConsumer<A, B> {
        WrappedBiConsumer(BiConsumer<A, B> f, int site) {
            super(f, site);
        }

        @Override
        public void accept(A a, B b) {
            ThreadLog t = begin();
            try {
                f.accept(a, b);
            } finally {
                end(t);
            }
        }
    }

    /** Wraps a Predicate. */
    public static <A> Predicate<A> predicate(Predicate<A> f, int site) {
        return f == null ? null : new WrappedPredicate<>(f, site);
    }

    private static final class WrappedPredicate<A> extends Wrapped<Predicate<A>> implements Predicate<A> {
        WrappedPredicate(Predicate<A> f, int site) {
            super(f, site);
        }

        @Override
        public boolean test(A a) {
            ThreadLog t = begin();
            try {
                return f.test(a);
            } finally {
                end(t);
            }
        }
    }
}
