package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.util.HashSet;
import java.util.Set;

/**
 * The class in package {@code java.lang} through which rewritten code of other class loaders than the
 * application's calls the probes: one public static method per entry of {@link Probe}, of the same name and
 * descriptor, that calls the entry and returns what it returns. A class loader that does not delegate to its
 * parent (web containers, plugin and test harnesses: one delegates only names starting with {@code java} or
 * {@code org}) cannot resolve {@code dev.mmcheck.runtime.Probes}, and rewritten code that named it threw
 * {@code NoClassDefFoundError}; every loader resolves {@code java.*} names through the boot loader, since no
 * other may define them (JaCoCo's injected code refers to {@code java.*} classes alone for the same reason).
 * The agent defines it at start-up ({@code Boot}); code of the application's class loader keeps calling the
 * runtime directly, without the extra call.
 */
public final class ProbeBridge {

    /** The bridge's internal name. */
    public static final String NAME = "java/lang/$MmcheckProbes";

    /** Every probe, as owner.nameDescriptor. */
    private static final Set<String> PROBES = new HashSet<>();

    static {
        for (Probe p : Probe.values()) {
            PROBES.add(p.owner + '.' + p.method + p.descriptor);
        }
    }

    private ProbeBridge() {
    }

    /** The bridge as the agent defines it. */
    public static byte[] bytes() {
        return bytes(NAME);
    }

    /** The bridge, named {@code name} (internal name): a test defines it in a package of its own. */
    static byte[] bytes(String name) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER | Opcodes.ACC_SYNTHETIC, name,
                null, "java/lang/Object", null);
        Set<String> seen = new HashSet<>();
        for (Probe p : Probe.values()) {
            if (!seen.add(p.method + p.descriptor)) {
                throw new IllegalStateException("two probes " + p.method + p.descriptor + ": the bridge has one method per signature");
            }
            MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, p.method, p.descriptor, null, null);
            mv.visitCode();
            int slot = 0;
            for (Type t : Type.getArgumentTypes(p.descriptor)) {
                mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
                slot += t.getSize();
            }
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, p.owner, p.method, p.descriptor, false);
            mv.visitInsn(Type.getReturnType(p.descriptor).getOpcode(Opcodes.IRETURN));
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** {@code next}, with every call of a probe made through the bridge named {@code name} instead. */
    static MethodVisitor calls(MethodVisitor next, String name) {
        return new MethodVisitor(Opcodes.ASM9, next) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String descriptor, boolean isInterface) {
                boolean probe = opcode == Opcodes.INVOKESTATIC && owner.startsWith("dev/mmcheck/runtime/")
                        && PROBES.contains(owner + '.' + method + descriptor);
                super.visitMethodInsn(opcode, probe ? name : owner, method, descriptor, isInterface);
            }
        };
    }
}
