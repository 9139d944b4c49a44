package dev.mmcheck.checker.event;

import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** EventKind names the runtime's codes: one per checker code of {@link Kinds}, under the same name. */
class EventKindTest {

    @Test
    void everyCheckerCodeOfKindsIsTheEventKindOfTheSameName() throws Exception {
        Set<String> named = new HashSet<>();
        for (Field f : Kinds.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) {
                continue;
            }
            int code = f.getInt(null);
            if (code < Codes.COUNT) {
                assertEquals(f.getName(), EventKind.of(code).name(), "code " + code);
                named.add(f.getName());
            } else {
                // codes the checker does not know stay between the runtime and the checker thread
                assertTrue(code >= 32, f.getName() + " = " + code + ": a checker code without an EventKind");
            }
        }
        assertEquals(EventKind.values().length, named.size(), "an EventKind without its code in Kinds");
        assertEquals(EventKind.values().length, Codes.COUNT);
    }

    @Test
    void theHotPathTablesAreTheKinds() {
        for (EventKind k : EventKind.values()) {
            assertEquals(k.isAccess(), Codes.isAccess(k.code()), k.name());
            assertEquals(k.writes(), Codes.writes(k.code()), k.name());
        }
        assertTrue(Codes.isAccess(Kinds.MONITOR_EXIT) && Codes.writes(Kinds.INTERLOCKED) && !Codes.writes(Kinds.LOAD));
        assertTrue(!Codes.isAccess(Kinds.ADDRESS_DEAD) && !Codes.isAccess(Kinds.FULL_FENCE));
    }
}
