package dev.mmcheck.checker.report;

import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.fix.Change;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A change of a fix as an edit of one source line, for SARIF's {@code fixes} (docs/build.md, "SARIF on GitHub"): a
 * fence as a line inserted after or before a line that is one whole statement (it ends with {@code ;}, a trailing
 * {@code //} comment aside; never after a {@code return}, {@code throw}, {@code break} or {@code continue}), or before
 * an {@code if}'s header (not a loop's: its condition runs again without the line), with its
 * indentation, named {@code java.lang.invoke.VarHandle} in full where the file does not import it; a mode as the one
 * call on the line that names it replaced ({@code .lazySet(} by {@code .set(}); a field made volatile as
 * {@code volatile} written into its declaration, found in the file of the access that asked for it. A change that is
 * none of these (a plain access given a mode, which needs a VarHandle declared; a line with two such calls or none; a
 * declaration not found once) has no edit: the report's text says it.
 */
final class FixEdits {

    /** One edit: replace columns [startColumn, endColumn) of {@code line} of {@code uri} by {@code inserted}. */
    record Edit(String uri, int line, int startColumn, int endColumn, String inserted, String description) {
    }

    /** The calls each mode change replaces, and what with. */
    private static final Map<Change.Kind, List<String[]>> CALLS = Map.of(
            Change.Kind.VOLATILE_STORE, List.of(new String[] {".lazySet(", ".set("},
                    new String[] {".setRelease(", ".setVolatile("}, new String[] {".setOpaque(", ".setVolatile("},
                    new String[] {".setPlain(", ".setVolatile("}),
            Change.Kind.RELEASE_STORE, List.of(new String[] {".setPlain(", ".setRelease("},
                    new String[] {".setOpaque(", ".setRelease("}),
            Change.Kind.ACQUIRE_LOAD, List.of(new String[] {".getPlain(", ".getAcquire("},
                    new String[] {".getOpaque(", ".getAcquire("}),
            Change.Kind.VOLATILE_LOAD, List.of(new String[] {".getPlain(", ".getVolatile("},
                    new String[] {".getOpaque(", ".getVolatile("}, new String[] {".getAcquire(", ".getVolatile("}));

    private FixEdits() {
    }

    /** The edit {@code c} is, when its source line is found under {@code roots} and it is a one-line edit. */
    static Optional<Edit> of(Change c, SourceRoots roots) {
        Site at = c.kind().insertsFence() && c.site().caller() != null ? c.site().caller() : c.site();
        Optional<String> uri = roots.find(at);
        if (uri.isEmpty() || at.line() <= 0 && c.kind() != Change.Kind.VOLATILE_FIELD) {
            return Optional.empty();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(roots.base().resolve(uri.get()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        if (c.kind() == Change.Kind.VOLATILE_FIELD) {
            return volatileField(c, uri.get(), lines);
        }
        if (at.line() > lines.size()) {
            return Optional.empty();
        }
        String text = lines.get(at.line() - 1);
        if (c.kind().insertsFence()) {
            String code = code(text);
            boolean after = c.kind() == Change.Kind.FULL_FENCE_AFTER || c.kind() == Change.Kind.ACQUIRE_FENCE_AFTER;
            // a whole statement; after one that leaves the block, a line inserted would never run; before an if's
            // header (the access in its condition), which runs once per evaluation of it, as the condition does
            boolean ifHeader = !after && (code.startsWith("if (") || code.startsWith("if("));
            if (!ifHeader && (!code.endsWith(";") || code.isEmpty() || after && (code.startsWith("return")
                    || code.startsWith("throw ") || code.startsWith("break") || code.startsWith("continue")))) {
                return Optional.empty();
            }
            String indent = text.substring(0, text.length() - text.stripLeading().length());
            String fence = switch (c.kind()) {
                case RELEASE_FENCE_BEFORE -> "VarHandle.releaseFence();";
                case ACQUIRE_FENCE_AFTER, ACQUIRE_FENCE_BEFORE -> "VarHandle.acquireFence();";
                default -> "VarHandle.fullFence();";
            };
            if (!importsVarHandle(lines)) {
                fence = "java.lang.invoke." + fence; // the edit compiles as it is in a file that does not import it
            }
            int line = after ? at.line() + 1 : at.line();
            if (after && line > lines.size()) {
                return Optional.empty();
            }
            return Optional.of(new Edit(uri.get(), line, 1, 1, indent + fence + "\n", c.line()));
        }
        for (String[] call : CALLS.getOrDefault(c.kind(), List.of())) {
            int i = text.indexOf(call[0]);
            if (i >= 0 && text.indexOf(call[0], i + 1) < 0 && onlyCall(text, c.kind())) {
                return Optional.of(new Edit(uri.get(), at.line(), i + 1, i + 1 + call[0].length(), call[1], c.line()));
            }
        }
        return Optional.empty();
    }

    /**
     * A field made volatile: {@code volatile} written before the type of its declaration, when the file of the access
     * that asked for it declares a field of that name exactly once, in a class body, alone on its line and not
     * {@code final} (a field of another file, or two classes of the file declaring the name, has no edit).
     */
    private static Optional<Edit> volatileField(Change c, String uri, List<String> lines) {
        String name = c.field().substring(c.field().lastIndexOf('.') + 1);
        if (!name.matches("[\\w$]+")) {
            return Optional.empty();
        }
        Pattern declaration = Pattern.compile("((?:(?:public|protected|private|static|transient)\\s+)*)"
                + "[\\w.$]+(?:\\s*<[^;=()]*>)?(?:\\s*\\[\\s*])*\\s+" + Pattern.quote(name) + "\\s*(?:=[^;]*)?;");
        Edit found = null;
        java.util.ArrayDeque<Boolean> blocks = new java.util.ArrayDeque<>(); // per open brace: a class body?
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            String code = code(text);
            Matcher m = declaration.matcher(code);
            if (m.matches() && Boolean.TRUE.equals(blocks.peek())) {
                if (found != null) {
                    return Optional.empty(); // two declarations of the name: which one is not known
                }
                int column = text.indexOf(code) + m.end(1);
                found = new Edit(uri, i + 1, column + 1, column + 1, "volatile ", c.line());
            }
            for (int j = 0; j < code.length(); j++) {
                if (code.charAt(j) == '{') {
                    blocks.push(CLASS_BODY.matcher(code.substring(0, j)).find());
                } else if (code.charAt(j) == '}' && !blocks.isEmpty()) {
                    blocks.pop();
                }
            }
        }
        return Optional.ofNullable(found);
    }

    /** What opens a class body: a class, interface, enum or record declaration, or an anonymous class. */
    private static final Pattern CLASS_BODY = Pattern.compile("\\b(class|interface|enum|record)\\s+\\w|\\bnew\\s+[\\w.<>]+\\s*\\([^;]*\\)\\s*$");

    /** Whether a source file imports {@code java.lang.invoke.VarHandle} (by name or with its package). */
    static boolean importsVarHandle(List<String> lines) {
        for (String l : lines) {
            String t = l.strip();
            if (t.startsWith("import java.lang.invoke.VarHandle;") || t.startsWith("import java.lang.invoke.*;")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A line's code, stripped, without a trailing {@code //} comment ({@code x = 1; // mmcheck:store}); a line with a
     * quote before its {@code //} is taken whole (the slashes may be in a string), and so refused unless it ends in
     * {@code ;}.
     */
    static String code(String text) {
        int comment = text.indexOf("//");
        if (comment >= 0 && text.lastIndexOf('"', comment) < 0 && text.lastIndexOf('\'', comment) < 0) {
            text = text.substring(0, comment);
        }
        return text.strip();
    }

    /** Whether the line names one call of the kind's family, so the edit cannot change the wrong one. */
    private static boolean onlyCall(String text, Change.Kind kind) {
        int n = 0;
        for (String[] call : CALLS.get(kind)) {
            for (int i = text.indexOf(call[0]); i >= 0; i = text.indexOf(call[0], i + 1)) {
                n++;
            }
        }
        return n == 1;
    }
}
