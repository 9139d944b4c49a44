package dev.mmcheck.samples;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The object pool of samples S35 and S36, written as a connection pool's bag of entries is: a borrower claims a
 * free entry with a CAS on its state and then uses the pooled connection (reads and writes its fields: when it
 * was last used, how many statements it ran); on release it marks the entry free. How it marks it free is the
 * sample's choice: {@link #run} takes it. Two workers take turns with one pooled connection, as request threads
 * do: after a use each writes its request's journal (its own array) and then waits a millisecond or two for its
 * next request, so that each is often the only thread running, for long enough that mmcheck leaves its accesses
 * out (solo periods, docs/agent.md): the hand-over from one to the other must still be seen.
 */
final class Pool {

    /** How a worker marks the entry free again. */
    interface Release {
        /** Marks {@code entry} free through {@code state}, its state's handle. */
        void release(VarHandle state, Entry entry);
    }

    static final int FREE = 0;
    static final int IN_USE = 1;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Entry.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A pooled connection: written by each borrower in turn. */
    static final class Connection {
        long lastUsed;
        int statements;
    }

    /** The pool's entry for a connection: its state is claimed with a CAS. */
    static final class Entry {
        final Connection connection = new Connection();
        volatile int state;
    }

    private final Entry entry = new Entry();
    private final Release release;
    private long stale;

    private Pool(Release release) {
        this.release = release;
    }

    /** Claims the entry, spinning while the other worker has it (the fast path of a pool's borrow). */
    private Connection borrow() {
        while (!STATE.compareAndSet(entry, FREE, IN_USE)) {
            Thread.onSpinWait();
        }
        return entry.connection;
    }

    private void worker(int id, int uses) {
        int[] journal = new int[8192];
        for (int i = 0; i < uses; i++) {
            Connection c = borrow();
            long last = c.lastUsed; // mmcheck:access
            int n = c.statements; // mmcheck:access
            if (last > 0 && n == 0) {
                stale++; // a use seen without its statements: the fields came out of order
            }
            c.statements = n + 1; // mmcheck:store
            c.lastUsed = i * 2L + id + 1; // mmcheck:store
            release.release(STATE, entry);
            for (int k = 0; k < 6_000; k++) { // the worker's own work after the release: its request's journal
                journal[(i * 6_000 + k) & (journal.length - 1)] = k ^ i;
            }
            think(i);
        }
    }

    /**
     * Waits for the worker's next request, parked a few milliseconds as an idle request thread is (a fence, so the
     * worker waits with nothing buffered), while the other worker runs alone.
     */
    private static void think(int i) {
        LockSupport.parkNanos(2_000_000L + (i % 3) * 1_000_000L);
    }

    /** Two workers, {@code uses} uses each, releasing with {@code release}; prints {@code name}'s summary line. */
    static void run(String name, int uses, Release release) {
        Pool pool = new Pool(release);
        Thread a = new Thread(() -> pool.worker(0, uses), "worker-1");
        Thread b = new Thread(() -> pool.worker(1, uses), "worker-2");
        a.start();
        b.start();
        Samples.join(a);
        Samples.join(b);
        System.out.println(name + ": " + pool.entry.connection.statements + " statements, " + pool.stale + " stale reads");
    }
}
