package dev.mmcheck.agent;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a run is called in the summary's first line and the report's {@code source}: the program's command line
 * ({@code sun.java.command}: the main class or jar and its arguments), except in a test runner's forked JVM, whose
 * command line is the runner's own (Surefire's and Failsafe's booter: {@code surefirebooter-2026...jar
 * .../target/surefire 2026-11-28T00-50-22_905-jvmRun1 surefire-...tmp ...}): there the fork and its module
 * ({@code surefire fork 1 of my-module}); and in any JVM, the test classes a test framework named
 * ({@code : tests FlagsTest, QueueTest}).
 */
final class RunName {

    /** Test classes named in the first line before the rest are counted. */
    static final int TESTS_NAMED = 5;

    private static final Pattern RUN = Pattern.compile("-jvmRun(\\d+)");

    private RunName() {
    }

    /** Whether {@code command} ({@code sun.java.command}) is Surefire's or Failsafe's forked booter. */
    static boolean forkedBooter(String command) {
        if (command == null || command.isBlank()) {
            return false;
        }
        String first = command.trim().split("\\s+")[0];
        String file = first.substring(Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\')) + 1);
        return (file.startsWith("surefirebooter") && file.endsWith(".jar"))
                || first.equals("org.apache.maven.surefire.booter.ForkedBooter");
    }

    /** The run's name for {@code command}, with the test classes {@code tests} (simple names, in order first seen). */
    static String of(String command, Collection<String> tests) {
        String name;
        if (forkedBooter(command)) {
            String[] words = command.trim().split("\\s+");
            String runner = "surefire";
            String module = "";
            if (words.length > 1) {
                Path dir = Path.of(words[1]); // <module>/target/surefire (or failsafe's directory)
                Path name1 = dir.getFileName();
                runner = name1 != null && name1.toString().contains("failsafe") ? "failsafe" : "surefire";
                Path moduleDir = dir.getParent() == null ? null : dir.getParent().getParent();
                module = moduleDir == null || moduleDir.getFileName() == null ? "" : moduleDir.getFileName().toString();
            }
            Matcher m = RUN.matcher(words.length > 2 ? words[2] : "");
            name = runner + " fork" + (m.find() ? " " + m.group(1) : "") + (module.isEmpty() ? "" : " of " + module);
        } else {
            name = command == null || command.isBlank() ? "the JVM" : command.trim();
        }
        if (tests.isEmpty()) {
            return name;
        }
        List<String> named = tests.stream().limit(TESTS_NAMED).toList();
        return name + ": tests " + String.join(", ", named)
                + (tests.size() > named.size() ? " and " + (tests.size() - named.size()) + " more" : "");
    }
}
