package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The groups of plain accesses of one method that share one solo window (runtime.Solo): found before the method is
 * rewritten, read by {@link FieldRewriting} and {@link InstructionRewriting} through {@link MethodRewriter#grouped}
 * to choose each access's probe. Pure functions of the method's instructions and the class's facts.
 */
final class AccessGroups {

    private AccessGroups() {
    }

    /** Where a plain access stands in a group of accesses that share one solo window ({@link #of}). */
    enum Grouped {
        /** Opens the window, if its thread is in a solo period, and leaves it open. */
        FIRST,
        /** Runs in the window its group's first access opened. */
        IN,
        /** Runs in it, and the window closes after it. */
        LAST
    }

    /**
     * The groups of plain accesses (instance fields that are not volatile, array elements) in stretches of
     * straight-line code with nothing between them that can throw, block, call or load a class: in a solo period the
     * first opens the window (runtime.Solo) and the others run in it with next to no probe work (runtime.Probes,
     * "groups of plain accesses"). An access to another class's field may only open a group (resolving its class may
     * wait for a class loader), and a primitive element load may not (its ungrouped probe skips the stripe for a
     * repeated load in runs with no period). Two accesses at least; none before a constructor's super() call.
     */
    static Map<AbstractInsnNode, Grouped> of(ClassRewriter owner, MethodNode method, Set<AbstractInsnNode> foreign,
            AbstractInsnNode superCall) {
        if (owner.syncOnly()) {
            return Map.of();
        }
        Set<AbstractInsnNode> targets = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (AbstractInsnNode n = method.instructions.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof org.objectweb.asm.tree.JumpInsnNode j) {
                targets.add(j.label);
            } else if (n instanceof org.objectweb.asm.tree.TableSwitchInsnNode t) {
                targets.add(t.dflt);
                targets.addAll(t.labels);
            } else if (n instanceof org.objectweb.asm.tree.LookupSwitchInsnNode l) {
                targets.add(l.dflt);
                targets.addAll(l.labels);
            }
        }
        for (TryCatchBlockNode h : method.tryCatchBlocks) {
            targets.add(h.start);
            targets.add(h.end);
            targets.add(h.handler);
        }
        Map<AbstractInsnNode, Grouped> roles = new java.util.IdentityHashMap<>();
        List<AbstractInsnNode> run = new ArrayList<>();
        boolean started = superCall == null;
        for (AbstractInsnNode n = method.instructions.getFirst(); n != null; n = n.getNext()) {
            if (!started) {
                started = n == superCall;
                continue;
            }
            if (groupable(owner, foreign, n, run.isEmpty())) {
                run.add(n);
            } else if (!neutral(n, targets)) {
                assign(run, roles);
                if (groupable(owner, foreign, n, true)) {
                    run.add(n);
                }
            }
        }
        assign(run, roles);
        return roles;
    }

    private static void assign(List<AbstractInsnNode> run, Map<AbstractInsnNode, Grouped> roles) {
        if (run.size() >= 2) {
            for (int i = 0; i < run.size(); i++) {
                roles.put(run.get(i), i == 0 ? Grouped.FIRST : i == run.size() - 1 ? Grouped.LAST : Grouped.IN);
            }
        }
        run.clear();
    }

    /** Whether {@code n} is a plain access that can join a group (as its first access, if {@code first}). */
    private static boolean groupable(ClassRewriter owner, Set<AbstractInsnNode> foreign, AbstractInsnNode n,
            boolean first) {
        if (foreign.contains(n)) {
            return false;
        }
        int op = n.getOpcode();
        if (op == Opcodes.GETFIELD || op == Opcodes.PUTFIELD) {
            FieldInsnNode f = (FieldInsnNode) n;
            return !owner.facts().field(f.owner, f.name).isVolatile() && (first || f.owner.equals(owner.internalName()));
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) {
            return op == Opcodes.AALOAD || !first;
        }
        return op >= Opcodes.IASTORE && op <= Opcodes.SASTORE;
    }

    /**
     * Whether {@code n} can stand between two accesses of a group: it cannot throw, block, call, load a class or be
     * jumped to (locals, constants, stack operations, arithmetic but integer division and remainder, conversions,
     * comparisons, line numbers).
     */
    private static boolean neutral(AbstractInsnNode n, Set<AbstractInsnNode> targets) {
        int op = n.getOpcode();
        switch (n.getType()) {
            case AbstractInsnNode.LINE:
                return true;
            case AbstractInsnNode.LABEL:
                return !targets.contains(n);
            case AbstractInsnNode.VAR_INSN:
                return op != Opcodes.RET;
            case AbstractInsnNode.IINC_INSN:
                return true;
            case AbstractInsnNode.INT_INSN:
                return op == Opcodes.BIPUSH || op == Opcodes.SIPUSH;
            case AbstractInsnNode.LDC_INSN:
                Object c = ((LdcInsnNode) n).cst;
                return c instanceof Number || c instanceof String;
            case AbstractInsnNode.INSN:
                if (op == Opcodes.IDIV || op == Opcodes.LDIV || op == Opcodes.IREM || op == Opcodes.LREM) {
                    return false;
                }
                return op <= Opcodes.DCONST_1 || (op >= Opcodes.POP && op <= Opcodes.DCMPG);
            default:
                return false;
        }
    }
}
