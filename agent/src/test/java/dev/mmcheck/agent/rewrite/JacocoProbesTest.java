package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.fixtures.Synthetics;
import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import net.bytebuddy.pool.TypePool;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.data.SessionInfoStore;
import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.IRuntime;
import org.jacoco.core.runtime.LoggerRuntime;
import org.jacoco.core.runtime.RuntimeData;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Classes as JaCoCo's agent hands them on (its transformer first: {@code $jacocoData}, {@code $jacocoInit}, a probe
 * array stored in every method), rewritten by mmcheck: JaCoCo's members and probes are left alone, the program's
 * accesses are rewritten as without JaCoCo, synthetic fields are left alone unless synthetic=true while the bodies of
 * synthetic methods (lambdas) are the program's; and the rewritten class still records JaCoCo's coverage.
 */
class JacocoProbesTest {

    private static byte[] original(Class<?> c) throws Exception {
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /**
     * {@code bytes} as a Java 8 class file: JaCoCo gives such a class a {@code $jacocoData} field and calls
     * {@code $jacocoInit()} in every method (a library compiled for Java 8), where on Java 11 and later it loads a
     * dynamic constant.
     */
    private static byte[] java8(byte[] bytes) {
        ClassWriter w = new ClassWriter(0);
        new ClassReader(bytes).accept(new org.objectweb.asm.ClassVisitor(org.objectweb.asm.Opcodes.ASM9, w) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName,
                    String[] interfaces) {
                super.visit(org.objectweb.asm.Opcodes.V1_8, access, name, signature, superName, interfaces);
            }

            @Override
            public void visitNestMember(String nestMember) {
                // not in a Java 8 class file
            }

            @Override
            public void visitNestHost(String nestHost) {
                // not in a Java 8 class file
            }
        }, 0);
        return w.toByteArray();
    }

    private static byte[] jacoco(IRuntime runtime, byte[] bytes, String name) throws Exception {
        return new Instrumenter(runtime).instrument(bytes, name);
    }

    private static byte[] mmcheck(byte[] bytes, boolean synthetic) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return JacocoProbesTest.class.getClassLoader();
            }
        };
        ClassRewriter.Context ctx = ClassRewriter.Context.of(new FieldTable(), new SiteTable(), (c, m) -> false, true,
                synthetic);
        new ClassReader(bytes).accept(new ClassRewriter(writer, ctx, new TypeFacts(TypePool.Default.ofSystemLoader()),
                false), ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /** The probes {@code method} calls, in order (null when there is no such method). */
    private static List<String> probes(byte[] bytes, String method) {
        ClassNode n = new ClassNode();
        new ClassReader(bytes).accept(n, 0);
        for (MethodNode m : n.methods) {
            if (m.name.equals(method)) {
                List<String> out = new ArrayList<>();
                m.instructions.forEach(i -> {
                    if (i instanceof MethodInsnNode mi && mi.owner.startsWith("dev/mmcheck/runtime/")) {
                        out.add(mi.name);
                    }
                });
                return out;
            }
        }
        return null;
    }

    private static String lambdaName(byte[] bytes) {
        ClassNode n = new ClassNode();
        new ClassReader(bytes).accept(n, 0);
        return n.methods.stream().map(m -> m.name).filter(s -> s.startsWith("lambda$")).findFirst().orElseThrow();
    }

    @Test
    void jacocosProbesAreLeftAloneAndTheProgramsAccessesRewrittenAsWithoutIt() throws Exception {
        jacocosProbesAreLeftAlone(original(Synthetics.class));
    }

    @Test
    void jacocosProbesOfAJava8ClassAreLeftAloneToo() throws Exception {
        byte[] covered = jacocosProbesAreLeftAlone(java8(original(Synthetics.class)));
        ClassNode n = new ClassNode();
        new ClassReader(covered).accept(n, 0);
        assertTrue(n.fields.stream().anyMatch(f -> f.name.equals("$jacocoData")), "the field strategy, not the constant");
    }

    private static byte[] jacocosProbesAreLeftAlone(byte[] plain) throws Exception {
        byte[] covered = jacoco(new LoggerRuntime(), plain, Synthetics.class.getName());
        assertNotNull(probes(covered, "$jacocoInit"), "JaCoCo added its method");
        byte[] alone = mmcheck(plain, false);
        byte[] both = mmcheck(covered, false);
        for (String m : List.of("readPlain", "writeCell", "asserts", "colors", "lambda")) {
            assertEquals(probes(alone, m), probes(both, m), m + ": JaCoCo's probe stores are not the program's");
        }
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadI"), probes(both, "readPlain"));
        assertEquals(List.of("threadLog", "lockPlainFieldFirst", "logLoadA", "lockElementIn", "logStoreI", "unlock", "endGroup"),
                probes(both, "writeCell"), "the program's own array store is rewritten");
        assertEquals(List.of(), probes(both, "$jacocoInit"), "JaCoCo's own method is left as JaCoCo wrote it");
        assertEquals(List.of("threadLog", "lockPlainField", "logStoreI", "unlock"), probes(both, lambdaName(both)),
                "a lambda's body is a synthetic method, and the program's code");
        return covered;
    }

    @Test
    void syntheticFieldsAreLeftAloneUnlessAskedFor() throws Exception {
        byte[] inner = original(Synthetics.Inner.class);
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadI"), probes(mmcheck(inner, false), "outer"),
                "this$0 is left alone, the outer field read through it is not");
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadA", "lockPlainField", "logLoadI"),
                probes(mmcheck(inner, true), "outer"), "synthetic=true: this$0 too");
        byte[] outer = original(Synthetics.class);
        assertEquals(List.of("threadLog", "lockPlainField", "logStoreI", "unlock"), probes(mmcheck(outer, false), "asserts"),
                "$assertionsDisabled is left alone");
        assertTrue(probes(mmcheck(outer, true), "asserts").contains("lockStaticFinal"), "synthetic=true: $assertionsDisabled too");
        byte[] color = original(Synthetics.Color.class);
        assertEquals(List.of(), probes(mmcheck(color, false), "values"), "$VALUES is left alone");
        assertTrue(probes(mmcheck(color, true), "values").contains("lockStaticFinal"), "synthetic=true: $VALUES too");
    }

    /** Loads the given classes child-first. */
    private static final class Loader extends ClassLoader {
        private final Map<String, byte[]> classes = new HashMap<>();

        Loader(Map<String, byte[]> classes) {
            super(JacocoProbesTest.class.getClassLoader());
            this.classes.putAll(classes);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                byte[] b = classes.get(name);
                if (b == null) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, b, 0, b.length);
            }
        }
    }

    @Test
    void theRewrittenClassRecordsTheSameCoverage() throws Exception {
        recordsTheSameCoverage(original(Synthetics.class));
        recordsTheSameCoverage(java8(original(Synthetics.class)));
    }

    private static void recordsTheSameCoverage(byte[] plain) throws Exception {
        String name = Synthetics.class.getName();
        boolean[][] hits = new boolean[2][];
        for (int run = 0; run < 2; run++) {
            LoggerRuntime runtime = new LoggerRuntime();
            RuntimeData data = new RuntimeData();
            runtime.startup(data);
            try {
                byte[] covered = jacoco(runtime, plain, name);
                Class<?> c = new Loader(Map.of(name, run == 0 ? covered : mmcheck(covered, false))).loadClass(name);
                Object o = c.getConstructor().newInstance();
                c.getMethod("writeCell", int.class).invoke(o, 3);
                assertEquals(0, c.getMethod("readPlain").invoke(o));
                ExecutionDataStore store = new ExecutionDataStore();
                data.collect(store, new SessionInfoStore(), false);
                ExecutionData e = store.getContents().stream().filter(x -> x.getName().equals(name.replace('.', '/')))
                        .findFirst().orElseThrow();
                hits[run] = e.getProbes();
            } finally {
                runtime.shutdown();
            }
        }
        assertArrayEquals(hits[0], hits[1], "JaCoCo's probes are hit as without mmcheck");
        int n = 0;
        for (boolean h : hits[1]) {
            n += h ? 1 : 0;
        }
        assertTrue(n >= 3, "the constructor's, writeCell's and readPlain's probes were hit: " + n);
    }
}
