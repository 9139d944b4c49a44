package dev.mmcheck.junit5;

import dev.mmcheck.runtime.TestHooks;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * The listener, found by the launcher through META-INF/services as in any project with mmcheck-junit5 on its test
 * class path, marks each test's beginning and end for the agent whatever engine runs it: here Jupiter's, on a class
 * without the extension (as a JUnit 4 test through Vintage would be). A bridge stands in for the agent.
 */
class MmcheckListenerTest {

    /** The tests the launcher runs here (nested: Surefire does not run them itself). */
    static class Cases {
        @Test
        void first() {
        }

        @org.junit.jupiter.params.ParameterizedTest
        @org.junit.jupiter.params.provider.ValueSource(ints = 7)
        void second(int n) {
        }
    }

    @Test
    void everyTestOfAnyEngineBeginsAndEndsForTheAgent() {
        List<String> calls = new CopyOnWriteArrayList<>();
        TestHooks.install(new TestHooks.Bridge() {
            @Override
            public void begin(String name) {
                calls.add("begin " + name);
            }

            @Override
            public String[] end(String name, long timeoutMillis) {
                calls.add("end " + name);
                return new String[0];
            }
        });
        try {
            Launcher launcher = LauncherFactory.create(); // listeners registered through META-INF/services
            launcher.execute(request().selectors(selectClass(Cases.class)).build());
        } finally {
            TestHooks.install(null);
        }
        List<String> ours = calls.stream().filter(c -> c.contains("Cases.")).toList();
        assertEquals(4, ours.size(), calls.toString());
        for (int i = 0; i < 4; i += 2) { // each test's end right after its beginning, in whichever order they ran
            assertEquals(ours.get(i).replace("begin ", "end "), ours.get(i + 1), calls.toString());
        }
        assertEquals(java.util.Set.of("begin Cases.first()", "begin Cases.second() [[1] 7]"),
                java.util.Set.of(ours.get(0), ours.get(2)), calls.toString());
    }
}
