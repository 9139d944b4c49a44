package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The entry and exit events of a synchronized method (its monitor) and of an atomic method (its
 * transaction), on every return and, through a catch-all handler last in the table, on exceptions.
 */
final class MethodBrackets {

    private final MethodRewriter rw;

    MethodBrackets(MethodRewriter rw) {
        this.rw = rw;
    }

    /**
     * Entry and exit events of a synchronized method (the monitor) and of an atomic method (the
     * transaction), on every return and, through a catch-all handler last in the table, on exceptions.
     */
    void wrapBody(boolean sync, boolean atomic, AbstractInsnNode superCall) {
        int site = rw.owner().site(rw.name, firstLine(), 0);
        InsnList enter = new InsnList();
        if (atomic) {
            enter.add(rw.loadLog());
            enter.add(MethodRewriter.push(site));
            enter.add(Probe.TX_BEGIN.call());
        }
        if (sync) {
            monitor(enter);
            enter.add(rw.loadLog());
            enter.add(MethodRewriter.push(site));
            enter.add(Probe.LOG_MONITOR_ENTER.call());
        }
        LabelNode start = new LabelNode();
        enter.add(start);
        // after the prologue (and, in a constructor, after the super() call)
        AbstractInsnNode anchor = superCall != null ? superCall : rw.instructions.get(1);
        rw.instructions.insert(anchor, enter);
        boolean afterStart = false;
        for (AbstractInsnNode n : rw.instructions.toArray()) {
            afterStart |= n == start;
            int op = n.getOpcode();
            if (afterStart && op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                rw.instructions.insertBefore(n, exit(sync, atomic, site));
            }
        }
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        rw.instructions.add(end);
        rw.instructions.add(handler);
        rw.instructions.add(exit(sync, atomic, site));
        rw.instructions.add(new InsnNode(Opcodes.ATHROW));
        rw.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }

    InsnList exit(boolean sync, boolean atomic, int site) {
        InsnList exit = new InsnList();
        if (sync) {
            monitor(exit);
            exit.add(rw.loadLog());
            exit.add(MethodRewriter.push(site));
            exit.add(Probe.LOG_MONITOR_EXIT.call());
        }
        if (atomic) {
            exit.add(rw.loadLog());
            exit.add(MethodRewriter.push(site));
            exit.add(Probe.TX_END.call());
        }
        return exit;
    }

    void monitor(InsnList code) {
        if ((rw.access & Opcodes.ACC_STATIC) != 0) {
            code.add(new LdcInsnNode(Type.getObjectType(rw.owner().internalName())));
        } else {
            code.add(new VarInsnNode(Opcodes.ALOAD, 0));
        }
    }

    int firstLine() {
        for (AbstractInsnNode n = rw.instructions.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof LineNumberNode) {
                return ((LineNumberNode) n).line;
            }
        }
        return 0;
    }
}
