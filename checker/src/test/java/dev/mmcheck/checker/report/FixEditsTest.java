package dev.mmcheck.checker.report;

import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.fix.Change;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which fix changes are one-line edits, and where a fence line goes. */
class FixEditsTest {

    @TempDir
    Path dir;

    private static final List<String> SOURCE = List.of(
            "import java.lang.invoke.VarHandle; class Reader {",              // 1
            "    int budget() {",                                             // 2
            "        if (ready) {",                                           // 3
            "            return timeoutMillis * retries; // mmcheck:access",  // 4
            "        }",                                                      // 5
            "        int v = VERSION.getAcquire(this); // the re-read",       // 6
            "        log(\"a // b\"); // quoted slashes",                    // 7
            "        x = 1;",                                                 // 8
            "    }",                                                          // 9
            "}");                                                             // 10

    private Optional<FixEdits.Edit> edit(Change.Kind kind, int line) throws Exception {
        Path src = dir.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        Files.createDirectories(dir.resolve(".git"));
        Files.write(src.resolve("Reader.java"), SOURCE);
        SourceRoots roots = SourceRoots.of(dir, List.of(Path.of("src/main/java")));
        Site site = new Site("org.demo.Reader", "budget", "Reader.java", line, 0);
        return FixEdits.of(Change.at(kind, site, "the load"), roots);
    }

    @Test
    void aFenceBeforeAReturnWithATrailingCommentIsALineInsertedWithItsIndentation() throws Exception {
        FixEdits.Edit e = edit(Change.Kind.ACQUIRE_FENCE_BEFORE, 4).orElseThrow();
        assertEquals(4, e.line());
        assertEquals(1, e.startColumn());
        assertEquals(1, e.endColumn());
        assertEquals("            VarHandle.acquireFence();\n", e.inserted());
        assertEquals("src/main/java/org/demo/Reader.java", e.uri());
    }

    @Test
    void neverAfterAReturn() throws Exception {
        assertTrue(edit(Change.Kind.FULL_FENCE_AFTER, 4).isEmpty(), "the line would never run");
    }

    @Test
    void afterAStatementWithATrailingComment() throws Exception {
        FixEdits.Edit e = edit(Change.Kind.FULL_FENCE_AFTER, 6).orElseThrow();
        assertEquals(7, e.line());
        assertEquals("        VarHandle.fullFence();\n", e.inserted());
    }

    @Test
    void aLineWithQuotedSlashesIsTakenWholeAndNotAStatement() throws Exception {
        assertTrue(edit(Change.Kind.FULL_FENCE_BEFORE, 7).isEmpty(), "its last characters are a comment's");
        assertEquals("log(\"a // b\"); // quoted slashes", FixEdits.code(SOURCE.get(6)));
        assertEquals("x = 1;", FixEdits.code(SOURCE.get(7)));
    }

    @Test
    void inAFileThatDoesNotImportVarHandleItIsNamedInFull() throws Exception {
        assertTrue(FixEdits.importsVarHandle(List.of("import java.lang.invoke.VarHandle;")));
        assertTrue(FixEdits.importsVarHandle(List.of("import java.lang.invoke.*;")));
        assertTrue(!FixEdits.importsVarHandle(List.of("import java.lang.invoke.MethodHandles;", "class A {}")));
        Path src = dir.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        Files.createDirectories(dir.resolve(".git"));
        Files.write(src.resolve("Plain.java"), List.of("class Plain {", "    void f() {", "        x = 1;", "    }", "}"));
        Site site = new Site("org.demo.Plain", "f", "Plain.java", 3, 0);
        FixEdits.Edit e = FixEdits.of(Change.at(Change.Kind.FULL_FENCE_AFTER, site, "the store"),
                SourceRoots.of(dir, List.of(Path.of("src/main/java")))).orElseThrow();
        assertEquals("        java.lang.invoke.VarHandle.fullFence();\n", e.inserted());
    }

    private Optional<FixEdits.Edit> field(String field, List<String> source) throws Exception {
        Path src = dir.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        Files.createDirectories(dir.resolve(".git"));
        Files.write(src.resolve("Flags.java"), source);
        Site site = new Site("org.demo.Flags", "raise", "Flags.java", 4, 0);
        return FixEdits.of(Change.volatileField(field, site, "the store to " + field),
                SourceRoots.of(dir, List.of(Path.of("src/main/java"))));
    }

    @Test
    void aFieldMadeVolatileIsTheWordWrittenBeforeTheTypeOfItsDeclaration() throws Exception {
        List<String> source = List.of(
                "class Flags {",                                   // 1
                "    private static int[] flag1 = {0}; // raised",  // 2
                "    void raise() {",                               // 3
                "        flag1[0] = 1;",                            // 4
                "        int flag2 = 3;",                           // 5
                "    }",                                            // 6
                "    static final class Holder {",                  // 7
                "        java.util.List<String> flag2;",            // 8
                "        final int done = 1;",                      // 9
                "    }",                                            // 10
                "}");                                               // 11
        FixEdits.Edit e = field("Flags.flag1", source).orElseThrow();
        assertEquals(2, e.line());
        assertEquals(20, e.startColumn(), "after the modifiers");
        assertEquals(e.startColumn(), e.endColumn());
        assertEquals("volatile ", e.inserted());
        // a local of the same name inside a method is not the field
        FixEdits.Edit nested = field("Flags$Holder.flag2", source).orElseThrow();
        assertEquals(8, nested.line());
        assertEquals(9, nested.startColumn());
        assertTrue(field("Flags$Holder.done", source).isEmpty(), "a final field cannot be volatile");
        assertTrue(field("Flags.missing", source).isEmpty(), "declared elsewhere");
    }

    private List<FixEdits.Edit> handle(Change.Kind kind, int line, String field, List<String> source) throws Exception {
        Path src = dir.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        Files.createDirectories(dir.resolve(".git"));
        Files.write(src.resolve("Pub.java"), source);
        Site site = new Site("org.demo.Pub", "run", "Pub.java", line, 0);
        String words = kind == Change.Kind.ACQUIRE_LOAD || kind == Change.Kind.VOLATILE_LOAD ? "the load of " : "the store to ";
        return FixEdits.all(Change.at(kind, site, words + field), SourceRoots.of(dir, List.of(Path.of("src/main/java"))));
    }

    private static final List<String> PUB = List.of(
            "class Pub {",                                        // 1
            "    static boolean readyFlag;",                       // 2
            "    static final class Box {",                        // 3
            "        java.util.List<String> items;",               // 4
            "    }",                                               // 5
            "    void run(Box b) {",                               // 6
            "        b.items = java.util.List.of(); // publish",  // 7
            "        readyFlag = true;",                           // 8
            "        if (!readyFlag) { return; }",                 // 9
            "        int n = b.items.size() + b.items.size();",    // 10
            "    }",                                               // 11
            "}");                                                  // 12

    @Test
    void aPlainFieldsStoreGivenAModeDeclaresAVarHandleAndWritesTheStoreThroughIt() throws Exception {
        List<FixEdits.Edit> edits = handle(Change.Kind.RELEASE_STORE, 7, "Pub$Box.items", PUB);
        assertEquals(2, edits.size(), edits.toString());
        assertEquals(5, edits.get(0).line(), "right after the declaration");
        assertTrue(edits.get(0).inserted().startsWith("        private static final java.lang.invoke.VarHandle "
                + "ITEMS_HANDLE;\n        static {\n"), edits.get(0).inserted());
        assertTrue(edits.get(0).inserted().contains("ITEMS_HANDLE = java.lang.invoke.MethodHandles.lookup()"
                + ".findVarHandle(Pub.Box.class, \"items\", java.util.List.class);"), edits.get(0).inserted());
        assertEquals(7, edits.get(1).line());
        assertEquals(9, edits.get(1).startColumn());
        // named through its class: Pub cannot see Box's members unqualified
        assertEquals("Pub.Box.ITEMS_HANDLE.setRelease(b, java.util.List.of());", edits.get(1).inserted());
        assertEquals(PUB.get(6).indexOf(" // publish") + 1, edits.get(1).endColumn(), "the comment is kept");
        // a static field: no receiver, findStaticVarHandle
        List<FixEdits.Edit> flag = handle(Change.Kind.VOLATILE_STORE, 8, "Pub.readyFlag", PUB);
        assertEquals("Pub.READY_FLAG_HANDLE.setVolatile(true);", flag.get(1).inserted());
        assertTrue(flag.get(0).inserted().contains(".findStaticVarHandle(Pub.class, \"readyFlag\", boolean.class)"));
    }

    @Test
    void aPlainFieldsLoadGivenAModeIsItsOneMentionReadThroughTheHandle() throws Exception {
        List<FixEdits.Edit> edits = handle(Change.Kind.ACQUIRE_LOAD, 9, "Pub.readyFlag", PUB);
        assertEquals(2, edits.size());
        assertEquals("((boolean) Pub.READY_FLAG_HANDLE.getAcquire())", edits.get(1).inserted());
        assertEquals(PUB.get(8).indexOf("readyFlag") + 1, edits.get(1).startColumn());
        assertEquals(PUB.get(8).indexOf("readyFlag") + 1 + "readyFlag".length(), edits.get(1).endColumn());
        assertTrue(handle(Change.Kind.ACQUIRE_LOAD, 10, "Pub$Box.items", PUB).isEmpty(), "two mentions: which one");
        assertTrue(handle(Change.Kind.ACQUIRE_LOAD, 9, "int[][]", PUB).isEmpty(), "no element access on the line");
    }

    @Test
    void aFieldOfAnotherFileUsesItsVarHandleOrDeclaresOneThere() throws Exception {
        Path src = dir.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        Files.createDirectories(dir.resolve(".git"));
        Files.write(src.resolve("Box.java"), List.of("final class Box {", "    long latest;", "    int count;",
                "    static final VarHandle LATEST;", "    static {", "        try {",
                "            LATEST = MethodHandles.lookup().findVarHandle(Box.class, \"latest\", long.class);",
                "        } catch (ReflectiveOperationException e) {", "            throw new Error(e);", "        }", "    }",
                "}"));
        Files.write(src.resolve("Use.java"), List.of("class Use {", "    void f(Box b, long p) {", "        b.latest = p;",
                "        b.count = 1;", "    }", "}"));
        SourceRoots roots = SourceRoots.of(dir, List.of(Path.of("src/main/java")));
        Site latest = new Site("org.demo.Use", "f", "Use.java", 3, 0);
        List<FixEdits.Edit> uses = FixEdits.all(Change.at(Change.Kind.RELEASE_STORE, latest, "the store to Box.latest"),
                roots);
        assertEquals(1, uses.size(), "Box declares latest's VarHandle: only the access changes");
        assertEquals("Box.LATEST.setRelease(b, p);", uses.get(0).inserted());
        assertEquals("src/main/java/org/demo/Use.java", uses.get(0).uri());
        Site count = new Site("org.demo.Use", "f", "Use.java", 4, 0);
        List<FixEdits.Edit> declares = FixEdits.all(Change.at(Change.Kind.VOLATILE_STORE, count, "the store to Box.count"),
                roots);
        assertEquals(2, declares.size());
        assertEquals("src/main/java/org/demo/Box.java", declares.get(0).uri(), "declared where the field is");
        assertEquals(4, declares.get(0).line());
        assertTrue(declares.get(0).inserted().startsWith("    static final java.lang.invoke.VarHandle COUNT_HANDLE;"),
                "not private: another file names it");
        assertEquals("Box.COUNT_HANDLE.setVolatile(b, 1);", declares.get(1).inserted());
        // a field of the same name in the access's own file is another class's: Box's declaration is the one
        Files.write(src.resolve("Use.java"), List.of("class Use {", "    void f(Box b, long p) {", "        b.latest = p;",
                "        b.count = 1;", "    }", "    int count;", "}"));
        FixEdits.Edit field = FixEdits.of(Change.volatileField("Box.count", count, "the store to Box.count"), roots)
                .orElseThrow();
        assertEquals("src/main/java/org/demo/Box.java", field.uri());
        assertEquals(3, field.line());
    }

    @Test
    void accessesTheHandleCannotWriteAsTheyAreHaveNoEditOrAreWrittenSoTheyCompile() throws Exception {
        List<String> source = List.of(
                "class Pub {",                                              // 1
                "    byte small;",                                           // 2
                "    int count;",                                            // 3
                "    T item;",                                               // 4
                "    void run(Pub p) {",                                     // 5
                "        p.small = 1;",                                      // 6
                "        p.count += 2;",                                     // 7
                "        int n = ++p.count;",                                // 8
                "        p.count = 1; p.small = 2;",                         // 9
                "        p.item = null;",                                    // 10
                "    }",                                                     // 11
                "}");                                                        // 12
        assertEquals("Pub.SMALL_HANDLE.setRelease(p, (byte) (1));",
                handle(Change.Kind.RELEASE_STORE, 6, "Pub.small", source).get(1).inserted(), "an int is not narrowed");
        assertTrue(handle(Change.Kind.ACQUIRE_LOAD, 7, "Pub.count", source).isEmpty(), "a compound assignment");
        assertTrue(handle(Change.Kind.ACQUIRE_LOAD, 8, "Pub.count", source).isEmpty(), "a pre-increment");
        assertTrue(handle(Change.Kind.RELEASE_STORE, 9, "Pub.count", source).isEmpty(), "two statements on the line");
        assertTrue(handle(Change.Kind.RELEASE_STORE, 10, "Pub.item", source).isEmpty(), "a type variable's field");
    }

    @Test
    void anInnerClassWritesItsOuterInstancesField() throws Exception {
        List<String> source = List.of(
                "class Pub {",                                  // 1
                "    int count;",                                // 2
                "    Runnable r = new Runnable() {",             // 3
                "        public void run() {",                   // 4
                "            count = 3;",                        // 5
                "        }",                                     // 6
                "    };",                                        // 7
                "}");                                            // 8
        Path src = dir.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        Files.createDirectories(dir.resolve(".git"));
        Files.write(src.resolve("Pub.java"), source);
        Site inner = new Site("org.demo.Pub$1", "run", "Pub.java", 5, 0);
        List<FixEdits.Edit> edits = FixEdits.all(Change.at(Change.Kind.RELEASE_STORE, inner, "the store to Pub.count"),
                SourceRoots.of(dir, List.of(Path.of("src/main/java"))));
        assertEquals("Pub.COUNT_HANDLE.setRelease(Pub.this, 3);", edits.get(1).inserted(), "this is the Runnable");
    }

    @Test
    void anArrayElementGivenAModeIsWrittenThroughAnElementVarHandle() throws Exception {
        List<String> source = List.of(
                "final class Pub {",                                  // 1
                "    private final long[] slots = new long[8];",      // 2
                "    void run(int i, long v) {",                       // 3
                "        slots[i & 7] = v; // mmcheck:store",          // 4
                "        if (slots[1 - i] == 0) {",                    // 5
                "            slots[i]++;",                             // 6
                "        }",                                           // 7
                "    }",                                               // 8
                "}");                                                  // 9
        List<FixEdits.Edit> store = handle(Change.Kind.RELEASE_STORE, 4, "long[][]", source);
        assertEquals(2, store.size(), store.toString());
        assertEquals(2, store.get(0).line(), "right after the class's declaration");
        assertEquals("    private static final java.lang.invoke.VarHandle LONG_ARRAY_HANDLE = "
                + "java.lang.invoke.MethodHandles.arrayElementVarHandle(long[].class);\n", store.get(0).inserted());
        assertEquals("LONG_ARRAY_HANDLE.setRelease(slots, i & 7, v);", store.get(1).inserted());
        List<FixEdits.Edit> load = handle(Change.Kind.VOLATILE_LOAD, 5, "long[][]", source);
        assertEquals("((long) LONG_ARRAY_HANDLE.getVolatile(slots, 1 - i))", load.get(1).inserted());
        assertEquals(source.get(4).indexOf("slots") + 1, load.get(1).startColumn());
        assertTrue(handle(Change.Kind.ACQUIRE_LOAD, 6, "long[][]", source).isEmpty(), "written to: not a load");
    }

    @Test
    void twoDeclarationsOfTheNameInOneFileHaveNoEdit() throws Exception {
        assertTrue(field("Flags.x", List.of("class Flags {", "    int x;", "    class In {", "        long x;", "    }",
                "}")).isEmpty());
    }

    @Test
    void notInsideAnIfsHeader() throws Exception {
        assertTrue(edit(Change.Kind.FULL_FENCE_AFTER, 3).isEmpty());
    }

    @Test
    void beforeAnIfsHeaderItIsALineInsertedAboveIt() throws Exception {
        FixEdits.Edit e = edit(Change.Kind.FULL_FENCE_BEFORE, 3).orElseThrow();
        assertEquals(3, e.line());
        assertEquals("        VarHandle.fullFence();\n", e.inserted());
        assertTrue(edit(Change.Kind.ACQUIRE_FENCE_BEFORE, 3).isPresent());
    }

    @Test
    void notBeforeALoopsHeader() throws Exception {
        Path src = dir.resolve("src/main/java/org/demo");
        Files.createDirectories(src);
        Files.createDirectories(dir.resolve(".git"));
        Files.write(src.resolve("Spin.java"), List.of("class Spin {", "    void f() {", "        while (flag) {",
                "        }", "    }", "}"));
        Site site = new Site("org.demo.Spin", "f", "Spin.java", 3, 0);
        assertTrue(FixEdits.of(Change.at(Change.Kind.FULL_FENCE_BEFORE, site, "the load"),
                SourceRoots.of(dir, List.of(Path.of("src/main/java")))).isEmpty(), "the condition runs again without it");
    }
}
