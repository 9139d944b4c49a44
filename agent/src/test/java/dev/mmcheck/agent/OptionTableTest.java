package dev.mmcheck.agent;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The option table is the one place options are declared: docs/agent.md's option table holds exactly one row per
 * entry, each equal to {@link OptionTable.Option#markdownRow} (key and shape, default, doc line), compared as a set
 * (the docs group the rows by topic; the table keeps the order an unknown key's message lists them in); and every
 * key the table lists is one the parser accepts.
 */
class OptionTableTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    /** The rows of docs/agent.md's table under the {@code | option | default | meaning |} header. */
    private static List<String> docRows() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("docs/agent.md"));
        int header = lines.indexOf("| option | default | meaning |");
        assertTrue(header >= 0, "docs/agent.md has no option table");
        List<String> rows = new ArrayList<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(lines.get(i));
        }
        return rows;
    }

    @Test
    void docsTableIsTheOptionTable() throws IOException {
        List<String> expected = new ArrayList<>();
        for (OptionTable.Option<?> o : OptionTable.ALL) {
            expected.add(o.markdownRow());
        }
        List<String> actual = docRows();
        expected.sort(Comparator.naturalOrder());
        actual.sort(Comparator.naturalOrder());
        assertEquals(String.join("\n", expected), String.join("\n", actual),
                "docs/agent.md's option table must be OptionTable's rows (OptionTable.Option.markdownRow)");
    }

    @Test
    void everyKeyIsKnownOnceAndItsDefaultParses() throws Exception {
        assertEquals(OptionTable.ALL.size(), OptionTable.KEYS.stream().distinct().count(), "a key declared twice");
        for (OptionTable.Option<?> o : OptionTable.ALL) {
            if (o.absent() != null) {
                Options.parse(o.key() + "=" + o.absent(), new Properties()); // the default, given, is valid
            }
        }
        Options.OptionException e = assertThrows(Options.OptionException.class,
                () -> Options.parse("nope=1", new Properties()));
        assertEquals("unknown option 'nope' (agent argument); known options: " + String.join(", ", OptionTable.KEYS),
                e.getMessage());
    }
}
