package dev.mmcheck.agent;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's rooms (docs/architecture.md): the bytecode rewriting and the checker thread never use
 * each other (both use the id tables), only the premain package wires them; the runtime, which runs on
 * the application's threads, uses neither the agent nor the checker. Read from the sources.
 */
class PackageDependenciesTest {

    private static final Pattern REFERENCE =
            Pattern.compile("dev\\.mmcheck\\.(agent\\.(rewrite|check|ids)|agent|checker|runtime)\\b");

    private static Set<String> uses(Path dir) throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = REFERENCE.matcher(code(Files.readString(f)));
                while (m.find()) {
                    out.add(m.group(2) != null ? m.group(2) : m.group(1));
                }
            }
        }
        return out;
    }

    @Test
    void rewritingAndCheckingAreApartAndTheRuntimeStandsAlone() throws IOException {
        Path agent = Path.of("src/main/java/dev/mmcheck/agent");
        Set<String> rewrite = uses(agent.resolve("rewrite"));
        Set<String> check = uses(agent.resolve("check"));
        Set<String> ids = uses(agent.resolve("ids"));
        assertTrue(!rewrite.contains("check"), "rewrite uses check: " + rewrite);
        assertTrue(!check.contains("rewrite"), "check uses rewrite: " + check);
        assertTrue(!ids.contains("rewrite") && !ids.contains("check"), "ids uses " + ids);
        Set<String> runtime = uses(Path.of("../runtime/src/main/java/dev/mmcheck/runtime"));
        assertEquals(Set.of("runtime"), runtime, "the runtime uses only itself");
    }

    /** The source without its comments: a name in a comment is no dependency. */
    static String code(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
    }
}
