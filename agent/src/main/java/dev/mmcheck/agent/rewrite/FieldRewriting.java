package dev.mmcheck.agent.rewrite;

import dev.mmcheck.runtime.Kinds;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The probes around field accesses (GETFIELD, PUTFIELD, GETSTATIC, PUTSTATIC) of one method: lock
 * before, log after a load, log before a store and unlock after it. An excluded class's plain fields
 * are data and left alone; its volatile ones are synchronization and rewritten.
 */
final class FieldRewriting {

    private final MethodRewriter rw;

    FieldRewriting(MethodRewriter rw) {
        this.rw = rw;
    }

    /** Rewrites field instruction {@code f}. */
    void field(FieldInsnNode f) {
        TypeFacts.FieldFacts facts = rw.owner().facts().field(f.owner, f.name);
        if (rw.owner().syncOnly() && !facts.isVolatile()) {
            return; // an excluded class: its volatile accesses are synchronization, its plain ones data
        }
        int field = rw.owner().fields().id(facts.declaringClass(), f.name);
        if (facts.isVolatile()) {
            rw.owner().fields().markVolatile(field); // sample=R: every access to it is logged on every object
        } else if (f.getOpcode() == Opcodes.GETFIELD || f.getOpcode() == Opcodes.PUTFIELD) {
            rw.owner().fields().markPlain(field); // a plain probe for it exists: some accesses may go unlogged
        }
        Type type = Type.getType(f.desc);
        char l = MethodRewriter.letter(type);
        boolean load = f.getOpcode() == Opcodes.GETFIELD || f.getOpcode() == Opcodes.GETSTATIC;
        // a volatile store's kind says its mode; a plain access may be ordered by a fence next to it (FenceOrdered);
        // a read of a final instance field shows the constructor's value (JLS 17.5): the jmm analysis does not check it
        String mode = facts.isVolatile() ? (load ? "volatile" : "") : rw.fencedMode(f);
        if (f.getOpcode() == Opcodes.GETFIELD && facts.isFinalInstance() && mode.isEmpty()) {
            mode = "final";
        }
        int site = rw.site(f, mode);
        InsnList before = new InsnList();
        InsnList after = new InsnList();
        switch (f.getOpcode()) {
            case Opcodes.GETFIELD -> {
                rw.resolveFirst(before, f.owner);
                before.add(new InsnNode(Opcodes.DUP));
                before.add(rw.loadLog());
                before.add(MethodRewriter.push(field));
                before.add((facts.isVolatile() ? Probe.LOCK_FIELD : lockPlain(f)).call());
                rw.loaded(after, l, site);
                rw.endGroupAfter(f, after);
            }
            case Opcodes.GETSTATIC -> {
                pretouch(before, f, type);
                before.add(rw.loadLog());
                before.add(MethodRewriter.push(field));
                // a static final: written only by <clinit>, so each thread's first read is the one that orders
                // it after the initialization (and commits what the initializer buffered); later reads repeat it
                before.add((facts.isStaticFinal() ? Probe.LOCK_STATIC_FINAL : Probe.LOCK_STATIC).call());
                rw.loaded(after, l, site);
            }
            case Opcodes.PUTFIELD -> {
                int v = rw.spill(type, 0);
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ISTORE), v));
                rw.resolveFirst(before, f.owner);
                before.add(new InsnNode(Opcodes.DUP));
                before.add(rw.loadLog());
                before.add(MethodRewriter.push(field));
                before.add((facts.isVolatile() ? Probe.LOCK_VOLATILE_STORE : lockPlain(f)).call());
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ILOAD), v));
                rw.storing(before, after, l, site, facts.isVolatile() ? Kinds.VOLATILE_STORE : Kinds.STORE);
                rw.endGroupAfter(f, after);
            }
            case Opcodes.PUTSTATIC -> {
                int v = rw.spill(type, 0);
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ISTORE), v));
                pretouch(before, f, type);
                before.add(rw.loadLog());
                before.add(MethodRewriter.push(field));
                before.add((facts.isVolatile() ? Probe.LOCK_STATIC_VOLATILE_STORE : Probe.LOCK_STATIC).call());
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ILOAD), v));
                rw.storing(before, after, l, site, facts.isVolatile() ? Kinds.VOLATILE_STORE : Kinds.STORE);
            }
            default -> {
                return;
            }
        }
        rw.instructions.insertBefore(f, before);
        rw.instructions.insert(f, after);
        rw.counted();
    }

    /** The lock probe of plain field access {@code f}, by where it stands in a group of accesses (MethodRewriter.groups). */
    private Probe lockPlain(FieldInsnNode f) {
        AccessGroups.Grouped g = rw.grouped(f);
        return g == null ? Probe.LOCK_PLAIN_FIELD : g == AccessGroups.Grouped.FIRST ? Probe.LOCK_PLAIN_FIELD_FIRST
                : Probe.LOCK_PLAIN_FIELD_IN;
    }

    /**
     * Reads the static once before taking its stripe, so that the initialization it may trigger (of
     * another class, or of an interface that declares it, which initializing this class does not do)
     * runs first and not inside the probes.
     */
    void pretouch(InsnList code, FieldInsnNode f, Type type) {
        code.add(new FieldInsnNode(Opcodes.GETSTATIC, f.owner, f.name, f.desc));
        code.add(new InsnNode(type.getSize() == 2 ? Opcodes.POP2 : Opcodes.POP));
    }

}
