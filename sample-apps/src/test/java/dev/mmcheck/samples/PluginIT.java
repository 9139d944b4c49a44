package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mmcheck's Maven plugin in a user's project (src/it/plugin-project) that declares it and nothing else of mmcheck's:
 * the racy test's finding fails {@code verify} with the finding in the message, two forks' reports merge into one,
 * the clean test passes; beside JaCoCo's agent, declared before or after mmcheck's plugin (and Mockito's agent on
 * argLine), both agents work: mmcheck reports the race and nothing on JaCoCo's probes, and JaCoCo's coverage is the
 * same as without mmcheck.
 */
class PluginIT {

    private static final String JACOCO = """
            <plugin>
                    <groupId>org.jacoco</groupId>
                    <artifactId>jacoco-maven-plugin</artifactId>
                    <version>${jacoco.version}</version>
                    <executions>
                      <execution>
                        <goals>
                          <goal>prepare-agent</goal>
                        </goals>
                      </execution>
                    </executions>
                  </plugin>""";

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private static Path repo;

    @BeforeAll
    static void stage() throws IOException {
        repo = ChildMaven.stagedRepository(shared);
    }

    /** The project with {@code replacements} (comment name to XML) made in its pom. */
    private ChildMaven project(Map<String, String> replacements) throws IOException {
        ChildMaven child = ChildMaven.of("plugin-project", dir);
        Path pom = child.dir().resolve("pom.xml");
        String xml = Files.readString(pom);
        for (Map.Entry<String, String> r : replacements.entrySet()) {
            xml = xml.replace("<!--" + r.getKey() + "-->", r.getValue());
        }
        Files.writeString(pom, xml);
        return child;
    }

    private static JsonNode merged(ChildMaven child) throws IOException {
        return new ObjectMapper().readTree(child.dir().resolve("target/mmcheck/mmcheck.json").toFile());
    }

    /** The fields of the report's findings, as {@code Class.field} without object numbers. */
    private static List<String> fields(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : report.get("violations")) {
            for (JsonNode e : v.path("events")) {
                out.add(e.path("field").asText().replaceAll("#\\d+", ""));
            }
        }
        return out;
    }

    @Test
    void aRaceFailsVerifyWithItsFindingAndTheForksMergeIntoOneReport() throws Exception {
        ChildMaven child = project(Map.of());
        ChildMaven.Build build = child.run("forks", repo, List.of("verify", "-Dforks=2", "-Dtest=RacyTest,CleanTest"));
        assertEquals(1, build.exit(), build.output());
        assertTrue(build.output().contains("Tests run: 2, Failures: 0, Errors: 0"), "the tests themselves pass: "
                + build.output());
        assertTrue(build.output().matches("(?s).*\\[ERROR] Failed to execute goal dev.mmcheck:mmcheck-maven-plugin:[^:]+:check"
                + ".*mmcheck: [0-9]+ findings? fails? the build.*Flags.java:[12][0-9].*"), "check fails verify with the finding: "
                + build.output());
        List<Path> forks;
        try (Stream<Path> files = Files.list(child.dir().resolve("target/mmcheck"))) {
            forks = files.filter(f -> f.getFileName().toString().matches("fork-\\d+\\.json")).toList();
        }
        assertEquals(2, forks.size(), "one report per fork: " + forks);
        JsonNode report = merged(child);
        assertEquals(2, report.path("run").path("reports").asInt(), report.path("run").toString());
        assertTrue(!report.get("violations").isEmpty(), report.toString());
        assertTrue(fields(report).stream().allMatch(f -> f.equals("Flags.a") || f.equals("Flags.b")), fields(report).toString());
        for (String out : List.of("mmcheck.sarif", "mmcheck.html")) {
            assertTrue(Files.size(child.dir().resolve("target/mmcheck").resolve(out)) > 0, out);
        }
        // the merged SARIF, as GitHub code scanning reads it: valid, and located in the project's own source files
        // (the child has no .git above it: paths are relative to the directory Maven ran in, the project's)
        JsonNode sarif = dev.mmcheck.checker.report.SarifSchema.assertValid(
                Files.readAllBytes(child.dir().resolve("target/mmcheck/mmcheck.sarif")));
        JsonNode results = sarif.get("runs").get(0).get("results");
        assertTrue(results.size() > 0, sarif.toString());
        for (JsonNode r : results) {
            String uri = r.at("/locations/0/physicalLocation/artifactLocation/uri").asText();
            assertTrue(uri.equals("src/main/java/demo/Flags.java") || uri.startsWith("src/test/java/demo/"), uri);
            assertTrue(Files.isRegularFile(child.dir().resolve(uri)), uri);
        }
    }

    /**
     * Beside JaCoCo: declared before mmcheck's plugin, the clean test passes verify; declared after it, with
     * Mockito's agent on argLine too, the racy test's finding fails verify, and nothing is reported on JaCoCo's probes
     * or Mockito's mocks. JaCoCo's agent transforms first either way (the plugin puts mmcheck's after it), so its
     * coverage is the same as without mmcheck: each class has the id of its class file (JaCoCo's CRC64 of the bytes
     * its transformer was given: mmcheck's rewritten bytes would give another, and a report that cannot match the
     * class files), and every probe is hit, as the project's code (no branch but loops that always run) hits every
     * probe without mmcheck.
     */
    @Test
    void besideJacocoBothAgentsWorkInEitherOrder() throws Exception {
        ChildMaven before = project(Map.of("JACOCO_BEFORE", JACOCO));
        ChildMaven.Build clean = before.run("jacoco-before", repo, List.of("verify", "-Dtest=CleanTest"));
        assertEquals(0, clean.exit(), "a clean test stays clean beside JaCoCo: " + clean.output());
        assertTrue(clean.output().contains("no violations"), "check prints the summary: " + clean.output());
        assertEquals(List.of(), fields(merged(before)));
        fullCoverage("JaCoCo before mmcheck", before, "demo/CleanTest");

        dir = Files.createTempDirectory(shared, "after");
        ChildMaven after = project(Map.of("JACOCO_AFTER", JACOCO,
                "ARGLINE", "<argLine>@{argLine} -javaagent:${org.mockito:mockito-core:jar}</argLine>"));
        ChildMaven.Build racy = after.run("jacoco-after", repo, List.of("verify"));
        assertEquals(1, racy.exit(), racy.output());
        assertTrue(racy.output().contains("Tests run: 3, Failures: 0, Errors: 0"), "the mock works: " + racy.output());
        assertTrue(racy.output().matches("(?s).*mmcheck: [0-9]+ findings? fails? the build.*"), racy.output());
        JsonNode report = merged(after);
        assertTrue(report.path("complete").asBoolean(), report.path("notes").toString());
        assertTrue(!fields(report).isEmpty() && fields(report).stream().allMatch(f -> f.equals("Flags.a") || f.equals("Flags.b")),
                "the race on Flags, nothing on JaCoCo's probes: " + fields(report));
        fullCoverage("JaCoCo after mmcheck, and Mockito's agent", after, "demo/Flags", "demo/RacyTest", "demo/CleanTest",
                "demo/MockedTest");
    }

    /** Each of {@code classes} in JaCoCo's execution data with the id of its class file and every probe hit. */
    private static void fullCoverage(String how, ChildMaven child, String... classes) throws IOException {
        Map<String, Exec> exec = exec(child.dir().resolve("target/jacoco.exec"));
        for (String c : classes) {
            Exec e = exec.get(c);
            assertTrue(e != null, how + ": " + c + " in JaCoCo's data: " + exec.keySet());
            String dir = c.endsWith("Test") ? "target/test-classes/" : "target/classes/";
            assertEquals(crc64(Files.readAllBytes(child.dir().resolve(dir + c + ".class"))), e.id(),
                    how + ": JaCoCo saw " + c + "'s class file, not mmcheck's rewritten class");
            boolean all = true;
            for (boolean hit : e.probes()) {
                all &= hit;
            }
            assertTrue(all && e.probes().length > 0, how + ": " + c + "'s probes all hit, as without mmcheck: "
                    + Arrays.toString(e.probes()));
        }
    }

    /** JaCoCo's class id: the CRC64 (ISO polynomial, reflected) of the class file's bytes, for class files of Java 10 and later. */
    static long crc64(byte[] bytes) {
        long sum = 0;
        for (byte b : bytes) {
            long v = (sum ^ b) & 0xff;
            for (int j = 0; j < 8; j++) {
                v = (v & 1) == 1 ? (v >>> 1) ^ 0xd800000000000000L : v >>> 1;
            }
            sum = (sum >>> 8) ^ v;
        }
        return sum;
    }

    /** A class's entry in JaCoCo's execution data. */
    record Exec(long id, boolean[] probes) {
    }

    /**
     * The probes of each class in JaCoCo's execution data file (its format: a block type byte; the header, 0x01, a
     * magic char and a version char; session info, 0x10, an id and two longs; execution data, 0x11, the class id, its
     * name and its probes as a variable-length count and bits packed eight a byte), the hits of several sessions
     * or'ed.
     */
    static Map<String, Exec> exec(Path file) throws IOException {
        Map<String, Exec> out = new TreeMap<>();
        try (InputStream raw = Files.newInputStream(file); DataInputStream in = new DataInputStream(raw)) {
            while (true) {
                int type = in.read();
                if (type < 0) {
                    return out;
                }
                switch (type) {
                    case 0x01 -> {
                        in.readChar();
                        in.readChar();
                    }
                    case 0x10 -> {
                        in.readUTF();
                        in.readLong();
                        in.readLong();
                    }
                    case 0x11 -> {
                        long id = in.readLong();
                        String name = in.readUTF();
                        int n = varInt(in);
                        boolean[] probes = new boolean[n];
                        int b = 0;
                        for (int i = 0; i < n; i++) {
                            if (i % 8 == 0) {
                                b = in.readUnsignedByte();
                            }
                            probes[i] = (b & (1 << (i % 8))) != 0;
                        }
                        Exec seen = out.putIfAbsent(name, new Exec(id, probes));
                        if (seen != null && seen.id() == id && seen.probes().length == n) {
                            for (int i = 0; i < n; i++) {
                                seen.probes()[i] |= probes[i];
                            }
                        } else if (seen != null) {
                            throw new IOException(file + ": " + name + " twice, with other ids or probes");
                        }
                    }
                    default -> throw new IOException(file + ": unknown block type " + type);
                }
            }
        } catch (EOFException e) {
            throw new IOException(file + ": cut short", e);
        }
    }

    private static int varInt(DataInputStream in) throws IOException {
        int v = in.readUnsignedByte();
        return (v & 0x80) == 0 ? v : (v & 0x7F) | (varInt(in) << 7);
    }
}
