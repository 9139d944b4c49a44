package dev.mmcheck.runtime;

import java.lang.reflect.Field;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Which address stands for the synchronization a call into the JDK makes on an object (docs/agent.md,
 * "Synchronization per object"): the object itself for most synchronizers (a latch, a barrier, a semaphore, a queue,
 * a concurrent map), so that two unrelated synchronizers never order each other; the object the JDK really
 * synchronizes on where that is another one, so that the edges it makes stay (a lock's conditions and a
 * read-write lock's two locks on the lock's queue, a concurrent collection's views, iterators and entries on the
 * collection, a phaser on the root of its tree, a synchronized collection on its mutex, as a monitor); and one
 * shared address for executors, futures and completion stages, whose hand-overs run through tasks, workers and
 * result objects the calls do not name (over-ordering them among themselves, as all of java.util.concurrent was
 * before), and another for java.io. Without access to the JDK's internals (the agent opens them at start) every
 * java.util.concurrent call keeps the shared address. Any thread; allocates nothing once a class is known.
 */
final class SyncObjects {

    private SyncObjects() {
    }

    /** How the address of a call on an object of a class is found. */
    private static final class Rule {
        /** The object itself. */
        static final int SELF = 0;
        /** The shared address of executors, futures and completion stages. */
        static final int SHARED = 1;
        /** The object in field {@link #field}, then that object's rule. */
        static final int FOLLOW = 2;
        /** The root of a phaser's tree. */
        static final int ROOT = 3;
        /** java.io's address. */
        static final int IO = 4;

        final int how;
        final Field field;
        /** The pseudo-field of the address: {@link Probes#JUC}, or {@link Probes#MONITOR} for a monitor the JDK takes. */
        final int slot;
        /** Whether the object found is the end (a mutex, which may be any object: its own class says nothing). */
        final boolean last;

        Rule(int how, Field field, int slot, boolean last) {
            this.how = how;
            this.field = field;
            this.slot = slot;
            this.last = last;
        }
    }

    private static final Rule SELF = new Rule(Rule.SELF, null, Probes.JUC, true);
    private static final Rule SHARED = new Rule(Rule.SHARED, null, Probes.JUC, true);
    private static final Rule ROOT = new Rule(Rule.ROOT, null, Probes.JUC, true);
    private static final Rule IO = new Rule(Rule.IO, null, Probes.JUC, true);
    private static final Rule MONITOR = new Rule(Rule.SELF, null, Probes.MONITOR, true);

    /** Whether the JDK's internal fields can be read (the agent opened their packages to the runtime). */
    static final boolean OPEN = field(ReentrantLock.class, "sync") != null
            && field(forName("java.util.concurrent.ConcurrentHashMap$CollectionView"), "map") != null
            && field(forName("java.util.Collections$SynchronizedCollection"), "mutex") != null;

    private static final ClassValue<Rule> RULES = new ClassValue<>() {
        @Override
        protected Rule computeValue(Class<?> type) {
            return rule(type);
        }
    };

    /**
     * The object whose address stands for a call's synchronization on {@code receiver} ({@link Probes#JUC_OBJECT},
     * the shared address, for null: a static call); its pseudo-field is left in {@code t.syncSlotOut}.
     */
    static Object of(Object receiver, ThreadLog t) {
        t.syncSlotOut = Probes.JUC;
        if (receiver == null) {
            return Probes.JUC_OBJECT;
        }
        Object o = receiver;
        Rule first = null;
        for (int depth = 0; depth < 8; depth++) {
            Rule r = RULES.get(o.getClass());
            if (first == null) {
                first = r;
                t.syncSlotOut = r.slot;
            }
            switch (r.how) {
                case Rule.SHARED:
                    t.syncSlotOut = Probes.JUC;
                    return Probes.JUC_OBJECT;
                case Rule.IO:
                    return Probes.IO_OBJECT;
                case Rule.ROOT:
                    return ((Phaser) o).getRoot();
                case Rule.FOLLOW:
                    Object next = read(r.field, o);
                    if (next == null) {
                        return o;
                    }
                    o = next;
                    if (r.last) {
                        return o;
                    }
                    break;
                default:
                    return o;
            }
        }
        return o;
    }

    private static Object read(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    /** The rule of a class, from what it is and, for the JDK's classes, the fields that link it to its synchronizer. */
    private static Rule rule(Class<?> c) {
        if (Executor.class.isAssignableFrom(c) || Future.class.isAssignableFrom(c)
                || CompletionStage.class.isAssignableFrom(c) || CompletionService.class.isAssignableFrom(c)
                || Flow.Publisher.class.isAssignableFrom(c)) {
            return SHARED; // tasks, workers and results the calls do not name
        }
        String n = c.getName();
        boolean jdk = c.getClassLoader() == null;
        if (jdk && (n.equals("java.util.Vector") || n.equals("java.util.Stack") || n.equals("java.util.Hashtable")
                || n.equals("java.lang.StringBuffer"))) {
            return MONITOR; // synchronized methods: the object's own monitor, which the application may take too
        }
        if (java.io.InputStream.class.isAssignableFrom(c) || java.io.OutputStream.class.isAssignableFrom(c)
                || java.io.Reader.class.isAssignableFrom(c) || java.io.Writer.class.isAssignableFrom(c)) {
            return IO; // the JDK's streams and their subclasses (a test runner's System.out): wrappers share locks
        }
        if (jdk && n.startsWith("java.util.Collections$Synchronized")) {
            Field mutex = field(c, "mutex");
            return OPEN && mutex != null ? new Rule(Rule.FOLLOW, mutex, Probes.MONITOR, true) : SHARED;
        }
        if (Phaser.class.isAssignableFrom(c)) {
            return ROOT;
        }
        boolean juc = jdk && n.startsWith("java.util.concurrent.");
        if (!OPEN) {
            return juc || ReentrantLock.class.isAssignableFrom(c) || ReentrantReadWriteLock.class.isAssignableFrom(c)
                    ? SHARED : SELF; // as before: one address for all
        }
        if (ReentrantLock.class.isAssignableFrom(c)) {
            return follow(field(ReentrantLock.class, "sync"));
        }
        if (ReentrantReadWriteLock.class.isAssignableFrom(c)) {
            return follow(field(ReentrantReadWriteLock.class, "sync"));
        }
        if (!juc) {
            return SELF;
        }
        if (n.equals("java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock")
                || n.equals("java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock")) {
            return follow(field(c, "sync"));
        }
        Field outer = field(c, "this$0"); // conditions, a stamped lock's views, iterators, sublists: their owner
        if (outer != null) {
            return follow(outer);
        }
        if (n.startsWith("java.util.concurrent.ConcurrentHashMap$")) {
            Field map = field(c, "map"); // views, iterators, entries
            return map != null ? follow(map) : SELF;
        }
        if (n.startsWith("java.util.concurrent.ConcurrentSkipListMap$") || n.equals("java.util.concurrent.ConcurrentSkipListSet")) {
            Field m = field(c, "m"); // views, sub-maps, the set's map
            return m != null ? follow(m) : SELF;
        }
        if (n.equals("java.util.concurrent.CopyOnWriteArraySet")) {
            return follow(field(c, "al"));
        }
        return SELF;
    }

    /** A rule that follows {@code f}, or the shared address when the field is not there to follow (another JDK). */
    private static Rule follow(Field f) {
        return f == null ? SHARED : new Rule(Rule.FOLLOW, f, Probes.JUC, false);
    }

    /** Instance field {@code name} of {@code c} or a superclass, made readable, or null. */
    static Field field(Class<?> c, String name) {
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                    return null;
                }
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // its superclass
            } catch (RuntimeException e) {
                return null; // not opened to the runtime
            }
        }
        return null;
    }

    private static Class<?> forName(String n) {
        try {
            return Class.forName(n, false, null);
        } catch (ClassNotFoundException e) {
            return Object.class;
        }
    }
}
