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

    private static ThreadLog begin(int site) {
        ThreadLog t = EventLog.current();
        Probes.logJuc(t, site);
        return t;
    }

    /** Wraps a Runnable. */
    public static Runnable runnable(Runnable f, int site) {
        return f == null ? null : () -> {
            ThreadLog t = begin(site);
            try {
                f.run();
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a Callable. */
    public static <V> Callable<V> callable(Callable<V> f, int site) {
        return f == null ? null : () -> {
            ThreadLog t = begin(site);
            try {
                return f.call();
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a Supplier. */
    public static <V> Supplier<V> supplier(Supplier<V> f, int site) {
        return f == null ? null : () -> {
            ThreadLog t = begin(site);
            try {
                return f.get();
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a Function. */
    public static <A, R> Function<A, R> function(Function<A, R> f, int site) {
        return f == null ? null : a -> {
            ThreadLog t = begin(site);
            try {
                return f.apply(a);
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a UnaryOperator. */
    public static <A> UnaryOperator<A> unaryOperator(UnaryOperator<A> f, int site) {
        return f == null ? null : a -> {
            ThreadLog t = begin(site);
            try {
                return f.apply(a);
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a BiFunction. */
    public static <A, B, R> BiFunction<A, B, R> biFunction(BiFunction<A, B, R> f, int site) {
        return f == null ? null : (a, b) -> {
            ThreadLog t = begin(site);
            try {
                return f.apply(a, b);
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a BinaryOperator. */
    public static <A> BinaryOperator<A> binaryOperator(BinaryOperator<A> f, int site) {
        return f == null ? null : (a, b) -> {
            ThreadLog t = begin(site);
            try {
                return f.apply(a, b);
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a Consumer. */
    public static <A> Consumer<A> consumer(Consumer<A> f, int site) {
        return f == null ? null : a -> {
            ThreadLog t = begin(site);
            try {
                f.accept(a);
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a BiConsumer. */
    public static <A, B> BiConsumer<A, B> biConsumer(BiConsumer<A, B> f, int site) {
        return f == null ? null : (a, b) -> {
            ThreadLog t = begin(site);
            try {
                f.accept(a, b);
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }

    /** Wraps a Predicate. */
    public static <A> Predicate<A> predicate(Predicate<A> f, int site) {
        return f == null ? null : a -> {
            ThreadLog t = begin(site);
            try {
                return f.test(a);
            } finally {
                Probes.logJuc(t, site);
            }
        };
    }
}
