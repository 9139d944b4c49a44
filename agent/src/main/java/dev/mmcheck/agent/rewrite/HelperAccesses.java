package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Function;

/**
 * The accesses of one method whose field or element its caller chooses: those whose object, array, element
 * index or field offset comes from a parameter other than {@code this}, directly or through arithmetic, a
 * field or element of it, or a call taking it ({@code putInt(int index, int v)} writing {@code data[index]};
 * JCTools' {@code soRefElement(buffer, offset, e)}; {@code set(Node n, int v)} writing {@code n.value}). Their
 * sites are helper sites: a race through one is told apart by the call that reached it (docs/report-format.md,
 * "One finding per race"). An access whose target the method fixes itself ({@code this.head}, {@code buffer[index & mask]}
 * with both from fields) is not one, so that a method called from many places, a queue's {@code offer} from
 * every test, still makes one finding per race. The value stored does not count. Computed on the original
 * instructions, before any rewriting, with ASM's {@link SourceInterpreter}; a method without a parameter
 * besides {@code this}, or too long to be a helper, has none.
 */
final class HelperAccesses {

    /** Methods longer than this (instructions) are not analysed: helpers are short. */
    static final int MAX_INSTRUCTIONS = 1500;
    /** How far back a value is followed. */
    private static final int MAX_DEPTH = 24;

    private final MethodNode method;
    private final Frame<SourceValue>[] frames;
    private final boolean[] parameter;

    private HelperAccesses(MethodNode method, Frame<SourceValue>[] frames, boolean[] parameter) {
        this.method = method;
        this.frames = frames;
        this.parameter = parameter;
    }

    /**
     * The helper accesses of {@code method} of class {@code owner} (internal name); {@code addressing} says, for a
     * call that is an access (an atomic, updater, VarHandle or Unsafe call: JdkModel), which of its operands
     * (0: the receiver of an instance call, then the arguments) say what it accesses, and null for any other call.
     */
    static Set<AbstractInsnNode> of(String owner, MethodNode method, Function<MethodInsnNode, int[]> addressing) {
        boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
        Type[] args = Type.getArgumentTypes(method.desc);
        if (args.length == 0 || method.instructions.size() > MAX_INSTRUCTIONS) {
            return Set.of();
        }
        boolean[] parameter = new boolean[Math.max(method.maxLocals, 1)];
        int slot = isStatic ? 0 : 1;
        for (Type a : args) {
            if (slot < parameter.length) {
                parameter[slot] = true;
            }
            slot += a.getSize();
        }
        Frame<SourceValue>[] frames;
        try {
            frames = new Analyzer<>(new SourceInterpreter()).analyze(owner, method);
        } catch (Exception | LinkageError e) {
            return Set.of(); // code the analyzer cannot follow: no helper accesses, as before there were any
        }
        HelperAccesses h = new HelperAccesses(method, frames, parameter);
        Set<AbstractInsnNode> out = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < method.instructions.size(); i++) {
            AbstractInsnNode n = method.instructions.get(i);
            int[] depths = h.addressingDepths(n, addressing);
            if (depths == null || frames[i] == null) {
                continue;
            }
            for (int d : depths) {
                if (h.fromParameter(h.operand(i, d), 0, Collections.newSetFromMap(new IdentityHashMap<>()))) {
                    out.add(n);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The stack depths (0: the top) of the operands of {@code n} that say what it accesses, or null when it is no
     * access.
     */
    private int[] addressingDepths(AbstractInsnNode n, Function<MethodInsnNode, int[]> addressing) {
        int op = n.getOpcode();
        if (op == Opcodes.GETFIELD) {
            return new int[] {0}; // the object
        }
        if (op == Opcodes.PUTFIELD) {
            return new int[] {1}; // the object, under the value
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) {
            return new int[] {0, 1}; // the index and the array
        }
        if (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
            return new int[] {1, 2}; // under the value
        }
        if (n instanceof MethodInsnNode m) {
            int[] positions = addressing.apply(m);
            if (positions == null) {
                return null;
            }
            int operands = Type.getArgumentTypes(m.desc).length + (op == Opcodes.INVOKESTATIC ? 0 : 1);
            int[] depths = new int[positions.length];
            for (int k = 0; k < positions.length; k++) {
                depths[k] = operands - 1 - positions[k];
            }
            return depths;
        }
        return null;
    }

    /** The value {@code depth} entries below the top of the stack before instruction {@code i}, or null. */
    private SourceValue operand(int i, int depth) {
        Frame<SourceValue> f = frames[i];
        if (f == null || depth < 0 || depth >= f.getStackSize()) {
            return null;
        }
        return f.getStack(f.getStackSize() - 1 - depth);
    }

    /** Whether value {@code v} may come from a parameter other than {@code this}. */
    private boolean fromParameter(SourceValue v, int depth, Set<AbstractInsnNode> seen) {
        if (v == null || depth > MAX_DEPTH) {
            return false;
        }
        for (AbstractInsnNode src : v.insns) {
            if (seen.add(src) && produces(src, depth, seen)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the value instruction {@code src} produced may come from a parameter other than {@code this}. */
    private boolean produces(AbstractInsnNode src, int depth, Set<AbstractInsnNode> seen) {
        int i = method.instructions.indexOf(src);
        Frame<SourceValue> f = frames[i];
        if (f == null) {
            return false;
        }
        if (src instanceof VarInsnNode load && src.getOpcode() <= Opcodes.ALOAD) {
            return local(f, load.var, depth, seen);
        }
        if (src instanceof IincInsnNode inc) {
            return local(f, inc.var, depth, seen);
        }
        if (src instanceof VarInsnNode) {
            return fromParameter(operand(i, 0), depth + 1, seen); // a store: the value it stored
        }
        int op = src.getOpcode();
        if (op == Opcodes.GETSTATIC || op == Opcodes.NEW || op == Opcodes.ACONST_NULL || op == Opcodes.LDC
                || (op >= Opcodes.ICONST_M1 && op <= Opcodes.SIPUSH) || op == Opcodes.INVOKEDYNAMIC) {
            return false;
        }
        // anything computed from its operands: arithmetic, conversions, casts, a field or element of them, a
        // call's result (calcElementOffset(index)), a copy made by DUP
        int operands = operandsOf(src);
        for (int d = 0; d < operands; d++) {
            if (fromParameter(operand(i, d), depth + 1, seen)) {
                return true;
            }
        }
        return false;
    }

    /** Whether local {@code var} before the frame {@code f}'s instruction may hold a parameter other than {@code this}. */
    private boolean local(Frame<SourceValue> f, int var, int depth, Set<AbstractInsnNode> seen) {
        if (var >= f.getLocals()) {
            return false;
        }
        SourceValue v = f.getLocal(var);
        if (v.insns.isEmpty()) {
            return var < parameter.length && parameter[var]; // as the method was entered
        }
        return fromParameter(v, depth + 1, seen);
    }

    /** How many stack values instruction {@code n} takes (those it may compute its result from). */
    private static int operandsOf(AbstractInsnNode n) {
        if (n instanceof MethodInsnNode m) {
            return Type.getArgumentTypes(m.desc).length + (n.getOpcode() == Opcodes.INVOKESTATIC ? 0 : 1);
        }
        int op = n.getOpcode();
        if (op == Opcodes.GETFIELD || op == Opcodes.CHECKCAST || op == Opcodes.ARRAYLENGTH
                || op == Opcodes.INEG || op == Opcodes.LNEG || op == Opcodes.FNEG || op == Opcodes.DNEG
                || (op >= Opcodes.I2L && op <= Opcodes.I2S) || op == Opcodes.DUP || op == Opcodes.DUP_X1
                || op == Opcodes.DUP_X2 || op == Opcodes.DUP2 || op == Opcodes.DUP2_X1 || op == Opcodes.DUP2_X2) {
            return 1;
        }
        if ((op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) || (op >= Opcodes.IADD && op <= Opcodes.DREM)
                || (op >= Opcodes.ISHL && op <= Opcodes.LXOR) || op == Opcodes.SWAP) {
            return 2;
        }
        return 0;
    }
}
