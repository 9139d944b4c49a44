package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.Options;
import dev.mmcheck.agent.fixtures.Transactions;
import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.ThreadLog;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactions as the agent emits them: atomic methods (by annotation named Atomic, or by the atomic=
 * option) are bracketed by tx-begin and tx-end, the outermost of nested and recursive calls only, and
 * also when they end by an exception; a synchronized atomic method's monitor events are inside.
 */
class TransactionsTest {

    private static final int B = Kinds.TX_BEGIN;
    private static final int E = Kinds.TX_END;
    private static final int L = Kinds.LOAD;
    private static final int S = Kinds.STORE;

    private static byte[] transform(Class<?> c, Options options) throws IOException {
        byte[] original;
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            original = in.readAllBytes();
        }
        FieldTable fields = new FieldTable();
        SiteTable sites = new SiteTable();
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return TransactionsTest.class.getClassLoader();
            }
        };
        ClassRewriter.Context ctx = ClassRewriter.Context.of(fields, sites, options::atomic, options.checksTransactions());
        new ClassReader(original).accept(new ClassRewriter(writer, ctx, new TypeFacts(TypePool.Default.ofSystemLoader())),
                ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    private static final class Loader extends ClassLoader {
        private final String name;
        private final byte[] bytes;

        Loader(String name, byte[] bytes) {
            super(TransactionsTest.class.getClassLoader());
            this.name = name;
            this.bytes = bytes;
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            if (n.equals(name)) {
                synchronized (getClassLoadingLock(n)) {
                    Class<?> c = findLoadedClass(n);
                    return c != null ? c : defineClass(n, bytes, 0, bytes.length);
                }
            }
            return super.loadClass(n, resolve);
        }
    }

    /** Runs {@code method} on a fresh instance in a new thread; the kinds of the events it logged. */
    private static List<Integer> run(byte[] b, String method, Object... args) throws Exception {
        Class<?> c = new Loader(Transactions.class.getName(), b).loadClass(Transactions.class.getName());
        Method m = null;
        for (Method x : c.getMethods()) {
            if (x.getName().equals(method)) {
                m = x;
            }
        }
        assertNotNull(m, method);
        Method target = m;
        Object o = c.getConstructor().newInstance();
        List<Integer> kinds = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            ThreadLog log = EventLog.current();
            long from = log.lvProducerIndex();
            try {
                target.invoke(o, args);
            } catch (java.lang.reflect.InvocationTargetException expected) {
                // fails() throws: its events are what we look at
            } catch (Throwable e) {
                failure[0] = e;
            }
            for (long i = from; i < log.lvProducerIndex(); i++) {
                kinds.add(log.lpInt(i, ThreadLog.KIND));
            }
        });
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        return kinds;
    }

    @Test
    void atomicMethodsAreTransactionsOnceEvenWhenNested() throws Exception {
        EventLog.configure(1 << 12, true);
        byte[] b = transform(Transactions.class, Options.parse("atomic=dev.mmcheck.agent.fixtures.Transactions#byOpt*",
                new java.util.Properties()));
        assertEquals(List.of(B, L, S, E), run(b, "inc"));
        assertEquals(List.of(B, L, S, L, S, L, S, E), run(b, "outer"), "inc's own brackets are inside outer's");
        assertEquals(List.of(B, L, S, L, S, L, S, E), run(b, "depth", 2), "one transaction for the recursion");
        assertEquals(List.of(B, L, S, E), run(b, "fails"), "the exception ends the transaction");
        assertEquals(List.of(B, L, S, E, S, S), run(b, "callsFailing"), "after the exception, outside again");
        assertEquals(List.of(B, Kinds.MONITOR_ENTER, L, S, Kinds.MONITOR_EXIT, E), run(b, "syncInc"));
        assertEquals(List.of(B, E), run(b, "twice", 3), "a static atomic method with no access is still a transaction");
        assertEquals(List.of(B, S, E), run(b, "byOption"), "declared by the option");
        assertEquals(List.of(S), run(b, "plain"));
        // the interface with an abstract atomic method loads: nothing is rewritten there
        byte[] pool = transform(Transactions.Pool.class, Options.parse(null, new java.util.Properties()));
        assertEquals(Transactions.Pool.class.getName(),
                new Loader(Transactions.Pool.class.getName(), pool).loadClass(Transactions.Pool.class.getName()).getName());
    }

    /**
     * Repeated loads: without transactions a load repeating the thread's last access (no write since)
     * is left out; once the run declares transactions every load is logged, inside atomic methods and
     * outside, since a repeat can matter to the serializability checks (docs/serializability.md).
     */
    @Test
    void onceTransactionsAreDeclaredEveryLoadIsLogged() throws Exception {
        EventLog.configure(1 << 12, false);
        byte[] b = transform(Transactions.class, Options.parse(null, new java.util.Properties()));
        assertEquals(List.of(L), run(b, "readRead"), "without transactions the repeat is left out");
        int[] array = new int[4];
        assertEquals(List.of(L), run(b, "sumThree", (Object) array), "without transactions, optimistic repeats");
        EventLog.declareTransactions();
        for (int i = 0; i < 20; i++) {
            assertEquals(List.of(L, L), run(b, "readRead"));
            assertEquals(List.of(B, L, L, E), run(b, "readTwice"));
            assertEquals(List.of(B, S, L, L, E), run(b, "writeThenReadTwice"));
            assertEquals(List.of(L, L, L), run(b, "readOtherRead"));
        }
        assertEquals(List.of(L, L, L), run(b, "sumThree", (Object) array), "primitive array loads: no optimistic repeat");
    }

    /** Entering an atomic method declares transactions even when nothing declared them at start-up. */
    @Test
    void enteringAnAtomicMethodDeclaresTransactions() throws Exception {
        EventLog.configure(1 << 12, false);
        byte[] b = transform(Transactions.class, Options.parse(null, new java.util.Properties()));
        assertFalse(EventLog.hasTransactions());
        assertEquals(List.of(L), run(b, "readRead"));
        assertEquals(List.of(B, L, S, E), run(b, "inc"));
        assertTrue(EventLog.hasTransactions());
        assertEquals(List.of(L, L), run(b, "readRead"));
    }

    /**
     * With models= leaving out both serializability checks, atomic methods (by option or annotation) are
     * not transactions: no brackets, nothing declared, and repeated loads are left out as without them.
     */
    @Test
    void withoutASerializabilityCheckAtomicMethodsAreNotTransactions() throws Exception {
        EventLog.configure(1 << 12, false);
        Options o = Options.parse("atomic=dev.mmcheck.agent.fixtures.Transactions#byOpt*,models=tso:pso",
                new java.util.Properties());
        assertFalse(o.declaresTransactions());
        byte[] b = transform(Transactions.class, o);
        assertEquals(List.of(L, S), run(b, "inc"), "annotated, but no check");
        assertEquals(List.of(S), run(b, "byOption"), "declared by the option, but no check");
        assertEquals(List.of(L), run(b, "readTwice"), "the repeat is left out");
        assertFalse(EventLog.hasTransactions());
        Options with = Options.parse("atomic=dev.mmcheck.agent.fixtures.Transactions#byOpt*,models=tso:tsoser",
                new java.util.Properties());
        assertTrue(with.declaresTransactions());
        assertEquals(List.of(B, S, E), run(transform(Transactions.class, with), "byOption"));
    }
}
