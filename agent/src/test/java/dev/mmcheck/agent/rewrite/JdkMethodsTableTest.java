package dev.mmcheck.agent.rewrite;

import dev.mmcheck.runtime.Kinds;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/mapping.md's table of the JDK's memory-relevant methods, row by row: each method a row names is found in the
 * running JDK, classified as the rewriter classifies a call of it, and must get the row's model (a load, a CAS, the
 * JDK's synchronization, a fence, nothing...); each test the row names must exist. So the table says what the agent
 * does, and a change of either is seen.
 */
class JdkMethodsTableTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final List<String> PACKAGES = List.of("java.util.concurrent.atomic", "java.util.concurrent",
            "java.util.concurrent.locks", "java.lang", "java.lang.ref", "java.lang.invoke", "java.lang.reflect", "java.util",
            "java.io",
            "java.nio.channels");

    /** One row of the table. */
    record Row(String type, boolean jdk21, List<String> methods, String model, String mode, List<String> tests,
            String line) {
    }

    static List<Row> rows() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("docs/mapping.md"));
        int start = lines.indexOf("## The JDK's memory-relevant methods");
        assertTrue(start >= 0, "docs/mapping.md has the section");
        List<Row> out = new ArrayList<>();
        Pattern code = Pattern.compile("`([^`]+)`");
        for (String l : lines.subList(start, lines.size())) {
            if (!l.startsWith("| `")) {
                continue;
            }
            String[] cells = l.split("\\|");
            // "", class, methods, model, mode, why, tests
            Matcher type = code.matcher(cells[1]);
            assertTrue(type.find(), l);
            List<String> methods = new ArrayList<>();
            Matcher m = code.matcher(cells[2]);
            while (m.find()) {
                methods.add(m.group(1));
            }
            List<String> tests = new ArrayList<>();
            Matcher t = code.matcher(cells[6]);
            while (t.find()) {
                tests.add(t.group(1));
            }
            out.add(new Row(type.group(1), cells[1].contains("JDK 21+"), methods, cells[3].trim(), cells[4].trim(), tests,
                    l));
        }
        return out;
    }

    @Test
    void theTableIsThere() throws IOException {
        assertTrue(rows().size() > 60, "rows: " + rows().size());
    }

    @TestFactory
    Stream<DynamicTest> everyRowIsWhatTheAgentDoes() throws IOException {
        return rows().stream().map(r -> DynamicTest.dynamicTest(r.type() + " " + r.methods(), () -> check(r)));
    }

    private static void check(Row r) throws Exception {
        if (r.jdk21() && Runtime.version().feature() < 21) {
            return; // a row for a later JDK's API
        }
        Class<?> c = find(r.type());
        assertTrue(c != null, "no class " + r.type());
        for (String signature : r.methods()) {
            Method m = method(c, signature);
            assertTrue(m != null, r.type() + "." + signature + " not found");
            int opcode = Modifier.isStatic(m.getModifiers()) ? Opcodes.INVOKESTATIC
                    : c.isInterface() ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL;
            JdkModel.Call call = JdkModel.classify(opcode, Type.getInternalName(c), m.getName(),
                    Type.getMethodDescriptor(m), Thread.class.isAssignableFrom(c));
            assertTrue(is(call, r.model()), r.type() + "." + signature + ": " + call + " is not '" + r.model() + "'");
            checkMode(r, call, m.getName(), r.type() + "." + signature);
        }
        for (String test : r.tests()) {
            assertTrue(exists(test), "no test " + test + " (row " + r.line() + ")");
        }
    }

    /**
     * The mode column: blank where no access of the JDK's is modelled (synchronization, fences, nothing); else the
     * site's mode ({@code —} for none) and, after {@code /}, the mode of the site a compare-and-set logs when it
     * failed. Every load, store, CAS and fence row says it.
     */
    private static void checkMode(Row r, JdkModel.Call call, String name, String at) {
        boolean access = Set.of("load", "store", "release store", "volatile store", "CAS", "load or CAS", "full fence",
                "StoreStore fence", "load fence").contains(r.model());
        assertEquals(access, !r.mode().isEmpty(), at + ": the mode column says a mode exactly for accesses and fences");
        if (!access) {
            return;
        }
        if (r.model().equals("load or CAS")) {
            // Thread.interrupted(): the clear's site (volatile flavour), and a second of mode volatile for the read alone
            assertEquals("— (clear), `volatile` (read)", r.mode(), at);
            assertEquals("", AtomicModel.mode(call, name), at);
            return;
        }
        String[] parts = r.mode().split(" / ");
        assertTrue(parts.length <= 2, at + ": " + r.mode());
        assertEquals(mode(parts[0], at), AtomicModel.mode(call, name), at + ": its site's mode");
        assertEquals(parts.length == 2, AtomicModel.canFail(call, name), at + ": whether it can fail (a second mode)");
        if (parts.length == 2) {
            assertEquals(mode(parts[1], at), dev.mmcheck.checker.event.SiteModes.failed(AtomicModel.mode(call, name)),
                    at + ": the mode when it failed");
        }
    }

    /** A mode as the tables write it: {@code —} for none, or a code span. */
    private static String mode(String cell, String at) {
        String c = cell.trim();
        if (c.equals("—")) {
            return "";
        }
        assertTrue(c.matches("`[a-z-]+`"), at + ": '" + c + "' is not a mode");
        return c.substring(1, c.length() - 1);
    }

    /**
     * The table of section "Access modes": each method of each row, classified as the rewriter classifies a call of it
     * (a VarHandle's signature-polymorphic methods with a descriptor of an int variable reached through an object),
     * has the row's event kind, mode and failure mode. Rows that name no class in code (the JDK's synchronization,
     * the final-field freeze) are prose.
     */
    @TestFactory
    Stream<DynamicTest> everyAccessModeRowIsWhatTheAgentDoes() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("docs/mapping.md"));
        int start = lines.indexOf("## Access modes");
        int end = lines.indexOf("## The JDK's memory-relevant methods");
        assertTrue(start >= 0 && end > start, "docs/mapping.md has the section");
        List<String> rows = lines.subList(start, end).stream().filter(l -> l.startsWith("| `")).toList();
        assertTrue(rows.size() > 30, "rows: " + rows.size());
        return rows.stream().map(l -> DynamicTest.dynamicTest(l.substring(0, Math.min(l.length(), 80)), () -> modeRow(l)));
    }

    private static void modeRow(String l) throws Exception {
        String[] cells = l.split("\\|");
        // "", class, methods, event, mode, mode when it failed
        Matcher type = Pattern.compile("`([^`]+)`").matcher(cells[1]);
        assertTrue(type.find(), l);
        String owner = type.group(1).equals("Unsafe") ? "sun.misc.Unsafe" : type.group(1);
        Matcher m = Pattern.compile("`([A-Za-z]+)`").matcher(cells[2]);
        int kind = switch (cells[3].trim()) {
            case "`cas`" -> Kinds.INTERLOCKED;
            case "`fence`" -> Kinds.FULL_FENCE;
            case "`storestore-fence`" -> Kinds.STORE_STORE_FENCE;
            case "`load-fence`" -> Kinds.LOAD_FENCE;
            default -> throw new AssertionError("no event word " + cells[3] + " in " + l);
        };
        String mode = mode(cells[4], l);
        String failed = cells[5].trim().isEmpty() ? null : mode(cells[5], l);
        int methods = 0;
        while (m.find()) {
            String name = m.group(1);
            methods++;
            JdkModel.Call c;
            if (owner.equals("VarHandle")) {
                String desc = name.endsWith("Fence") ? "()V" : name.startsWith("compareAndExchange")
                        ? "(Ljava/lang/Object;II)I" : name.startsWith("getAnd") ? "(Ljava/lang/Object;I)I"
                        : "(Ljava/lang/Object;II)Z";
                c = JdkModel.classify(name.endsWith("Fence") ? Opcodes.INVOKESTATIC : Opcodes.INVOKEVIRTUAL,
                        "java/lang/invoke/VarHandle", name, desc, false);
            } else {
                Class<?> k = Class.forName(owner.contains(".") ? owner : "java.util.concurrent.atomic." + owner, false, null);
                Method x = null;
                for (Method y : k.getMethods()) {
                    if (y.getName().equals(name)) {
                        x = y;
                    }
                }
                assertTrue(x != null, owner + "." + name + " not found");
                c = JdkModel.classify(Opcodes.INVOKEVIRTUAL, Type.getInternalName(k), name, Type.getMethodDescriptor(x),
                        false);
            }
            String at = owner + "." + name;
            assertEquals(kind, c.kind(), at + ": " + c);
            assertEquals(mode, AtomicModel.mode(c, name), at);
            assertEquals(failed != null, AtomicModel.canFail(c, name), at + " can fail");
            if (failed != null) {
                assertEquals(failed, dev.mmcheck.checker.event.SiteModes.failed(AtomicModel.mode(c, name)), at);
            }
        }
        assertTrue(methods > 0, l);
    }

    /** Whether {@code c} is what the model word says. */
    private static boolean is(JdkModel.Call c, String model) {
        JdkModel.Treatment t = c.treatment();
        Set<JdkModel.Treatment> accesses = Set.of(JdkModel.Treatment.ATOMIC, JdkModel.Treatment.ATOMIC_HOLDER,
                JdkModel.Treatment.ATOMIC_ARRAY, JdkModel.Treatment.UPDATER, JdkModel.Treatment.REFERENCE,
                JdkModel.Treatment.INTERRUPT, JdkModel.Treatment.INTERRUPT_READ);
        return switch (model) {
            case "load" -> accesses.contains(t) && c.kind() == Kinds.LOAD;
            case "store" -> accesses.contains(t) && c.kind() == Kinds.STORE;
            case "release store" -> accesses.contains(t) && c.kind() == Kinds.RELEASE_STORE;
            case "volatile store" -> accesses.contains(t) && c.kind() == Kinds.VOLATILE_STORE;
            case "CAS" -> accesses.contains(t) && c.kind() == Kinds.INTERLOCKED;
            case "load or CAS" -> t == JdkModel.Treatment.INTERRUPTED;
            case "sync" -> Set.of(JdkModel.Treatment.JUC, JdkModel.Treatment.MAYBE_JUC, JdkModel.Treatment.JUC_READ,
                    JdkModel.Treatment.MAYBE_JUC_READ, JdkModel.Treatment.JUC_FIRST_CALL, JdkModel.Treatment.PARK,
                    JdkModel.Treatment.UNPARK).contains(t);
            case "fence" -> t == JdkModel.Treatment.UNMODELLED;
            case "fence if volatile" -> t == JdkModel.Treatment.REFLECTIVE;
            case "full fence" -> t == JdkModel.Treatment.FENCE && c.kind() == Kinds.FULL_FENCE;
            case "StoreStore fence" -> t == JdkModel.Treatment.FENCE && c.kind() == Kinds.STORE_STORE_FENCE;
            case "load fence" -> t == JdkModel.Treatment.FENCE && c.kind() == Kinds.LOAD_FENCE;
            case "start" -> t == JdkModel.Treatment.START || t == JdkModel.Treatment.START_BUILT
                    || t == JdkModel.Treatment.START_VIRTUAL;
            case "join" -> Set.of(JdkModel.Treatment.JOIN, JdkModel.Treatment.ALIVE, JdkModel.Treatment.STATE,
                    JdkModel.Treatment.TIMED_JOIN).contains(t);
            case "wait" -> t == JdkModel.Treatment.WAIT || t == JdkModel.Treatment.TIMED_WAIT;
            case "nothing" -> t == JdkModel.Treatment.NONE;
            default -> throw new AssertionError("no model word '" + model + "'");
        };
    }

    /** The class a row names: a simple name (nested ones with dots) in one of the packages the table covers. */
    private static Class<?> find(String name) {
        String binary = name.replaceFirst("\\.", "\\$");
        for (String p : PACKAGES) {
            for (String n : List.of(name, binary)) {
                try {
                    return Class.forName(p + "." + n, false, null);
                } catch (ClassNotFoundException e) {
                    // another package
                }
            }
        }
        return null;
    }

    /** The public method {@code signature} ({@code name(Type, Type)}, simple type names) of {@code c}. */
    private static Method method(Class<?> c, String signature) {
        String name = signature.substring(0, signature.indexOf('('));
        String params = signature.substring(signature.indexOf('(') + 1, signature.length() - 1).replace(" ", "");
        for (Method m : c.getMethods()) {
            if (!m.getName().equals(name)) {
                continue;
            }
            List<String> types = new ArrayList<>();
            for (Class<?> p : m.getParameterTypes()) {
                types.add(p.getSimpleName());
            }
            if (String.join(",", types).equals(params)) {
                return m;
            }
        }
        return null;
    }

    /** Whether a test of that name exists in the repository (a test class, an IT, a sample). */
    private static boolean exists(String test) throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.anyMatch(f -> f.getFileName().toString().equals(test + ".java") && f.toString().contains("/src/"));
        }
    }

    @Test
    void aWordOfTheModelColumnIsChecked() {
        assertEquals(JdkModel.Treatment.UNMODELLED, JdkModel.classify(Opcodes.INVOKEVIRTUAL,
                "java/lang/ref/ReferenceQueue", "poll", "()Ljava/lang/ref/Reference;", false).treatment());
        assertTrue(is(JdkModel.classify(Opcodes.INVOKEVIRTUAL, "java/lang/ref/ReferenceQueue", "poll",
                "()Ljava/lang/ref/Reference;", false), "fence"));
        assertTrue(!is(JdkModel.classify(Opcodes.INVOKEVIRTUAL, "java/lang/String", "length", "()I", false), "fence"));
    }
}
