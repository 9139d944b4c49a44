package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wrappers of functions handed to java.util.concurrent (SyncTasks): each calls the function it wraps and
 * says what it says for toString. The LMAX Disruptor's tests name each thread their ThreadFactory makes after
 * its task's toString; with the wrapper's own, the threads (and the findings naming them) were called
 * {@code dev.mmcheck.runtime.SyncTasks$$Lambda$152/0x...@62e37985}.
 */
class SyncTasksTest {

    /** A function of every wrapped type but the two-argument functions that names itself and records its calls. */
    private static class Named implements Runnable, Callable<String>, Supplier<String>, Function<String, String>,
            UnaryOperator<String>, Consumer<String>, BiConsumer<String, String>, Predicate<String> {
        final AtomicReference<String> called = new AtomicReference<>();

        @Override
        public String toString() {
            return "event-processor-7";
        }

        @Override
        public void run() {
            called.set("run");
        }

        @Override
        public String call() {
            return "call";
        }

        @Override
        public String get() {
            return "get";
        }

        @Override
        public String apply(String a) {
            return "apply " + a;
        }

        @Override
        public void accept(String a) {
            called.set("accept " + a);
        }

        @Override
        public void accept(String a, String b) {
            called.set("accept " + a + b);
        }

        @Override
        public boolean test(String a) {
            return a.isEmpty();
        }
    }

    /** The two-argument functions (their andThen clashes with Function's), named as the rest. */
    private static final class NamedBi implements BiFunction<String, String, String>, BinaryOperator<String> {
        @Override
        public String toString() {
            return "event-processor-7";
        }

        @Override
        public String apply(String a, String b) {
            return "apply " + a + b;
        }
    }

    @Test
    void aWrappedFunctionIsCalledAndNamedAsTheFunctionItWraps() throws Exception {
        Named f = new Named();
        Runnable r = SyncTasks.runnable(f, null, 0);
        Callable<String> c = SyncTasks.callable(f, null, 0);
        Supplier<String> s = SyncTasks.supplier(f, null, 0);
        Function<String, String> fn = SyncTasks.function(f, null, 0);
        UnaryOperator<String> u = SyncTasks.unaryOperator(f, null, 0);
        BiFunction<String, String, String> bf = SyncTasks.biFunction(new NamedBi(), null, 0);
        BinaryOperator<String> bo = SyncTasks.binaryOperator(new NamedBi(), null, 0);
        Consumer<String> co = SyncTasks.consumer(f, null, 0);
        BiConsumer<String, String> bc = SyncTasks.biConsumer(f, null, 0);
        Predicate<String> p = SyncTasks.predicate(f, null, 0);
        for (Object w : List.of(r, c, s, fn, u, bf, bo, co, bc, p)) {
            assertNotSame(f, w, "wrapped");
            assertEquals("event-processor-7", w.toString(), "named as the function it wraps: " + w.getClass());
        }
        r.run();
        assertEquals("run", f.called.get());
        assertEquals("call", c.call());
        assertEquals("get", s.get());
        assertEquals("apply x", fn.apply("x"));
        assertEquals("apply y", u.apply("y"));
        assertEquals("apply xy", bf.apply("x", "y"));
        assertEquals("apply yz", bo.apply("y", "z"));
        co.accept("a");
        assertEquals("accept a", f.called.get());
        bc.accept("a", "b");
        assertEquals("accept ab", f.called.get());
        assertTrue(p.test(""));
        assertFalse(p.test("x"));
        assertNull(SyncTasks.runnable(null, null, 0), "null stays null: the JDK's own checks see it");
    }

    @Test
    void aThreadNamedAfterItsTaskKeepsTheTasksName() throws Exception {
        Named task = new Named();
        Runnable handedOver = SyncTasks.runnable(task, null, 0);
        Thread t = new Thread(handedOver);
        t.setName(handedOver.toString()); // what the Disruptor's StubThreadFactory does
        t.start();
        t.join();
        assertEquals("event-processor-7", t.getName());
        assertEquals("run", task.called.get());
    }
}
