package dev.mmcheck.agent.rewrite;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The probes around calls into the JDK that the model knows (JdkModel), of one method: thread
 * start/join and wait replaced, fences logged, java.util.concurrent calls bracketed with their
 * functions wrapped; the calls that are accesses (atomic/updater/VarHandle/Unsafe, interrupts, referents) and
 * the creation of accessors go to {@link AccessCalls}.
 */
final class CallRewriting {

    private final MethodRewriter rw;
    /** The calls that are accesses (atomics, updaters, VarHandles, Unsafe...) and the creation of accessors. */
    private final AccessCalls accesses;

    CallRewriting(MethodRewriter rw) {
        this.rw = rw;
        this.accesses = new AccessCalls(rw, this);
    }

    /** How JdkModel classifies call {@code m}. */
    JdkModel.Call classify(MethodInsnNode m) {
        return JdkModel.classify(m.getOpcode(), callee(m), m.name, m.desc, rw.owner().facts().isThread(m.owner));
    }

    /** The class whose method call {@code m} runs: an inherited JDK method (a subclass of AtomicReference calling lazySet) is the JDK's. */
    private String callee(MethodInsnNode m) {
        String declaring = m.getOpcode() == Opcodes.INVOKESTATIC || m.name.equals("<init>") ? null
                : rw.owner().facts().inheritedFromJdk(m.owner, m.name, m.desc);
        return declaring != null ? declaring : m.owner;
    }

    /**
     * For a call that is an access (an atomic, updater, VarHandle or Unsafe call), which of its operands say what
     * it accesses (0: the receiver, then the arguments): the atomic; the atomic array and the index; the updater's
     * object; a VarHandle's coordinates; Unsafe's object and offset. Null for any other call (HelperAccesses).
     */
    int[] addressing(MethodInsnNode m) {
        JdkModel.Call c = classify(m);
        return switch (c.treatment()) {
            case ATOMIC -> new int[] {0};
            case ATOMIC_ARRAY -> new int[] {0, 1};
            case UPDATER -> new int[] {1};
            case HANDLE -> c.coordinates() == 2 ? new int[] {1, 2} : c.coordinates() == 1 ? new int[] {1} : new int[0];
            case UNSAFE -> new int[] {1, 2};
            default -> null;
        };
    }

    /** Rewrites call {@code m}, as JdkModel classifies it. */
    void call(MethodInsnNode m) {
        JdkModel.Call c = classify(m);
        switch (c.treatment()) {
            case NONE -> {
                return;
            }
            case START -> replace(m, Probe.START_THREAD);
            case START_BUILT -> replace(m, Probe.START_BUILT);
            case START_VIRTUAL -> replace(m, Probe.START_VIRTUAL);
            case JOIN -> replace(m, Probe.join(Type.getArgumentTypes(m.desc).length));
            case WAIT -> replace(m, Probe.waitOn(Type.getArgumentTypes(m.desc).length));
            case FENCE -> {
                InsnList before = new InsnList();
                before.add(rw.loadLog());
                before.add(MethodRewriter.push(rw.site(m, AtomicModel.mode(c, m.name))));
                before.add(MethodRewriter.push(c.kind()));
                before.add(Probe.LOG_FENCE.call());
                rw.instructions.insertBefore(m, before);
            }
            case JUC, PARK, UNPARK -> juc(m, c.treatment());
            case JUC_FIRST_CALL -> {
                InsnList after = new InsnList(); // one event after the call: nothing of the application's runs inside it
                after.add(rw.loadLog());
                after.add(MethodRewriter.push(rw.site(m)));
                after.add(Probe.LOG_JUC_FIRST.call());
                rw.instructions.insert(m, after);
            }
            case JUC_FUNCTIONS -> {
                if (!wrapsAny(m.desc)) {
                    return;
                }
                juc(m, c.treatment());
            }
            case MAYBE_JUC -> maybeJuc(m);
            case JUC_READ -> mapRead(m, true);
            case MAYBE_JUC_READ -> mapRead(m, false);
            case ATOMIC, ATOMIC_HOLDER, ATOMIC_ARRAY, UPDATER, HANDLE, UNSAFE, INTERRUPT, INTERRUPT_READ, INTERRUPTED,
                    REFERENCE -> accesses.bracket(m, c);
            case UNMODELLED -> unmodelled(m, callee(m));
            case REFLECTIVE -> reflective(m);
            case ALIVE -> ended(m, Probe.ALIVE_CHECKED);
            case STATE -> ended(m, Probe.STATE_CHECKED);
            case TIMED_JOIN -> replace(m, Probe.TIMED_JOIN);
            case TIMED_WAIT -> replace(m, Probe.TIMED_WAIT);
            case UPDATER_NEW, HANDLE_NEW_FIELD, HANDLE_NEW_STATIC, HANDLE_NEW_ARRAY, UNSAFE_OFFSET -> accesses.created(m, c);
            default -> {
                return;
            }
        }
        rw.counted();
    }

    /**
     * A JDK call that may synchronize and is not modelled (JdkModel.Treatment.UNMODELLED): a full fence of the calling
     * thread before it, counted under the callee's name ({@code Owner.method}) for the run's note.
     */
    void unmodelled(MethodInsnNode m, String callee) {
        InsnList before = new InsnList();
        before.add(rw.loadLog());
        before.add(MethodRewriter.push(rw.site(m)));
        before.add(MethodRewriter.push(dev.mmcheck.runtime.Unmodelled.id(calleeName(callee, m.name))));
        before.add(Probe.UNMODELLED_CALL.call());
        rw.instructions.insertBefore(m, before);
    }

    /**
     * A reflective field access (JdkModel.Treatment.REFLECTIVE): the Field kept, and a probe before the call that
     * fences, counted, when the field is volatile (a synchronization mmcheck does not see).
     */
    void reflective(MethodInsnNode m) {
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
        before.add(new InsnNode(Opcodes.DUP));
        before.add(rw.loadLog());
        before.add(MethodRewriter.push(rw.site(m)));
        before.add(MethodRewriter.push(dev.mmcheck.runtime.Unmodelled.id(calleeName(m.owner, m.name) + " (volatile)")));
        before.add(Probe.REFLECTIVE_ACCESS.call());
        reload(before, args, slots);
        rw.instructions.insertBefore(m, before);
    }

    /** {@code java/lang/ref/ReferenceQueue} and {@code poll}: {@code ReferenceQueue.poll}, nested classes with dots. */
    static String calleeName(String owner, String name) {
        return owner.substring(owner.lastIndexOf('/') + 1).replace('$', '.') + "." + name;
    }

    /**
     * Thread.isAlive() or getState(), which tell that a thread has ended: the receiver kept, and after the call a
     * probe that logs a join when the answer is false or TERMINATED.
     */
    void ended(MethodInsnNode m, Probe probe) {
        int receiver = rw.spill(Type.getType(Object.class), 0);
        InsnList before = new InsnList();
        before.add(new InsnNode(Opcodes.DUP));
        before.add(new VarInsnNode(Opcodes.ASTORE, receiver));
        InsnList after = new InsnList();
        after.add(new InsnNode(Opcodes.DUP));
        after.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        after.add(new TypeInsnNode(Opcodes.CHECKCAST, "java/lang/Thread"));
        after.add(rw.loadLog());
        after.add(MethodRewriter.push(rw.site(m)));
        after.add(probe.call());
        rw.instructions.insertBefore(m, before);
        rw.instructions.insert(m, after);
    }

    void replace(MethodInsnNode m, Probe probe) {
        int site = rw.site(m);
        InsnList code = new InsnList();
        code.add(rw.loadLog());
        code.add(MethodRewriter.push(site));
        code.add(probe.call());
        rw.instructions.insertBefore(m, code);
        rw.instructions.remove(m);
    }

    /** Stores the call's arguments into locals (last on top of the stack first); returns their slots. */
    int[] spillArguments(InsnList code, Type[] args) {
        int[] slots = new int[args.length];
        for (int i = args.length - 1; i >= 0; i--) {
            slots[i] = rw.spill(args[i], i + 1);
            code.add(new VarInsnNode(args[i].getOpcode(Opcodes.ISTORE), slots[i]));
        }
        return slots;
    }

    static void reload(InsnList code, Type[] args, int[] slots) {
        for (int i = 0; i < args.length; i++) {
            code.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
        }
    }

    /**
     * A call into java.util.concurrent ({@code treatment} JUC, PARK or UNPARK), or a constructor of it that is handed
     * functions (JUC_FUNCTIONS): the functions wrapped with the receiver they are handed to (null for a constructor or
     * a static call: SyncTasks), and around a call the interlocked events on the address of the receiver's
     * synchronization, before it and after it, also when it throws (a future's get that throws ExecutionException
     * still synchronized with the task; an await that throws BrokenBarrierException with the barrier). The receiver
     * of LockSupport.park is the calling thread, of unpark the thread it unparks; of any other static call none.
     */
    void juc(MethodInsnNode m, JdkModel.Treatment treatment) {
        boolean constructor = treatment == JdkModel.Treatment.JUC_FUNCTIONS;
        int site = rw.site(m, JdkModel.jucMode(m.owner, m.name));
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
        int receiver = -1;
        if (!constructor) {
            receiver = rw.spill(Type.getType(Object.class), 0);
            if (m.getOpcode() != Opcodes.INVOKESTATIC) {
                before.add(new InsnNode(Opcodes.DUP));
            } else if (treatment == JdkModel.Treatment.PARK) {
                before.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Thread", "currentThread",
                        "()Ljava/lang/Thread;", false));
            } else if (treatment == JdkModel.Treatment.UNPARK && args.length == 1) {
                before.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
            } else {
                before.add(new InsnNode(Opcodes.ACONST_NULL));
            }
            before.add(new VarInsnNode(Opcodes.ASTORE, receiver));
            before.add(new VarInsnNode(Opcodes.ALOAD, receiver));
            before.add(rw.loadLog());
            before.add(MethodRewriter.push(site));
            before.add(Probe.LOG_JUC_BEFORE.call());
        }
        for (int i = 0; i < args.length; i++) {
            before.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
            Probe w = Probe.wrapper(args[i].getDescriptor());
            if (w != null) {
                before.add(receiver >= 0 && m.getOpcode() != Opcodes.INVOKESTATIC
                        ? new VarInsnNode(Opcodes.ALOAD, receiver) : new InsnNode(Opcodes.ACONST_NULL));
                before.add(MethodRewriter.push(site));
                before.add(w.call());
            }
        }
        if (constructor) {
            rw.instructions.insertBefore(m, before);
            return;
        }
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        LabelNode done = new LabelNode();
        before.add(start);
        InsnList after = new InsnList();
        after.add(end);
        after.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        after.add(rw.loadLog());
        after.add(MethodRewriter.push(site));
        after.add(Probe.LOG_JUC_AFTER.call());
        after.add(new JumpInsnNode(Opcodes.GOTO, done));
        after.add(handler);
        after.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        after.add(rw.loadLog());
        after.add(MethodRewriter.push(site));
        after.add(Probe.LOG_JUC_AFTER.call());
        after.add(new InsnNode(Opcodes.ATHROW));
        after.add(done);
        rw.instructions.insertBefore(m, before);
        rw.instructions.insert(m, after);
        rw.handler(new TryCatchBlockNode(start, end, handler, null));
    }

    static boolean wrapsAny(String desc) {
        for (Type a : Type.getArgumentTypes(desc)) {
            if (Probe.wrapper(a.getDescriptor()) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * With the arguments spilled and the receiver on top of the stack: keeps the receiver in a local (its slot is
     * returned, for the probe after the call) and pushes (receiver, log, site) for a probe before the call.
     */
    private int keepReceiver(InsnList before, int site) {
        int receiver = rw.spill(Type.getType(Object.class), 0);
        before.add(new InsnNode(Opcodes.DUP));
        before.add(new VarInsnNode(Opcodes.ASTORE, receiver));
        before.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        before.add(rw.loadLog());
        before.add(MethodRewriter.push(site));
        return receiver;
    }

    void maybeJuc(MethodInsnNode m) {
        int site = rw.site(m);
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
        int receiver = keepReceiver(before, site);
        before.add(Probe.LOG_JUC_IF.call());
        for (int i = 0; i < args.length; i++) {
            before.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
            Probe w = Probe.wrapper(args[i].getDescriptor());
            if (w != null) {
                // wrapped only if the receiver turns out to synchronize (a ConcurrentHashMap's computeIfAbsent...)
                before.add(new VarInsnNode(Opcodes.ALOAD, receiver));
                before.add(new InsnNode(Opcodes.SWAP));
                before.add(new LdcInsnNode(w.method)); // SyncTasks.wrapIf dispatches on the wrapper's name
                before.add(MethodRewriter.push(site));
                before.add(Probe.WRAP_IF.call());
                before.add(new TypeInsnNode(Opcodes.CHECKCAST, args[i].getInternalName()));
            }
        }
        InsnList after = new InsnList();
        after.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        after.add(rw.loadLog());
        after.add(MethodRewriter.push(site));
        after.add(Probe.LOG_JUC_IF.call());
        rw.instructions.insertBefore(m, before);
        rw.instructions.insert(m, after);
    }

    /**
     * A call that only reads a map (JdkModel.MAP_READS; no function arguments): the receiver is kept, and the
     * probes before and after decide by its class (Probes.logMapReadBefore, logMapReadAfter); {@code jucOwner}:
     * the call is through ConcurrentHashMap or ConcurrentMap, JUC whatever the receiver, else through java.util.Map.
     */
    void mapRead(MethodInsnNode m, boolean jucOwner) {
        int site = rw.site(m);
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
        int receiver = keepReceiver(before, site);
        before.add(MethodRewriter.push(jucOwner ? 1 : 0));
        before.add(Probe.LOG_MAP_READ_BEFORE.call());
        reload(before, args, slots);
        InsnList after = new InsnList();
        after.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        after.add(rw.loadLog());
        after.add(MethodRewriter.push(site));
        after.add(MethodRewriter.push(jucOwner ? 1 : 0));
        after.add(Probe.LOG_MAP_READ_AFTER.call());
        rw.instructions.insertBefore(m, before);
        rw.instructions.insert(m, after);
    }
}
