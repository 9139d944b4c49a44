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

    /**
     * The edits {@code c} is, all in one file, when its source is found under {@code roots}: one for a fence, a mode
     * changed in place or a field made volatile; two for a plain field's access given a mode (a VarHandle declared
     * after the field, the access written through it); none when it cannot be written so.
     */
    static List<Edit> all(Change c, SourceRoots roots) {
        Optional<Edit> one = of(c, roots);
        if (one.isPresent()) {
            return List.of(one.get());
        }
        if (!c.kind().changesMode() || c.site().line() <= 0) {
            return List.of();
        }
        Optional<String> uri = roots.find(c.site());
        if (uri.isEmpty()) {
            return List.of();
        }
        try {
            return handle(c, uri.get(), Files.readAllLines(roots.base().resolve(uri.get())), roots);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
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
            try {
                return volatileField(c, uri.get(), lines, roots);
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
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
    private static Optional<Edit> volatileField(Change c, String uri, List<String> lines, SourceRoots roots)
            throws IOException {
        int dot = c.field().lastIndexOf('.');
        Located at = locate(c, dot < 0 ? "" : c.field().substring(0, dot).replace('$', '.'), c.field().substring(dot + 1),
                uri, lines, roots);
        return at == null ? Optional.empty() : Optional.of(new Edit(at.uri(), at.declaration().line(),
                at.declaration().typeColumn(), at.declaration().typeColumn(), "volatile ", c.line()));
    }

    /** A field's declaration and the file it is in. */
    private record Located(String uri, List<String> lines, Declaration declaration) {
    }

    /**
     * The declaration of field {@code name} of class {@code owner} (its source name, {@code Outer.Inner}; empty when
     * not known): in the access's file when that file declares the owner's class, else in the owner's file in the
     * access's package; null when not found once.
     */
    private static Located locate(Change c, String owner, String name, String uri, List<String> lines,
            SourceRoots roots) throws IOException {
        String simple = owner.substring(owner.lastIndexOf('.') + 1);
        Pattern declares = Pattern.compile(".*\\b(?:class|interface|enum|record)\\s+" + Pattern.quote(simple) + "\\b.*");
        boolean here = owner.isEmpty() || lines.stream().map(FixEdits::code)
                .anyMatch(l -> !l.startsWith("*") && !l.startsWith("/*") && declares.matcher(l).matches());
        if (here) {
            Declaration d = declaration(name, lines);
            return d == null ? null : new Located(uri, lines, d);
        }
        String outer = owner.contains(".") ? owner.substring(0, owner.indexOf('.')) : owner;
        String cls = c.site().className();
        String pkg = cls.contains(".") ? cls.substring(0, cls.lastIndexOf('.') + 1) : "";
        Optional<String> other = roots.find(new Site(pkg + outer, "", outer + ".java", 1, -1));
        if (other.isEmpty() || other.get().equals(uri)) {
            return null;
        }
        List<String> otherLines = Files.readAllLines(roots.base().resolve(other.get()));
        Declaration d = declaration(name, otherLines);
        return d == null ? null : new Located(other.get(), otherLines, d);
    }

    /** A field's declaration: its line and the column of its type (1-based), the type as written, and whether static. */
    private record Declaration(int line, int typeColumn, String type, boolean isStatic) {
    }

    /**
     * The one declaration of a field {@code name} in a class body of {@code lines}, alone on its line and neither
     * {@code final} nor {@code volatile}; null when there is none or more than one (which one is not known).
     */
    private static Declaration declaration(String name, List<String> lines) {
        if (!name.matches("[\\w$]+")) {
            return null;
        }
        Pattern declaration = Pattern.compile("((?:(?:public|protected|private|static|transient)\\s+)*)"
                + "([\\w.$]+(?:\\s*<[^;=()]*>)?(?:\\s*\\[\\s*])*)\\s+" + Pattern.quote(name) + "\\s*(?:=[^;]*)?;");
        Declaration found = null;
        java.util.ArrayDeque<Boolean> blocks = new java.util.ArrayDeque<>(); // per open brace: a class body?
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            String code = code(text);
            Matcher m = declaration.matcher(code);
            if (m.matches() && Boolean.TRUE.equals(blocks.peek())) {
                if (found != null) {
                    return null;
                }
                int column = text.indexOf(code) + m.end(1);
                found = new Declaration(i + 1, column + 1, m.group(2), m.group(1).contains("static"));
            }
            for (int j = 0; j < code.length(); j++) {
                if (code.charAt(j) == '{') {
                    blocks.push(CLASS_BODY.matcher(code.substring(0, j)).find());
                } else if (code.charAt(j) == '}' && !blocks.isEmpty()) {
                    blocks.pop();
                }
            }
        }
        return found;
    }

    /**
     * A plain field's access given a mode: a VarHandle for the field declared right after its declaration (a static
     * final constant set in a static block, named after the field: {@code READY_HANDLE}), and the access on its line
     * written through it: {@code x.f = v;} as {@code F_HANDLE.setRelease(x, v);} (the whole statement; {@code this}
     * when unqualified, no receiver for a static field), a load {@code x.f} as {@code ((T) F_HANDLE.getAcquire(x))}
     * (its one mention on the line, not assigned to); an array element's through an element VarHandle
     * ({@link #arrayHandle}). None for a line that does not have the access in that form, a declaration not found
     * once, or a handle's name the file already uses.
     */
    private static List<Edit> handle(Change c, String uri, List<String> lines, SourceRoots roots) throws IOException {
        String access = c.access();
        int at = access.indexOf(access.contains(" to ") ? " to " : " of ");
        String field = at < 0 ? "" : access.substring(at + 4);
        if (c.site().line() > lines.size()) {
            return List.of();
        }
        if (field.endsWith("[][]")) {
            return arrayHandle(c, uri, lines, field.substring(0, field.length() - 2));
        }
        int dot = field.lastIndexOf('.');
        if (dot <= 0 || field.contains("[")) {
            return List.of();
        }
        String owner = field.substring(0, dot).replace('$', '.');
        String name = field.substring(dot + 1);
        if (!owner.matches("[\\w.]+")) {
            return List.of();
        }
        Located found = locate(c, owner, name, uri, lines, roots);
        if (found == null) {
            return List.of();
        }
        String declUri = found.uri();
        List<String> declLines = found.lines();
        Declaration d = found.declaration();
        boolean elsewhere = !declUri.equals(uri);
        String existing = existingHandle(owner, name, declLines, elsewhere);
        String constant = existing != null ? existing
                : name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT) + "_HANDLE";
        if (existing == null) {
            for (String l : declLines) {
                if (l.matches(".*\\b" + constant + "\\b.*")) {
                    return List.of();
                }
            }
        }
        // named through its class: the access may be in another class of the file (an outer one cannot see a nested
        // class's members unqualified), or in another file
        String handle = owner + "." + constant;
        String accessClass = c.site().className().substring(c.site().className().lastIndexOf('.') + 1);
        String ownerBinary = field.substring(0, dot);
        // an unqualified instance field read or written from an inner or anonymous class is its outer instance's
        String self = accessClass.equals(ownerBinary) || accessClass.matches(Pattern.quote(ownerBinary) + "\\$lambda.*")
                ? "this" : owner + ".this";
        String raw = d.type().replaceAll("<.*>", "").strip();
        if (raw.replace("[]", "").strip().matches("[A-Z][0-9]?")) {
            return List.of(); // a type variable: no class literal names it
        }
        String text = lines.get(c.site().line() - 1);
        String code = code(text);
        int codeAt = text.indexOf(code);
        String method = method(c.kind());
        Edit access2;
        if (c.kind() == Change.Kind.RELEASE_STORE || c.kind() == Change.Kind.VOLATILE_STORE) {
            Matcher m = Pattern.compile("(?:([\\w.]+)\\.)?" + Pattern.quote(name) + "\\s*=(?!=)\\s*([^;]+);").matcher(code);
            if (!m.matches()) {
                return List.of();
            }
            String receiver = d.isStatic() ? "" : (m.group(1) == null ? self : m.group(1)) + ", ";
            // a narrow type's value is cast: a VarHandle does not narrow an int
            String value = raw.matches("byte|short|char") ? "(" + raw + ") (" + m.group(2).strip() + ")" : m.group(2).strip();
            access2 = new Edit(uri, c.site().line(), codeAt + 1, codeAt + code.length() + 1,
                    handle + "." + method + "(" + receiver + value + ");", c.line());
        } else {
            Matcher m = Pattern.compile("(?<![\\w.$])(?:([\\w.]+)\\.)?" + Pattern.quote(name) + "\\b"
                    + "(?!\\s*(?:=[^=]|\\(|[-+*/%&|^]=|<<=|>>>?=))").matcher(code);
            if (!m.find()) {
                return List.of();
            }
            int start = m.start();
            int end = m.end();
            String receiver = d.isStatic() ? "" : m.group(1) == null ? self : m.group(1);
            if (m.find() || code.matches(".*\\b" + Pattern.quote(name) + "\\s*(?:\\+\\+|--|[-+*/%&|^]=|<<=|>>>?=).*")
                    || code.matches(".*(?:\\+\\+|--)\\s*(?:[\\w.]+\\.)?" + Pattern.quote(name) + "\\b.*")) {
                return List.of(); // two mentions, or one written to: which is the load is not known
            }
            access2 = new Edit(uri, c.site().line(), codeAt + start + 1, codeAt + end + 1,
                    "((" + d.type() + ") " + handle + "." + method + "(" + receiver + "))", c.line());
        }
        if (existing != null) {
            return List.of(access2); // the class declares the field's VarHandle already
        }
        String line = declLines.get(d.line() - 1);
        String indent = line.substring(0, line.length() - line.stripLeading().length());
        String lookup = "java.lang.invoke.MethodHandles.lookup()." + (d.isStatic() ? "findStaticVarHandle" : "findVarHandle")
                + "(" + owner + ".class, \"" + name + "\", " + raw + ".class)";
        String declared = indent + (elsewhere ? "" : "private ") + "static final java.lang.invoke.VarHandle " + constant + ";\n"
                + indent + "static {\n"
                + indent + "    try {\n"
                + indent + "        " + constant + " = " + lookup + ";\n"
                + indent + "    } catch (ReflectiveOperationException e) {\n"
                + indent + "        throw new ExceptionInInitializerError(e);\n"
                + indent + "    }\n"
                + indent + "}\n";
        if (d.line() == c.site().line()) {
            return List.of(); // the access is on the declaration's line (an initializer)
        }
        return List.of(new Edit(declUri, d.line() + 1, 1, 1, declared, c.line()), access2);
    }

    /**
     * The constant a file already sets to field {@code name}'s VarHandle ({@code X = MethodHandles.lookup()
     * .findVarHandle(Owner.class, "name", ...)}), or null; null too when it is private and the access is in another
     * file ({@code elsewhere}), where it cannot be named.
     */
    private static String existingHandle(String owner, String name, List<String> lines, boolean elsewhere) {
        Pattern set = Pattern.compile("(\\w+)\\s*=\\s*(?:[\\w.]*\\.)?lookup\\(\\)\\s*\\.\\s*find(?:Static)?VarHandle\\(\\s*"
                + "(?:[\\w.]*\\.)?" + Pattern.quote(owner.substring(owner.lastIndexOf('.') + 1)) + "\\.class\\s*,\\s*\""
                + Pattern.quote(name) + "\"");
        for (String l : lines) {
            Matcher m = set.matcher(l);
            if (m.find()) {
                String constant = m.group(1);
                for (String d : lines) {
                    if (d.matches("\\s*(?:\\w+\\s+)*VarHandle\\s+" + constant + "\\b.*")) {
                        return elsewhere && d.contains("private ") ? null : constant;
                    }
                }
                return null;
            }
        }
        return null;
    }

    /** The VarHandle method that gives an access the mode {@code kind} names. */
    private static String method(Change.Kind kind) {
        return switch (kind) {
            case RELEASE_STORE -> "setRelease";
            case VOLATILE_STORE -> "setVolatile";
            case ACQUIRE_LOAD -> "getAcquire";
            default -> "getVolatile";
        };
    }

    /**
     * An array element's access given a mode: an element VarHandle of the array's type declared right after the file's
     * class declaration ({@code INT_ARRAY_HANDLE = MethodHandles.arrayElementVarHandle(int[].class)}), and the access
     * on its line written through it: {@code a[i] = v;} as {@code INT_ARRAY_HANDLE.setRelease(a, i, v);}, a load
     * {@code a[i]} as {@code ((int) INT_ARRAY_HANDLE.getAcquire(a, i))} when it is the line's one element access. None
     * when the line has the access in another form, the class declaration is not found, or the name is taken.
     */
    private static List<Edit> arrayHandle(Change c, String uri, List<String> lines, String arrayType) {
        String element = arrayType.substring(0, arrayType.length() - 2).replace('$', '.');
        if (!element.matches("[\\w.]+")) {
            return List.of();
        }
        String simple = element.substring(element.lastIndexOf('.') + 1);
        String constant = simple.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT)
                + "_ARRAY_HANDLE";
        String declaration = "private static final java.lang.invoke.VarHandle " + constant
                + " = java.lang.invoke.MethodHandles.arrayElementVarHandle(" + element + "[].class);";
        String file = uri.substring(uri.lastIndexOf('/') + 1).replace(".java", "");
        Pattern top = Pattern.compile("(?:[\\w@]+\\s+)*(?:class|interface|enum|record)\\s+" + Pattern.quote(file) + "\\b.*\\{");
        int classLine = -1;
        boolean declared = false;
        for (int i = 0; i < lines.size(); i++) {
            String code = code(lines.get(i));
            if (lines.get(i).contains(declaration)) {
                declared = true; // an earlier fix declared it: used as it is
            } else if (lines.get(i).contains(constant)) {
                return List.of(); // the name is the file's own
            }
            if (classLine < 0 && top.matcher(code).matches()) {
                classLine = i + 1;
            }
        }
        if (classLine < 0 || classLine >= c.site().line()) {
            return List.of();
        }
        String text = lines.get(c.site().line() - 1);
        String code = code(text);
        int codeAt = text.indexOf(code);
        String method = method(c.kind());
        Edit access;
        if (c.kind() == Change.Kind.RELEASE_STORE || c.kind() == Change.Kind.VOLATILE_STORE) {
            Matcher m = Pattern.compile("([\\w.]+(?:\\[[^\\[\\]]+])*)\\[([^\\[\\]]+)]\\s*=(?!=)\\s*([^;]+);").matcher(code);
            if (!m.matches()) {
                return List.of();
            }
            String value = element.matches("byte|short|char") ? "(" + element + ") (" + m.group(3).strip() + ")"
                    : m.group(3).strip();
            access = new Edit(uri, c.site().line(), codeAt + 1, codeAt + code.length() + 1,
                    constant + "." + method + "(" + m.group(1) + ", " + m.group(2).strip() + ", " + value + ");", c.line());
        } else {
            Matcher m = Pattern.compile("(?<![\\w.$\\]])([\\w.]+)\\[([^\\[\\]]+)]"
                    + "(?!\\s*(?:=[^=]|\\+\\+|--|[-+*/%&|^]=|<<=|>>>?=))").matcher(code);
            if (code.indexOf('[') != code.lastIndexOf('[') || code.matches(".*(?:\\+\\+|--)\\s*[\\w.]+\\[.*") || !m.find()) {
                return List.of(); // more than one element access on the line: which is the load is not known
            }
            access = new Edit(uri, c.site().line(), codeAt + m.start() + 1, codeAt + m.end() + 1,
                    "((" + element + ") " + constant + "." + method + "(" + m.group(1) + ", " + m.group(2).strip() + "))",
                    c.line());
        }
        if (declared) {
            return List.of(access);
        }
        String indent = "    " + lines.get(classLine - 1).substring(0, lines.get(classLine - 1).length()
                - lines.get(classLine - 1).stripLeading().length());
        return List.of(new Edit(uri, classLine + 1, 1, 1, indent + declaration + "\n", c.line()), access);
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
