package dev.mmcheck.agent.rewrite;

import dev.mmcheck.runtime.Kinds;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The probes around the other instructions that touch memory, of one method: array element loads
 * and stores (primitive loads replaced by probes that load themselves), monitorenter/monitorexit, and
 * the final-field freeze at the end of a constructor.
 */
final class InstructionRewriting {

    private final MethodRewriter rw;

    InstructionRewriting(MethodRewriter rw) {
        this.rw = rw;
    }

    /**
     * Rewrites instruction {@code n}; {@code endFence}: the kind of fence a RETURN is preceded by (the
     * freeze ending a constructor of a class with final fields, the end of a class initializer), or -1.
     */
    void insn(AbstractInsnNode n, int endFence) {
        int op = n.getOpcode();
        boolean data = (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) || (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE);
        if (data && rw.owner().syncOnly()) {
            return; // an excluded class's array elements are data
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD && op != Opcodes.AALOAD) {
            // primitive element loads: the probe loads, so that it can skip the stripe for a repeated load
            int k = op - Opcodes.IALOAD;
            char suffix = "IJFD?BCS".charAt(k);
            InsnList call = new InsnList();
            call.add(rw.loadLog());
            call.add(MethodRewriter.push(rw.site(n)));
            // never the first of a group (MethodRewriter.groups)
            call.add((rw.grouped(n) != null ? Probe.loadElementInGroup(suffix) : Probe.loadElement(suffix)).call());
            rw.endGroupAfter(n, call);
            rw.instructions.insertBefore(n, call);
            rw.instructions.remove(n);
            rw.counted();
        } else if (op == Opcodes.AALOAD) {
            char l = arrayLetter(op - Opcodes.IALOAD);
            int site = rw.site(n);
            InsnList before = new InsnList();
            before.add(new InsnNode(Opcodes.DUP2));
            before.add(rw.loadLog());
            before.add(lockElement(n, Probe.LOCK_ELEMENT, Probe.LOCK_ELEMENT_FIRST, Probe.LOCK_ELEMENT_IN).call());
            InsnList after = new InsnList();
            rw.loaded(after, l, site);
            rw.endGroupAfter(n, after);
            rw.instructions.insertBefore(n, before);
            rw.instructions.insert(n, after);
            rw.counted();
        } else if (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
            char l = arrayLetter(op - Opcodes.IASTORE);
            Type type = l == 'A' ? Type.getType(Object.class) : Type.getType(MethodRewriter.typeOf(l));
            int site = rw.site(n);
            int v = rw.spill(type, 0);
            InsnList before = new InsnList();
            InsnList after = new InsnList();
            before.add(new VarInsnNode(type.getOpcode(Opcodes.ISTORE), v));
            before.add(new InsnNode(Opcodes.DUP2));
            if (op == Opcodes.AASTORE) {
                before.add(new VarInsnNode(Opcodes.ALOAD, v));
                before.add(rw.loadLog());
                before.add(lockElement(n, Probe.LOCK_ELEMENT_STORE, Probe.LOCK_ELEMENT_STORE_FIRST, Probe.LOCK_ELEMENT_STORE_IN).call());
            } else {
                before.add(rw.loadLog());
                before.add(lockElement(n, Probe.LOCK_ELEMENT, Probe.LOCK_ELEMENT_FIRST, Probe.LOCK_ELEMENT_IN).call());
            }
            before.add(new VarInsnNode(type.getOpcode(Opcodes.ILOAD), v));
            rw.storing(before, after, l, site, Kinds.STORE);
            rw.endGroupAfter(n, after);
            rw.instructions.insertBefore(n, before);
            rw.instructions.insert(n, after);
            rw.counted();
        } else if (op == Opcodes.MONITORENTER) {
            int site = rw.site(n);
            rw.instructions.insertBefore(n, new InsnNode(Opcodes.DUP));
            InsnList after = new InsnList();
            after.add(rw.loadLog());
            after.add(MethodRewriter.push(site));
            after.add(Probe.LOG_MONITOR_ENTER.call());
            rw.instructions.insert(n, after);
            rw.counted();
        } else if (op == Opcodes.MONITOREXIT) {
            int site = rw.site(n);
            InsnList before = new InsnList();
            before.add(new InsnNode(Opcodes.DUP));
            before.add(rw.loadLog());
            before.add(MethodRewriter.push(site));
            before.add(Probe.LOG_MONITOR_EXIT.call());
            rw.instructions.insertBefore(n, before);
            rw.counted();
        } else if (op == Opcodes.RETURN && endFence >= 0) {
            InsnList before = new InsnList();
            before.add(rw.loadLog());
            before.add(MethodRewriter.push(rw.site(n)));
            before.add(MethodRewriter.push(endFence));
            before.add(Probe.LOG_FENCE.call());
            rw.instructions.insertBefore(n, before);
            rw.counted();
        }
    }

    /** The lock probe of element access {@code n}: alone, first of a group, or later in one (MethodRewriter.groups). */
    private Probe lockElement(AbstractInsnNode n, Probe alone, Probe first, Probe in) {
        AccessGroups.Grouped g = rw.grouped(n);
        return g == null ? alone : g == AccessGroups.Grouped.FIRST ? first : in;
    }

    static char arrayLetter(int k) {
        // IALOAD, LALOAD, FALOAD, DALOAD, AALOAD, BALOAD, CALOAD, SALOAD (and the stores, in the same order)
        return "IJFDAIII".charAt(k);
    }
}
