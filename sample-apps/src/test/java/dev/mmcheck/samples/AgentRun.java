package dev.mmcheck.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a child JVM with the built agent ({@code agent/target/mmcheck.jar}) on a sample of the built
 * sample jar, and collects its exit status, output and JSON report.
 */
final class AgentRun {

    static final Path ROOT = Path.of(System.getProperty("mmcheck.root", "..")).toAbsolutePath().normalize();
    static final Path AGENT = ROOT.resolve("agent/target/mmcheck.jar");
    static final Path SAMPLES = ROOT.resolve("sample-apps/target/sample-apps.jar");

    final int exit;
    final String output;
    final JsonNode report;

    private AgentRun(int exit, String output, JsonNode report) {
        this.exit = exit;
        this.output = output;
        this.report = report;
    }

    /** Runs {@code sample} with agent options {@code options} (report= is added); null agent runs without it. */
    static AgentRun run(Path dir, String sample, String options) throws IOException, InterruptedException {
        Path report = dir.resolve(sample + "-" + System.nanoTime() + ".json");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (options != null) {
            cmd.add("-javaagent:" + AGENT + "=report=" + report + (options.isEmpty() ? "" : "," + options));
        }
        cmd.add("-jar");
        cmd.add(SAMPLES.toString());
        cmd.add(sample);
        return exec(cmd, report);
    }

    /**
     * Runs class {@code main} of the sample tests' classes with {@code args} under the agent (report to
     * {@code report}), with {@code classPath} (the libraries it needs) after the test classes.
     */
    static AgentRun main(Path report, String classPath, String main, String... args)
            throws IOException, InterruptedException {
        return mainWith(report, "", classPath, main, args);
    }

    /** {@link #main} with agent options {@code options} (report= is added). */
    static AgentRun mainWith(Path report, String options, String classPath, String main, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + AGENT + "=report=" + report + (options.isEmpty() ? "" : "," + options),
                "-cp", ROOT.resolve("sample-apps/target/test-classes") + java.io.File.pathSeparator + classPath, main));
        cmd.addAll(List.of(args));
        return exec(cmd, report);
    }

    /** Runs {@code cmd}, waits up to three minutes, reads {@code report} if it was written. */
    static AgentRun exec(List<String> cmd, Path report) throws IOException, InterruptedException {
        Path out = Files.createTempFile("mmcheck-it", ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd + "\n" + Files.readString(out));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        Files.deleteIfExists(out);
        JsonNode json = report != null && Files.exists(report) ? new ObjectMapper().readTree(report.toFile()) : null;
        return new AgentRun(p.exitValue(), output, json);
    }

    /** The violations of analysis {@code analysis} (tso, pso, sober, scser, tsoser). */
    List<JsonNode> violations(String analysis) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode v : report.get("violations")) {
            for (JsonNode a : v.get("analyses")) {
                if (a.asText().equals(analysis)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    /** The texts of a JSON array of strings. */
    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The event with role {@code role} of violation {@code v}. */
    static JsonNode event(JsonNode v, String role) {
        for (JsonNode e : v.get("events")) {
            if (e.get("role").asText().equals(role)) {
                return e;
            }
        }
        throw new AssertionError("no " + role + " in " + v);
    }
}
