package dev.mmcheck.agent.rewrite;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The probes' bridge (ProbeBridge) has, for every probe of the table, a public static method of the same
 * name and descriptor whose one call is that probe; it passes the verifier of a class loader of the
 * application's (the agent defines it in java.lang, where it is not verified); and a rewriter told to use it
 * calls no probe directly. RewriterTest runs code rewritten both ways and compares the events.
 */
class ProbeBridgeTest {

    private static final String TEST_NAME = "dev/mmcheck/agent/rewrite/TestProbeBridge";

    @Test
    void everyProbeHasAMethodThatCallsItAndNothingElse() throws Exception {
        ClassNode n = new ClassNode();
        new ClassReader(ProbeBridge.bytes()).accept(n, 0);
        assertEquals(ProbeBridge.NAME, n.name);
        assertTrue((n.access & Opcodes.ACC_PUBLIC) != 0, "public: code of every package calls it");
        assertEquals(Probe.values().length, n.methods.size(), "one method per probe");
        List<String> wrong = new ArrayList<>();
        for (Probe p : Probe.values()) {
            MethodNode m = n.methods.stream().filter(x -> x.name.equals(p.method) && x.desc.equals(p.descriptor))
                    .findFirst().orElse(null);
            if (m == null || (m.access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC)) != (Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC)) {
                wrong.add(p + ": no public static " + p.method + p.descriptor);
                continue;
            }
            List<String> calls = new ArrayList<>();
            for (AbstractInsnNode i : m.instructions) {
                if (i instanceof MethodInsnNode c) {
                    calls.add(c.getOpcode() + " " + c.owner + "." + c.name + c.desc);
                }
            }
            if (!calls.equals(List.of(Opcodes.INVOKESTATIC + " " + p.owner + "." + p.method + p.descriptor))) {
                wrong.add(p + " calls " + calls);
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theBridgePassesTheVerifierWithTheProbesSignatures() throws Exception {
        byte[] bytes = ProbeBridge.bytes(TEST_NAME);
        ClassLoader loader = new ClassLoader(ProbeBridgeTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (!name.equals(TEST_NAME.replace('/', '.'))) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, bytes, 0, bytes.length);
            }
        };
        Class<?> bridge = Class.forName(TEST_NAME.replace('/', '.'), true, loader); // linked: verified
        for (Probe p : Probe.values()) {
            MethodType t = MethodType.fromMethodDescriptorString(p.descriptor, loader);
            Method m = bridge.getMethod(p.method, t.parameterArray());
            assertEquals(t.returnType(), m.getReturnType(), p.toString());
            assertTrue(Modifier.isStatic(m.getModifiers()), p.toString());
        }
    }

    @Test
    void aBridgedRewriterCallsNoProbeDirectly() throws Exception {
        org.objectweb.asm.tree.MethodNode out = new org.objectweb.asm.tree.MethodNode(Opcodes.ASM9, Opcodes.ACC_STATIC,
                "m", "()V", null, null);
        var v = ProbeBridge.calls(out, TEST_NAME);
        Probe.LOCK_FIELD.call().accept(v);
        Probe.RUNNABLE.call().accept(v);
        v.visitMethodInsn(Opcodes.INVOKESTATIC, Probe.Desc.PROBES, "notAProbe", "()V", false);
        v.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Math", "abs", "(I)I", false);
        List<String> owners = new ArrayList<>();
        out.instructions.forEach(i -> owners.add(((MethodInsnNode) i).owner + "." + ((MethodInsnNode) i).name));
        assertEquals(List.of(TEST_NAME + ".lockField", TEST_NAME + ".runnable", Probe.Desc.PROBES + ".notAProbe",
                "java/lang/Math.abs"), owners, "the probes of the table, and nothing else, go through the bridge");
    }
}
