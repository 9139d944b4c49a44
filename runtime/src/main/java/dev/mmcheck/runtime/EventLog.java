package dev.mmcheck.runtime;

import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The global side of the event log: the registry of thread logs that the checker thread reads, and
 * the switches the agent sets at start-up. Thread logs are created on a thread's first event (or
 * when another thread starts it) and announced to the checker thread through a JCTools MPSC queue.
 */
public final class EventLog {

    private EventLog() {
    }

    /** Events per thread log; set by the agent before the first event. */
    static volatile int capacity = 1 << 14;
    /**
     * Events per virtual thread's log, at most: a program may have many thousands alive at once (each parked in a
     * sleep or a blocking call), and a platform thread's ring (about 700 KB) each would not fit in any heap; a
     * small ring only makes a busy virtual thread wait for the checker more often (it parks, freeing its carrier).
     */
    static final int VIRTUAL_CAPACITY = 256;
    /** {@code Thread.isVirtual()} on Java 21+, null before (no virtual threads then). */
    private static final java.lang.invoke.MethodHandle IS_VIRTUAL = isVirtualHandle();
    private static final java.lang.invoke.MethodHandle THREAD_ID = threadIdHandle();
    /** Whether probes record values for the self-check; set by the agent before the first event. */
    static volatile boolean selfCheck;
    /** Set at shutdown: from then on probes perform their accesses without logging them. */
    static volatile boolean closed;
    /**
     * Set once the run declares transactions (by the agent at start-up when atomic= is given or a
     * serializability check is chosen, else when an atomic method is first entered: not when one is
     * merely loaded, as a class listing its samples loads them all):
     * from then on no load is left unlogged as a repeat (Probes), so the serializability checks see
     * every access.
     */
    static volatile boolean transactions;
    /**
     * Whether every load is logged, repeats too: with the self-check, once transactions are declared,
     * when the Sober monitor runs (its "last read" knowledge is not monotone in the reads it sees), or
     * when the user asks for it (docs/agent.md, "Loads that are not logged"). Derived from the flags.
     */
    static volatile boolean everyLoad;
    /** The checker thread, which never logs. */
    private static volatile Thread checker;

    private static final AtomicInteger SERIALS = new AtomicInteger();
    // the atomic-field-updater variant: no sun.misc.Unsafe, so no warnings on recent JDKs
    private static final MpscUnboundedAtomicArrayQueue<ThreadLog> FRESH = new MpscUnboundedAtomicArrayQueue<>(64);
    // keyed by the thread's identity: a Thread subclass may override hashCode and equals, and its override is
    // instrumented application code that would ask for this very log (a loop), or make two threads share one
    private static final ConcurrentHashMap<ThreadKey, ThreadLog> BY_THREAD = new ConcurrentHashMap<>();

    /** A thread as a map key, by identity (one allocation per lookup: at a thread's start, begin and join, not per access). */
    private record ThreadKey(Thread thread) {
        @Override
        public int hashCode() {
            return System.identityHashCode(thread);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ThreadKey k && k.thread == thread;
        }
    }
    private static final ThreadLocal<ThreadLog> CURRENT = ThreadLocal.withInitial(EventLog::attach);

    /**
     * The calling thread's log. Any thread. Called at the entry of every instrumented method, which in a solo
     * period is most of what an access left out costs (a ThreadLocal lookup is a hash probe and a weak reference's
     * read): the log of the thread in the period answers first, checked by the thread's identity (not its id, which
     * a subclass of Thread may override), and any other thread takes the ThreadLocal's. Only the thread in the
     * period writes the entry, so threads running together never write it back and forth.
     */
    public static ThreadLog current() {
        SoloLog c = soloLog; // a plain read: any entry found is a whole one (its fields are final)
        Thread me = Thread.currentThread();
        if (c != null && c.thread == me) {
            return c.log;
        }
        ThreadLog l = CURRENT.get();
        if (Solo.owner == l) {
            soloLog = new SoloLog(me, l); // once per period and thread: not per access
        }
        return l;
    }

    /** A thread and its log: {@link #current}'s cache entry. */
    private record SoloLog(Thread thread, ThreadLog log) {
    }

    /**
     * The thread last found in a solo period by {@link #current}, with its log, or null: a hint, read by any thread
     * (it keeps at most one ended thread's log from being collected).
     */
    private static SoloLog soloLog;

    private static ThreadLog attach() {
        Thread me = Thread.currentThread();
        ThreadLog log = logOf(me);
        if (me == checker) {
            log.muted = true;
        } else if (!closed) {
            // the begin event: after the start event of whoever started this thread, on the same stripe
            int s = Stripes.of(me, Probes.START);
            Stripes.lock(s);
            if (!closed) { // re-checked under the stripe, as for accesses (Probes.take)
                if (Solo.epoch != log.seenEpoch) {
                    Solo.passed(log); // a solo period claimed, or its hand-over pending (Solo)
                }
                log.offer(Kinds.THREAD_BEGIN, -1, me, Probes.START, s, Stripes.nextSeq(s), 0);
            }
            Stripes.unlock(s);
        }
        return log;
    }

    /** The log of {@code thread}, created (and announced to the checker thread) if it has none. Any thread. */
    public static ThreadLog logOf(Thread thread) {
        ThreadKey key = new ThreadKey(thread);
        ThreadLog log = BY_THREAD.get(key);
        if (log != null) {
            return log;
        }
        return BY_THREAD.computeIfAbsent(key, k -> {
            Thread t = k.thread();
            boolean virtual = isVirtual(t);
            ThreadLog fresh = new ThreadLog(SERIALS.getAndIncrement(), t,
                    virtual ? Math.min(capacity, VIRTUAL_CAPACITY) : capacity);
            Solo.created(fresh); // ends a solo period, before anything can log on the new log
            if (virtual) {
                Solo.virtualThreadSeen(); // and no more of them (Solo.virtualThreads says why)
            }
            FRESH.offer(fresh);
            return fresh;
        });
    }

    private static java.lang.invoke.MethodHandle isVirtualHandle() {
        try {
            return java.lang.invoke.MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    java.lang.invoke.MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // Java 17 to 20: no virtual threads
        }
    }

    /**
     * The id of {@code t} without calling application code: {@code Thread.threadId()} (final, JDK 19+), else
     * {@code getId()} of a plain {@code Thread}; a subclass on JDK 17, whose {@code getId} may be an instrumented
     * override (which would ask for this very log), gets {@code #serial}, the log's own number. Once per thread whose
     * name is empty, when its log is made.
     */
    static String idOf(Thread t, int serial) {
        if (THREAD_ID != null) {
            try {
                return Long.toString((long) THREAD_ID.invokeExact(t));
            } catch (Throwable e) {
                // fall through
            }
        }
        return t.getClass() == Thread.class ? Long.toString(plainThreadId(t)) : "#" + serial;
    }

    @SuppressWarnings("deprecation")
    private static long plainThreadId(Thread t) {
        return t.getId(); // Thread's own: the caller checked the class
    }

    private static java.lang.invoke.MethodHandle threadIdHandle() {
        try {
            return java.lang.invoke.MethodHandles.publicLookup().findVirtual(Thread.class, "threadId",
                    java.lang.invoke.MethodType.methodType(long.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // Java 17 and 18
        }
    }

    /** Whether {@code t} is a virtual thread (JDK code, not instrumented; once per thread, when its log is made). */
    static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            return false;
        }
    }

    /** The log of {@code thread} if it has one, else null. Any thread. */
    public static ThreadLog existingLogOf(Thread thread) {
        return BY_THREAD.get(new ThreadKey(thread));
    }

    // ---------------------------------------------------------------- for the agent

    /** Sets the per-thread log capacity (events) and the self-check, before any event. */
    public static void configure(int eventsPerThread, boolean recordValues) {
        capacity = eventsPerThread;
        selfCheck = recordValues;
        transactions = false; // a fresh configuration declares none yet
        everyLoad = selfCheck;
    }

    /** From now on every load is logged, repeats too. Any thread. */
    public static void logEveryLoad() {
        everyLoad = true;
    }

    /** Declares that the run has transactions (see {@link #transactions}). Any thread. */
    public static void declareTransactions() {
        if (!transactions) {
            transactions = true;
            everyLoad = true;
            Solo.end(); // the serializability checks need every access
        }
    }

    /** Whether the run has declared transactions. Any thread. */
    public static boolean hasTransactions() {
        return transactions;
    }

    /** Declares the checker thread, whose own events are never logged. */
    public static void checkerThread(Thread thread) {
        checker = thread;
    }

    /** The next thread log created since the last call, or null. Checker thread only. */
    public static ThreadLog pollFresh() {
        return FRESH.relaxedPoll();
    }

    /** Forgets {@code thread} after it has ended and its log is drained. Checker thread only. */
    public static void forget(Thread thread) {
        BY_THREAD.remove(new ThreadKey(thread));
    }

    /** Stops logging: from now on probes only perform their accesses. Any thread. */
    public static void close() {
        closed = true;
    }
}
