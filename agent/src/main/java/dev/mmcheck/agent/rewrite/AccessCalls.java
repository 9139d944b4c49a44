package dev.mmcheck.agent.rewrite;

import dev.mmcheck.checker.event.SiteModes;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The calls of one method that are accesses, for {@link CallRewriting}: through an atomic, field updater, VarHandle or
 * Unsafe (as {@link AtomicModel} gives their kind and mode), a thread's interrupt status or a reference's referent,
 * each bracketed (lock, call, log and unlock, with a handler that unlocks when the call throws); and the calls that
 * create an updater, VarHandle or field offset, whose target is recorded.
 */
final class AccessCalls {

    private final MethodRewriter rw;
    private final CallRewriting calls;

    AccessCalls(MethodRewriter rw, CallRewriting calls) {
        this.rw = rw;
        this.calls = calls;
    }

    /** An access through an atomic, updater, VarHandle or Unsafe: lock, call, log and unlock (or abandon). */
    void bracket(MethodInsnNode m, JdkModel.Call c) {
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = calls.spillArguments(before, args);
        rw.resolveFirst(before, m.owner); // not inside the probes: resolving may run a class loader's code
        if (c.treatment() == JdkModel.Treatment.HANDLE) {
            rw.resolveTypesFirst(before, m.desc); // a VarHandle call site's first linkage resolves its descriptor's classes
        }
        if (c.kind() != dev.mmcheck.runtime.Kinds.LOAD && dev.mmcheck.runtime.Sampling.on()) {
            // under sampling (configured before any class is instrumented) its flush ticket must be counted
            // before the call can make its store visible; a full run takes no tickets and gets no probe
            before.add(rw.loadLog());
            before.add(Probe.BRACKET_WRITES.call());
        }
        // an atomic, updater, VarHandle or Unsafe access in any mode that runs no user function (nothing in it can
        // block): a solo period leaves it out
        boolean solo = !c.muting();
        switch (c.treatment()) {
            case ATOMIC, ATOMIC_HOLDER -> {
                before.add(new InsnNode(Opcodes.DUP));
                before.add(rw.loadLog());
                before.add((solo ? Probe.LOCK_ATOMIC_UNLESS_SOLO : Probe.LOCK_ATOMIC).call());
            }
            case ATOMIC_ARRAY -> {
                if (args.length == 0 || args[0].getSort() != Type.INT) {
                    CallRewriting.reload(before, args, slots);
                    rw.instructions.insertBefore(m, before);
                    return;
                }
                before.add(new InsnNode(Opcodes.DUP));
                before.add(new VarInsnNode(Opcodes.ILOAD, slots[0]));
                before.add(rw.loadLog());
                before.add((solo ? Probe.LOCK_ATOMIC_ELEMENT_UNLESS_SOLO : Probe.LOCK_ATOMIC_ELEMENT).call());
            }
            case UPDATER -> {
                if (args.length == 0 || args[0].getSort() != Type.OBJECT) {
                    CallRewriting.reload(before, args, slots);
                    rw.instructions.insertBefore(m, before);
                    return;
                }
                before.add(new InsnNode(Opcodes.DUP));
                before.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
                before.add(rw.loadLog());
                before.add((solo ? Probe.LOCK_UPDATER_UNLESS_SOLO : Probe.LOCK_UPDATER).call());
            }
            case HANDLE -> {
                int k = c.coordinates();
                boolean ok = (k == 0) || (k == 1 && isRef(args[0]))
                        || (k == 2 && isRef(args[0]) && args[1].getSort() == Type.INT);
                // a shape the probes do not model still calls the probe, which counts the access as unlogged
                int shape = (ok ? k : dev.mmcheck.runtime.Probes.HANDLE_UNMODELLED)
                        | (rw.owner().syncOnly() ? dev.mmcheck.runtime.Probes.HANDLE_IN_EXCLUDED : 0);
                if (keepsHandle(m, c)) {
                    // the handle, for the probe after a compareAndExchange of references (its variable's type)
                    before.add(new InsnNode(Opcodes.DUP));
                    before.add(new VarInsnNode(Opcodes.ASTORE, rw.spill(Type.getType(Object.class), 0)));
                }
                before.add(new InsnNode(Opcodes.DUP));
                before.add(ok && k >= 1 ? new VarInsnNode(Opcodes.ALOAD, slots[0]) : new InsnNode(Opcodes.ACONST_NULL));
                before.add(ok && k == 2 ? new VarInsnNode(Opcodes.ILOAD, slots[1]) : MethodRewriter.push(-1));
                before.add(MethodRewriter.push(shape));
                before.add(rw.loadLog());
                before.add((solo ? Probe.LOCK_HANDLE_UNLESS_SOLO : Probe.LOCK_HANDLE).call());
            }
            case UNSAFE -> {
                before.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
                before.add(new VarInsnNode(Opcodes.LLOAD, slots[1]));
                before.add(rw.loadLog());
                before.add((solo ? Probe.LOCK_UNSAFE_UNLESS_SOLO : Probe.LOCK_UNSAFE).call());
            }
            case INTERRUPT, INTERRUPT_READ -> {
                before.add(new InsnNode(Opcodes.DUP));
                before.add(rw.loadLog());
                before.add(Probe.LOCK_INTERRUPT.call());
            }
            case INTERRUPTED -> {
                before.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Thread", "currentThread",
                        "()Ljava/lang/Thread;", false));
                before.add(rw.loadLog());
                before.add(Probe.LOCK_INTERRUPT.call());
            }
            case REFERENCE -> {
                before.add(new InsnNode(Opcodes.DUP));
                before.add(MethodRewriter.push(c.coordinates()));
                before.add(rw.loadLog());
                before.add(Probe.LOCK_REFERENT.call());
            }
            default -> throw new IllegalArgumentException(c.treatment().name());
        }
        if (c.muting()) {
            before.add(rw.loadLog());
            before.add(Probe.MUTE.call());
        }
        CallRewriting.reload(before, args, slots);
        String mode = AtomicModel.mode(c, m.name);
        int site = rw.site(m, mode);
        // a compare-and-set that can fail, when its result tells: a second site of the same instruction, for failures
        int failedSite = decidable(m, c) ? rw.site(m, SiteModes.failed(mode)) : -1;
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        LabelNode done = new LabelNode();
        before.add(start);
        InsnList after = new InsnList();
        after.add(end);
        if (c.treatment() == JdkModel.Treatment.INTERRUPTED) {
            after.add(new InsnNode(Opcodes.DUP)); // what it returned decides: a load, or a load and a clear
            after.add(rw.loadLog());
            after.add(MethodRewriter.push(site));
            after.add(MethodRewriter.push(rw.site(m, SiteModes.VOLATILE))); // the status read alone: a volatile load
            after.add(Probe.LOG_INTERRUPTED.call());
        } else if (failedSite >= 0) {
            if (c.muting()) {
                after.add(rw.loadLog());
                after.add(Probe.UNMUTE.call());
            }
            if (AtomicModel.returnsWitness(m.name)) {
                // the witness is the expected value when it succeeded (the expected value: the last argument but one)
                char l = MethodRewriter.letter(Type.getReturnType(m.desc));
                after.add(MethodRewriter.dup(l));
                after.add(new VarInsnNode(args[args.length - 2].getOpcode(Opcodes.ILOAD), slots[args.length - 2]));
                if (l == 'A') {
                    after.add(keepsHandle(m, c) ? new VarInsnNode(Opcodes.ALOAD, rw.spill(Type.getType(Object.class), 0))
                            : new InsnNode(Opcodes.ACONST_NULL));
                }
                after.add(rw.loadLog());
                after.add(MethodRewriter.push(site));
                after.add(MethodRewriter.push(failedSite));
                after.add(Probe.logCas(l).call());
            } else {
                after.add(new InsnNode(Opcodes.DUP)); // whether it succeeded
                after.add(rw.loadLog());
                after.add(MethodRewriter.push(site));
                after.add(MethodRewriter.push(failedSite));
                after.add(Probe.LOG_CAS.call());
            }
        } else {
            after.add(rw.loadLog());
            after.add(MethodRewriter.push(site));
            after.add(MethodRewriter.push(c.kind()));
            after.add((c.muting() ? Probe.LOG_CALL_UNMUTE : Probe.LOG_CALL).call());
        }
        after.add(new JumpInsnNode(Opcodes.GOTO, done));
        after.add(handler);
        after.add(rw.loadLog());
        after.add((c.muting() ? Probe.UNLOCK_UNMUTE : Probe.UNLOCK).call());
        after.add(new InsnNode(Opcodes.ATHROW));
        after.add(done);
        if (c.treatment() == JdkModel.Treatment.REFERENCE && m.name.equals("enqueue")) {
            // the cleared reference then goes to its queue, under the queue's lock: not modelled, a full fence
            after.add(rw.loadLog());
            after.add(MethodRewriter.push(rw.site(m)));
            after.add(MethodRewriter.push(dev.mmcheck.runtime.Unmodelled.id("Reference.enqueue")));
            after.add(Probe.UNMODELLED_CALL.call());
        }
        if (c.treatment() == JdkModel.Treatment.ATOMIC_HOLDER) {
            // the JDK stored the stamp or mark into the application's holder array: that store, as the thread's own
            after.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
            after.add(rw.loadLog());
            after.add(MethodRewriter.push(rw.site(m)));
            after.add(Probe.HOLDER_STORED.call());
        }
        rw.instructions.insertBefore(m, before);
        rw.instructions.insert(m, after);
        rw.handler(new TryCatchBlockNode(start, end, handler, null));
    }

    /**
     * Whether the outcome of call {@code m}, a compare-and-set that can fail (AtomicModel.canFail), is known after it:
     * a boolean result; a witness (compareAndExchange) whose type is the expected value's (int-like types together).
     * Not when javac gave a VarHandle's compareAndExchange whose result the code drops a void descriptor, nor when the
     * result is cast to another type than the expected value's: those are logged at the success site, outcome unknown
     * (docs/mapping.md, "Access modes").
     */
    static boolean decidable(MethodInsnNode m, JdkModel.Call c) {
        if (!AtomicModel.canFail(c, m.name)) {
            return false;
        }
        Type result = Type.getReturnType(m.desc);
        if (!AtomicModel.returnsWitness(m.name)) {
            return result.getSort() == Type.BOOLEAN;
        }
        Type[] args = Type.getArgumentTypes(m.desc);
        return result.getSort() != Type.VOID && args.length >= 2
                && MethodRewriter.letter(result) == MethodRewriter.letter(args[args.length - 2]);
    }

    /** Whether the VarHandle of call {@code m} is kept for the probe after it: a decidable compareAndExchange of references. */
    private static boolean keepsHandle(MethodInsnNode m, JdkModel.Call c) {
        return c.treatment() == JdkModel.Treatment.HANDLE && decidable(m, c) && AtomicModel.returnsWitness(m.name)
                && MethodRewriter.letter(Type.getReturnType(m.desc)) == 'A';
    }

    static boolean isRef(Type t) {
        return t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
    }

    /** Creation of an updater, VarHandle or field offset: remember what it points at. */
    void created(MethodInsnNode m, JdkModel.Call c) {
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = calls.spillArguments(before, args);
        CallRewriting.reload(before, args, slots);
        InsnList after = new InsnList();
        switch (c.treatment()) {
            case UPDATER_NEW -> {
                after.add(new InsnNode(Opcodes.DUP));
                after.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
                after.add(new VarInsnNode(Opcodes.ALOAD, slots[args.length - 1]));
                after.add(Probe.UPDATER_CREATED.call());
            }
            case HANDLE_NEW_FIELD, HANDLE_NEW_STATIC -> {
                after.add(new InsnNode(Opcodes.DUP));
                after.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
                after.add(new VarInsnNode(Opcodes.ALOAD, slots[1]));
                after.add(MethodRewriter.push(c.treatment() == JdkModel.Treatment.HANDLE_NEW_STATIC ? 1 : 0));
                after.add(Probe.FIELD_HANDLE_CREATED.call());
            }
            case HANDLE_NEW_ARRAY -> {
                after.add(new InsnNode(Opcodes.DUP));
                after.add(Probe.ARRAY_HANDLE_CREATED.call());
            }
            case UNSAFE_OFFSET -> {
                after.add(new InsnNode(Opcodes.DUP2));
                after.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
                after.add(Probe.OFFSET_CREATED.call());
            }
            default -> throw new IllegalArgumentException(c.treatment().name());
        }
        rw.instructions.insertBefore(m, before);
        rw.instructions.insert(m, after);
    }
}
