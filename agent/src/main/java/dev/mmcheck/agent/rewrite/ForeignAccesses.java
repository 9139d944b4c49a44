package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The accesses of one method that are not the program's and are left alone (docs/agent.md, "Synthetic members and
 * other agents"): those to another agent's fields (JaCoCo's {@code $jacocoData}), to plain synthetic fields
 * (unless synthetic=true), and the element accesses of the arrays read from them, JaCoCo's probe array above all:
 * every method JaCoCo instruments starts with {@code invokestatic $jacocoInit()[Z; astore n} (on class files of Java 11
 * and later {@code ldc $jacocoData; checkcast [Z; astore n}, a dynamic constant whose bootstrap method is
 * {@code $jacocoInit}) and marks each probe with {@code aload n; push i; iconst_1; bastore}. Left alone in either order of the agents: when JaCoCo transformed
 * the class first these instructions are in the bytes the rewriter reads; when it transforms after mmcheck, the
 * rewriter never sees them. The bodies of synthetic methods are the program's (lambda bodies, accessors) and are
 * rewritten, but for another agent's ({@link #injected(int, String)}).
 */
final class ForeignAccesses {

    /** The prefix of the members JaCoCo adds to a class ({@code $jacocoData}, {@code $jacocoInit}, {@code $jacocoAccess}). */
    static final String JACOCO = "$jacoco";

    private ForeignAccesses() {
    }

    /** Whether a member named {@code name} was injected by another agent. */
    static boolean injected(String name) {
        return name.startsWith(JACOCO);
    }

    /** Whether method {@code name} with flags {@code access} was injected by another agent: its body is not rewritten. */
    static boolean injected(int access, String name) {
        return (access & Opcodes.ACC_SYNTHETIC) != 0 && injected(name);
    }

    /** The instructions of {@code method} of the class {@code owner} rewrites that are left alone. */
    static Set<AbstractInsnNode> of(ClassRewriter owner, MethodNode method) {
        Set<AbstractInsnNode> out = Collections.newSetFromMap(new IdentityHashMap<>());
        for (AbstractInsnNode n = method.instructions.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof FieldInsnNode f && owner.leavesField(f.owner, f.name)) {
                out.add(n);
            }
        }
        Set<Integer> locals = foreignLocals(method, out);
        for (AbstractInsnNode n = method.instructions.getFirst(); n != null; n = n.getNext()) {
            int op = n.getOpcode();
            boolean load = op >= Opcodes.IALOAD && op <= Opcodes.SALOAD;
            boolean store = op >= Opcodes.IASTORE && op <= Opcodes.SASTORE;
            if (!load && !store) {
                continue;
            }
            // the array reference, below the index (and the value stored), each pushed by one instruction
            AbstractInsnNode array = n;
            for (int k = store ? 2 : 1; k >= 0 && array != null; k--) {
                array = previous(array);
                if (k > 0 && !pushesOne(array)) {
                    array = null;
                }
            }
            if (array == null) {
                continue;
            }
            if (out.contains(array) && array.getOpcode() != Opcodes.PUTSTATIC && array.getOpcode() != Opcodes.PUTFIELD
                    || array.getOpcode() == Opcodes.ALOAD && locals.contains(((VarInsnNode) array).var)) {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * The locals that hold only arrays of another agent or of synthetic fields: every store to them takes the result
     * of a call to another agent's method ({@code $jacocoInit}) or its dynamic constant ({@code $jacocoData}), or a
     * synthetic field's value left alone (read, or
     * duplicated and stored as JaCoCo does in an interface's class initializer), through a cast at most.
     */
    private static Set<Integer> foreignLocals(MethodNode method, Set<AbstractInsnNode> leftAlone) {
        Set<Integer> foreign = new HashSet<>();
        Set<Integer> other = new HashSet<>();
        for (AbstractInsnNode n = method.instructions.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof VarInsnNode v && v.getOpcode() == Opcodes.ASTORE) {
                (fromForeign(previous(n), leftAlone) ? foreign : other).add(v.var);
            }
        }
        foreign.removeAll(other);
        return foreign;
    }

    /** Whether the value instruction {@code n} leaves on the stack is another agent's array or a synthetic field's. */
    private static boolean fromForeign(AbstractInsnNode n, Set<AbstractInsnNode> leftAlone) {
        if (n != null && n.getOpcode() == Opcodes.CHECKCAST) {
            n = previous(n);
        }
        if (n instanceof LdcInsnNode l && l.cst instanceof ConstantDynamic c) {
            // JaCoCo on class files of Java 11 and later: ldc $jacocoData, a dynamic constant made by $jacocoInit
            return injected(c.getName()) || injected(c.getBootstrapMethod().getName());
        }
        if (n instanceof MethodInsnNode m) {
            return m.getOpcode() == Opcodes.INVOKESTATIC && injected(m.name)
                    && Type.getReturnType(m.desc).getSort() == Type.ARRAY;
        }
        if (n instanceof FieldInsnNode f && leftAlone.contains(f)) {
            if (f.getOpcode() == Opcodes.GETSTATIC || f.getOpcode() == Opcodes.GETFIELD) {
                return true;
            }
            // dup; putstatic $jacocoData; astore n: the value stored in the field is the one stored in the local
            return f.getOpcode() == Opcodes.PUTSTATIC && previous(f) != null && previous(f).getOpcode() == Opcodes.DUP;
        }
        return false;
    }

    /** Whether {@code n} pushes one value and pops none: a constant or a local's value. */
    private static boolean pushesOne(AbstractInsnNode n) {
        if (n == null) {
            return false;
        }
        int op = n.getOpcode();
        return (op >= Opcodes.ACONST_NULL && op <= Opcodes.LDC) || (op >= Opcodes.ILOAD && op <= Opcodes.ALOAD);
    }

    /** The instruction before {@code n}, over line numbers and frames (never over a label: it may be jumped to). */
    private static AbstractInsnNode previous(AbstractInsnNode n) {
        AbstractInsnNode p = n.getPrevious();
        while (p != null && (p.getType() == AbstractInsnNode.LINE || p.getType() == AbstractInsnNode.FRAME)) {
            p = p.getPrevious();
        }
        return p;
    }
}
