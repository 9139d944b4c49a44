package dev.mmcheck.maven;

import java.util.ArrayList;
import java.util.List;

/**
 * Puts the agent's {@code -javaagent} argument into a JVM argument line such as Surefire's {@code argLine} without
 * disturbing what is there: after the other agents' {@code -javaagent} arguments (so that they transform a class
 * first, JaCoCo identifying it by the bytes of its class file, and mmcheck checks the code that really runs), before
 * everything else; an earlier argument of the same agent jar is replaced.
 */
final class ArgLine {

    private ArgLine() {
    }

    /** The quoted {@code -javaagent:JAR=ARGS} argument, quoted whole when it has a space (as JaCoCo quotes its own). */
    static String javaagent(String jar, String args) {
        String arg = "-javaagent:" + jar + (args.isEmpty() ? "" : "=" + args);
        return arg.indexOf(' ') >= 0 || arg.indexOf('\t') >= 0 ? "\"" + arg + "\"" : arg;
    }

    /** {@code line} (null or empty for none) with {@code agentArgument} put in for agent jar {@code jar}. */
    static String with(String line, String jar, String agentArgument) {
        if (line == null || line.isBlank()) {
            return agentArgument;
        }
        StringBuilder kept = new StringBuilder(line);
        List<int[]> spans = spans(line);
        // drop an earlier argument of this jar (prepare-agent then prepare-agent-integration on one property)
        for (int k = spans.size() - 1; k >= 0; k--) {
            int[] s = spans.get(k);
            String token = unquoted(line.substring(s[0], s[1]));
            if (token.startsWith("-javaagent:" + jar + "=") || token.equals("-javaagent:" + jar)) {
                int end = s[1];
                while (end < kept.length() && Character.isWhitespace(kept.charAt(end))) {
                    end++;
                }
                kept.delete(s[0], end);
            }
        }
        String rest = kept.toString();
        int after = -1;
        for (int[] s : spans(rest)) {
            if (unquoted(rest.substring(s[0], s[1])).startsWith("-javaagent:")) {
                after = s[1];
            }
        }
        if (after < 0) {
            return rest.isBlank() ? agentArgument : agentArgument + " " + rest;
        }
        return rest.substring(0, after) + " " + agentArgument + (after == rest.length() ? "" : " " + rest.substring(after).stripLeading());
    }

    /** A token with its double quotes removed. */
    private static String unquoted(String token) {
        return token.replace("\"", "");
    }

    /** The [start, end) spans of the whitespace-separated tokens of {@code line}, double quotes grouping. */
    private static List<int[]> spans(String line) {
        List<int[]> out = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i == line.length()) {
                break;
            }
            int start = i;
            boolean quoted = false;
            while (i < line.length() && (quoted || !Character.isWhitespace(line.charAt(i)))) {
                if (line.charAt(i) == '"') {
                    quoted = !quoted;
                }
                i++;
            }
            out.add(new int[] {start, i});
        }
        return out;
    }
}
