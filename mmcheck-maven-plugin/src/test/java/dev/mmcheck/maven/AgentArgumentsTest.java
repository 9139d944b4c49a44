package dev.mmcheck.maven;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentArgumentsTest {

    private static final Path REPORT = Path.of("/t/mmcheck/fork-%p.json");

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void theForksRecordAndNeverFailTheirJvm() throws Exception {
        String args = AgentArguments.forForks(REPORT, AgentArguments.chosen(params("models", "pso", "schedule", null),
                "sample=0.5"));
        assertEquals("report=/t/mmcheck/fork-%p.json,failOnViolation=false,failOnError=false,models=pso,sample=0.5",
                args);
    }

    @Test
    void triageIsLeftToCheck() throws Exception {
        String args = AgentArguments.forForks(REPORT, AgentArguments.chosen(params("failOn", "race"), "schedule=os"));
        assertEquals("report=/t/mmcheck/fork-%p.json,failOnViolation=false,failOnError=false,schedule=os", args);
    }

    @Test
    void aBadValueIsTheAgentsOwnOneLineMessage() {
        AgentArguments.BadOption e = assertThrows(AgentArguments.BadOption.class,
                () -> AgentArguments.forForks(REPORT, AgentArguments.chosen(params("schedule", "sometimes"), null)));
        assertEquals("mmcheck: option schedule=sometimes must be os or active", e.getMessage());
        e = assertThrows(AgentArguments.BadOption.class,
                () -> AgentArguments.forForks(REPORT, AgentArguments.chosen(params("failOn", "races"), null)));
        assertTrue(e.getMessage().startsWith("mmcheck: option failOn: unknown category 'races'"), e.getMessage());
        e = assertThrows(AgentArguments.BadOption.class,
                () -> AgentArguments.forForks(REPORT, AgentArguments.chosen(params(), "modles=tso")));
        assertTrue(e.getMessage().startsWith("mmcheck: unknown option 'modles'"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void whatThePluginSetsOrAKeyGivenTwiceIsRefused() {
        AgentArguments.BadOption e = assertThrows(AgentArguments.BadOption.class,
                () -> AgentArguments.chosen(params(), "report=/x.json"));
        assertTrue(e.getMessage().contains("reportDirectory"), e.getMessage());
        e = assertThrows(AgentArguments.BadOption.class,
                () -> AgentArguments.chosen(params(), "failOnViolation=true"));
        assertTrue(e.getMessage().contains("failOn="), e.getMessage());
        e = assertThrows(AgentArguments.BadOption.class,
                () -> AgentArguments.chosen(params("models", "tso"), "models=pso"));
        assertTrue(e.getMessage().contains("given twice"), e.getMessage());
        e = assertThrows(AgentArguments.BadOption.class, () -> AgentArguments.chosen(params(), "sample"));
        assertTrue(e.getMessage().contains("not KEY=VALUE"), e.getMessage());
    }
}
