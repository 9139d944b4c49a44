package dev.mmcheck.runtime;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The application's shutdown hooks (another agent's among them: JaCoCo writes its coverage file in one), so that
 * the agent's own hook, which ends the JVM with {@code halt} when it must set the exit status (failOnViolation,
 * failOnError), lets them finish first: a halt ends every other hook where it stands, and would leave JaCoCo's
 * {@code .exec} empty or cut short. Read from the JDK's own list (java.lang is opened to the runtime
 * at start, agent.Agent.openInternals); where it cannot be read the halt comes at once, as before. Not on any
 * probe's path.
 */
public final class ShutdownHooks {

    /** The JDK's registered hooks: the set stays the same object, and stops changing once shutdown begins. */
    private static volatile Collection<Thread> registered;

    private ShutdownHooks() {
    }

    /** Keeps a view of the JDK's registered hooks; true when it could. At start-up. */
    @SuppressWarnings("unchecked")
    public static boolean capture() {
        try {
            Class<?> hooks = Class.forName("java.lang.ApplicationShutdownHooks");
            Field f = hooks.getDeclaredField("hooks");
            f.setAccessible(true);
            synchronized (hooks) {
                Object map = f.get(null);
                if (map instanceof Map) {
                    registered = ((Map<Thread, Thread>) map).keySet();
                    return true;
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another JDK's internals: the halt comes at once
        }
        return false;
    }

    /** Waits until every other registered hook has finished, {@code millis} at most. From a shutdown hook. */
    public static void awaitOthers(long millis) {
        Collection<Thread> hooks = registered;
        if (hooks == null) {
            return;
        }
        List<Thread> others;
        try {
            others = List.copyOf(hooks);
        } catch (RuntimeException e) {
            return; // still changing: not in a shutdown
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Thread t : others) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (t == Thread.currentThread()) {
                continue;
            }
            if (left <= 0) {
                return;
            }
            try {
                t.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
