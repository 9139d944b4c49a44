package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Plain field accesses that a fence next to them orders as the code meant them, found before the method is
 * rewritten: a plain store right after a release (or full) fence is a release store written with a fence, and a
 * plain load right before an acquire (or full) fence an acquire load ({@code VarHandle.releaseFence(); this.value
 * = v;} and {@code long v = this.value; VarHandle.acquireFence();}, the LMAX Disruptor's {@code Sequence.set} and
 * {@code get}). "Right" means nothing but local variables, constants, labels and line numbers in between. Their
 * sites get the mode {@code release} or {@code acquire}, which only says how a finding is classified (a race when
 * a side is plain, else relaxed: docs/report-format.md); the events and the monitors are the same, the fence
 * being logged as an event of its own.
 */
final class FenceOrdered {

    private FenceOrdered() {
    }

    /** The mode each fence-ordered plain field access of {@code code} gets: {@code release} or {@code acquire}. */
    static Map<AbstractInsnNode, String> modes(InsnList code) {
        Map<AbstractInsnNode, String> out = new IdentityHashMap<>();
        for (AbstractInsnNode n = code.getFirst(); n != null; n = n.getNext()) {
            if (!(n instanceof MethodInsnNode m)) {
                continue;
            }
            if (releases(m)) {
                AbstractInsnNode next = n.getNext();
                while (next != null && (next.getOpcode() < 0 || pushesLocalOrConstant(next.getOpcode()))) {
                    next = next.getNext();
                }
                if (next instanceof FieldInsnNode f && (f.getOpcode() == Opcodes.PUTFIELD || f.getOpcode() == Opcodes.PUTSTATIC)) {
                    out.put(f, "release");
                }
            }
            if (acquires(m)) {
                AbstractInsnNode prev = n.getPrevious();
                while (prev != null && (prev.getOpcode() < 0 || storesLocal(prev.getOpcode()))) {
                    prev = prev.getPrevious();
                }
                if (prev instanceof FieldInsnNode f && (f.getOpcode() == Opcodes.GETFIELD || f.getOpcode() == Opcodes.GETSTATIC)) {
                    out.put(f, "acquire");
                }
            }
        }
        return out;
    }

    /** A fence that orders every earlier access before every later store: release or full. */
    private static boolean releases(MethodInsnNode m) {
        return isVarHandleFence(m) && (m.name.equals("releaseFence") || m.name.equals("fullFence"))
                || isUnsafeFence(m) && (m.name.equals("storeFence") || m.name.equals("fullFence"));
    }

    /** A fence that orders every earlier load before every later access: acquire or full. */
    private static boolean acquires(MethodInsnNode m) {
        return isVarHandleFence(m) && (m.name.equals("acquireFence") || m.name.equals("fullFence"))
                || isUnsafeFence(m) && (m.name.equals("loadFence") || m.name.equals("fullFence"));
    }

    private static boolean isVarHandleFence(MethodInsnNode m) {
        return m.getOpcode() == Opcodes.INVOKESTATIC && m.owner.equals("java/lang/invoke/VarHandle") && m.desc.equals("()V");
    }

    private static boolean isUnsafeFence(MethodInsnNode m) {
        return m.getOpcode() == Opcodes.INVOKEVIRTUAL && (m.owner.equals("sun/misc/Unsafe") || m.owner.equals("jdk/internal/misc/Unsafe"))
                && m.desc.equals("()V");
    }

    private static boolean pushesLocalOrConstant(int op) {
        return op >= Opcodes.ACONST_NULL && op <= Opcodes.ALOAD; // constants, ldc, and loads of locals
    }

    private static boolean storesLocal(int op) {
        return op >= Opcodes.ISTORE && op <= Opcodes.ASTORE;
    }
}
