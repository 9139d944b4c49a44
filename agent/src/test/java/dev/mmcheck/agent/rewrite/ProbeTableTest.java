package dev.mmcheck.agent.rewrite;

import dev.mmcheck.runtime.Probes;
import dev.mmcheck.runtime.SyncTasks;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every call the rewriter can emit exists in the runtime with exactly that name and descriptor (public
 * and static); and every public static method of the facade is in the table (nothing the rewriter could
 * call by a name typed elsewhere).
 */
class ProbeTableTest {

    private static Class<?> owner(Probe p) {
        return p.owner.equals(Probe.Desc.PROBES) ? Probes.class : SyncTasks.class;
    }

    @Test
    void everyProbeMatchesARealMethod() {
        List<String> missing = new ArrayList<>();
        for (Probe p : Probe.values()) {
            boolean found = false;
            for (Method m : owner(p).getDeclaredMethods()) {
                if (m.getName().equals(p.method) && Type.getMethodDescriptor(m).equals(p.descriptor)
                        && Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers())) {
                    found = true;
                }
            }
            if (!found) {
                missing.add(p + ": " + owner(p).getSimpleName() + "." + p.method + p.descriptor);
            }
        }
        assertEquals(List.of(), missing, "probes the runtime does not have");
    }

    @Test
    void everyPublicProbeOfTheFacadeIsInTheTable() {
        Set<String> table = new HashSet<>();
        for (Probe p : Probe.values()) {
            table.add(owner(p).getSimpleName() + "." + p.method + p.descriptor);
        }
        List<String> unlisted = new ArrayList<>();
        for (Class<?> c : List.of(Probes.class, SyncTasks.class)) {
            for (Method m : c.getDeclaredMethods()) {
                String key = c.getSimpleName() + "." + m.getName() + Type.getMethodDescriptor(m);
                if (Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()) && !table.contains(key)) {
                    unlisted.add(key);
                }
            }
        }
        assertEquals(List.of(), unlisted, "public probes no rewriter call names (dead, or named elsewhere)");
    }

    @Test
    void theLookupsCoverEveryLetter() {
        for (char l : "IJFDA".toCharArray()) {
            assertTrue(Probe.logLoad(l).method.endsWith(String.valueOf(l)));
            assertTrue(Probe.logStore(l).method.endsWith(String.valueOf(l)));
        }
        for (char l : "IJFDBCS".toCharArray()) {
            assertTrue(Probe.loadElement(l).method.endsWith(String.valueOf(l)));
        }
        assertEquals(3, Arrays.stream(Probe.values()).filter(p -> p.method.startsWith("joinThread")).count());
        assertEquals(Probe.JOIN_THREAD_2, Probe.join(2));
        assertEquals(Probe.WAIT_1, Probe.waitOn(1));
    }
}
