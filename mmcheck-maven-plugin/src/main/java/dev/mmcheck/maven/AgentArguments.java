package dev.mmcheck.maven;

import dev.mmcheck.agent.Options;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;

/**
 * The agent's arguments for the forks, made from the goals' parameters and the free {@code options} string, and
 * validated by the agent's own parser ({@link Options#parse}) before any test runs.
 */
final class AgentArguments {

    /** The options decided once, by {@code check}, on the merged findings: never passed to a fork. */
    static final List<String> DECIDED_BY_CHECK = List.of("failOn", "suppress", "baseline");

    /** The options the plugin sets itself; in {@code options} they are an error that says what to use. */
    static final Map<String, String> SET_BY_PLUGIN = Map.of(
            "report", "the reports go to reportDirectory, one per fork",
            "failOnViolation", "check fails the build on findings (failOn=)",
            "failOnError", "check fails the build on an incomplete run (failOnIncomplete=)");

    /** A bad parameter: the message is the one line the build prints. */
    static final class BadOption extends Exception {
        private static final long serialVersionUID = 1L;

        BadOption(String message) {
            super(message);
        }
    }

    private AgentArguments() {
    }

    /**
     * The options chosen: the named parameters (null ones left out) and then the free {@code KEY=VALUE,...}
     * string; a key given both ways, or one the plugin sets itself, is an error.
     */
    static Map<String, String> chosen(Map<String, String> parameters, String free) throws BadOption {
        Map<String, String> out = new LinkedHashMap<>();
        parameters.forEach((k, v) -> {
            if (v != null && !v.isBlank()) {
                out.put(k, v.trim());
            }
        });
        if (free == null || free.isBlank()) {
            return out;
        }
        for (String pair : free.trim().split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new BadOption("mmcheck: options: '" + pair.trim() + "' is not KEY=VALUE (options are separated by ',')");
            }
            String key = pair.substring(0, eq).trim();
            if (SET_BY_PLUGIN.containsKey(key)) {
                throw new BadOption("mmcheck: options: " + key + "= is set by the plugin (" + SET_BY_PLUGIN.get(key) + ")");
            }
            if (out.containsKey(key)) {
                throw new BadOption("mmcheck: option " + key + " is given twice (as a parameter and in options)");
            }
            out.put(key, pair.substring(eq + 1).trim());
        }
        return out;
    }

    /**
     * The {@code -javaagent} argument string of a fork: {@code report} per fork ({@code %p} is the fork's process
     * id), the fork never failing its JVM, and the chosen options but those {@link #DECIDED_BY_CHECK}. All of
     * {@code chosen} is validated first, as the agent would.
     */
    static String forForks(Path report, Map<String, String> chosen) throws BadOption {
        String file = report.toString();
        if (file.contains(",")) {
            throw new BadOption("mmcheck: reportDirectory " + report.getParent() + " has a ',' in it, which the agent's "
                    + "arguments cannot carry");
        }
        for (Map.Entry<String, String> e : chosen.entrySet()) {
            if (e.getValue().contains(",")) {
                throw new BadOption("mmcheck: option " + e.getKey() + "=" + e.getValue() + " has a ',' in it (list items "
                        + "are separated by ':')");
            }
        }
        StringJoiner fork = new StringJoiner(",");
        fork.add("report=" + file).add("failOnViolation=false").add("failOnError=false");
        StringJoiner all = new StringJoiner(",");
        all.add(fork.toString());
        chosen.forEach((k, v) -> {
            all.add(k + "=" + v);
            if (!DECIDED_BY_CHECK.contains(k)) {
                fork.add(k + "=" + v);
            }
        });
        try {
            Options.parse(all.toString(), new Properties());
        } catch (Options.OptionException e) {
            throw new BadOption("mmcheck: " + e.getMessage());
        }
        return fork.toString();
    }
}
