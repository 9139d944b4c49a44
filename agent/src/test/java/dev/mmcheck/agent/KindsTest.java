package dev.mmcheck.agent;

import dev.mmcheck.checker.event.Codes;
import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runtime writes event kinds with the codes the checker reads: the two constant lists agree. */
class KindsTest {

    @Test
    void runtimeKindsAreTheCheckersCodes() throws Exception {
        int compared = 0;
        for (Field f : Kinds.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) {
                continue;
            }
            int kind = f.getInt(null);
            if (kind >= Codes.COUNT) {
                continue; // runtime-only kinds (THREAD_BEGIN) never reach the checker
            }
            assertEquals(Codes.class.getField(f.getName()).getInt(null), kind, f.getName());
            compared++;
        }
        assertEquals(Codes.COUNT - 1, compared, "every checker code but ADDRESS_DEAD (written by the checker thread)");
        assertTrue(Kinds.THREAD_BEGIN >= Codes.COUNT);
    }
}
