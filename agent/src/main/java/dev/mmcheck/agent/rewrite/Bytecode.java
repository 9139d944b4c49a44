package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Bytecode offsets (bci) of the instructions of a method as read from its class file. Labels that
 * the class reader created know their offsets, so the count restarts at each of them (every line
 * start, branch target and handler); in between, instruction lengths are added up. The one
 * ambiguity, {@code ldc} versus {@code ldc_w}, is resolved as {@code ldc}, so an offset can be off by
 * one after a constant with a large pool index within the same statement.
 */
final class Bytecode {

    private Bytecode() {
    }

    /** The bci of every instruction node of {@code code}. */
    static Map<AbstractInsnNode, Integer> offsets(InsnList code) {
        Map<AbstractInsnNode, Integer> out = new IdentityHashMap<>();
        int at = 0;
        for (AbstractInsnNode n = code.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof LabelNode) {
                try {
                    at = ((LabelNode) n).getLabel().getOffset();
                } catch (IllegalStateException unresolved) {
                    // a label not from the class file: keep counting
                }
                continue;
            }
            if (n.getOpcode() < 0) {
                continue; // line numbers, frames
            }
            out.put(n, at);
            at += length(n, at);
        }
        return out;
    }

    private static int length(AbstractInsnNode n, int at) {
        int op = n.getOpcode();
        switch (n.getType()) {
            case AbstractInsnNode.INSN:
                return 1;
            case AbstractInsnNode.INT_INSN:
                return op == Opcodes.SIPUSH ? 3 : 2;
            case AbstractInsnNode.VAR_INSN: {
                int var = ((VarInsnNode) n).var;
                if (var > 255) {
                    return 4;
                }
                return var <= 3 && op != Opcodes.RET ? 1 : 2;
            }
            case AbstractInsnNode.TYPE_INSN:
            case AbstractInsnNode.FIELD_INSN:
            case AbstractInsnNode.JUMP_INSN:
                return 3;
            case AbstractInsnNode.METHOD_INSN:
                return op == Opcodes.INVOKEINTERFACE ? 5 : 3;
            case AbstractInsnNode.INVOKE_DYNAMIC_INSN:
                return 5;
            case AbstractInsnNode.LDC_INSN: {
                Object c = ((LdcInsnNode) n).cst;
                return c instanceof Long || c instanceof Double ? 3 : 2;
            }
            case AbstractInsnNode.IINC_INSN: {
                IincInsnNode i = (IincInsnNode) n;
                return i.var > 255 || i.incr < Byte.MIN_VALUE || i.incr > Byte.MAX_VALUE ? 6 : 3;
            }
            case AbstractInsnNode.TABLESWITCH_INSN: {
                TableSwitchInsnNode t = (TableSwitchInsnNode) n;
                return 1 + pad(at) + 12 + 4 * t.labels.size();
            }
            case AbstractInsnNode.LOOKUPSWITCH_INSN: {
                LookupSwitchInsnNode l = (LookupSwitchInsnNode) n;
                return 1 + pad(at) + 8 + 8 * l.keys.size();
            }
            case AbstractInsnNode.MULTIANEWARRAY_INSN:
                return 4;
            default:
                return 1;
        }
    }

    private static int pad(int at) {
        return (4 - ((at + 1) & 3)) & 3;
    }
}
