package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.ThreadLog;
import net.bytebuddy.pool.TypePool;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fixture classes rewritten in memory (with their nested classes) and loaded child-first, for tests of what the
 * rewritten code logs: each method runs on a thread of its own, and its events are read back from that thread's log.
 */
final class Rewritten {

    /** One event as the log holds it. */
    record Ev(int kind, int slot, Object object, long value, int site) {
    }

    final FieldTable fields = new FieldTable();
    final SiteTable sites = new SiteTable();
    private final Loader loader = new Loader();

    /** Rewrites {@code fixture} and its nested classes. */
    Rewritten(Class<?> fixture) throws IOException {
        add(fixture);
    }

    private void add(Class<?> c) throws IOException {
        loader.classes.put(c.getName(), transform(c));
        for (Class<?> nested : c.getDeclaredClasses()) {
            add(nested);
        }
    }

    private byte[] transform(Class<?> c) throws IOException {
        byte[] original;
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            original = in.readAllBytes();
        }
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return Rewritten.class.getClassLoader();
            }
        };
        ClassRewriter.Context ctx = ClassRewriter.Context.of(fields, sites, (className, method) -> false, true);
        new ClassReader(original).accept(new ClassRewriter(writer, ctx, new TypeFacts(TypePool.Default.ofSystemLoader()),
                false), ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /** The rewritten class of {@code fixture}. */
    Class<?> load(Class<?> fixture) throws ClassNotFoundException {
        return loader.loadClass(fixture.getName());
    }

    /** A new instance of the rewritten {@code fixture}, made on the calling thread. */
    Object instance(Class<?> fixture) throws ReflectiveOperationException {
        return load(fixture).getConstructor().newInstance();
    }

    /** Calls {@code method} of {@code target} (an instance of a rewritten class) on a new thread; returns its events. */
    List<Ev> run(Object target, String method, Object... args) throws Exception {
        Method m = null;
        for (Method x : target.getClass().getMethods()) {
            if (x.getName().equals(method)) {
                m = x;
            }
        }
        if (m == null) {
            throw new AssertionError("no method " + method);
        }
        Method callee = m;
        List<Ev> events = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                ThreadLog log = EventLog.current();
                long from = log.lvProducerIndex();
                try {
                    callee.invoke(target, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    failure[0] = e.getCause();
                }
                for (long i = from; i < log.lvProducerIndex(); i++) {
                    events.add(new Ev(log.lpInt(i, ThreadLog.KIND), log.lpInt(i, ThreadLog.SLOT), log.lpObject(i),
                            log.lpValue(i), log.lpInt(i, ThreadLog.SITE)));
                }
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, method);
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new AssertionError(method + " failed", failure[0]);
        }
        return events;
    }

    /** The kinds of {@code events}, in order. */
    static List<Integer> kinds(List<Ev> events) {
        return events.stream().map(Ev::kind).toList();
    }

    /** Loads the rewritten classes child-first. */
    private static final class Loader extends ClassLoader {
        final Map<String, byte[]> classes = new HashMap<>();

        Loader() {
            super(Rewritten.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            byte[] bytes = classes.get(n);
            if (bytes != null) {
                synchronized (getClassLoadingLock(n)) {
                    Class<?> c = findLoadedClass(n);
                    return c != null ? c : defineClass(n, bytes, 0, bytes.length);
                }
            }
            return super.loadClass(n, resolve);
        }
    }
}
