package dev.mmcheck.agent.rewrite;

import dev.mmcheck.checker.event.SiteModes;
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
 * functions wrapped, atomic/updater/VarHandle/Unsafe accesses bracketed (lock, call, log and unlock,
 * with a handler that unlocks when the call throws), and the creation of accessors recorded.
 */
final class CallRewriting {

    private final MethodRewriter rw;

    CallRewriting(MethodRewriter rw) {
        this.rw = rw;
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
                before.add(MethodRewriter.push(rw.site(m, JdkModel.mode(c, m.name))));
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
                    REFERENCE -> bracket(m, c);
            case UNMODELLED -> unmodelled(m, callee(m));
            case REFLECTIVE -> reflective(m);
            case ALIVE -> ended(m, Probe.ALIVE_CHECKED);
            case STATE -> ended(m, Probe.STATE_CHECKED);
            case TIMED_JOIN -> replace(m, Probe.TIMED_JOIN);
            case TIMED_WAIT -> replace(m, Probe.TIMED_WAIT);
            case UPDATER_NEW, HANDLE_NEW_FIELD, HANDLE_NEW_STATIC, HANDLE_NEW_ARRAY, UNSAFE_OFFSET -> created(m, c);
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
        int site = rw.site(m);
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

    /** An access through an atomic, updater, VarHandle or Unsafe: lock, call, log and unlock (or abandon). */
    void bracket(MethodInsnNode m, JdkModel.Call c) {
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
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
                    reload(before, args, slots);
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
                    reload(before, args, slots);
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
        reload(before, args, slots);
        String mode = JdkModel.mode(c, m.name);
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
            if (JdkModel.returnsWitness(m.name)) {
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
     * Whether the outcome of call {@code m}, a compare-and-set that can fail (JdkModel.canFail), is known after it:
     * a boolean result; a witness (compareAndExchange) whose type is the expected value's (int-like types together).
     * Not when javac gave a VarHandle's compareAndExchange whose result the code drops a void descriptor, nor when the
     * result is cast to another type than the expected value's: those are logged at the success site, outcome unknown
     * (docs/mapping.md, "Access modes").
     */
    static boolean decidable(MethodInsnNode m, JdkModel.Call c) {
        if (!JdkModel.canFail(c, m.name)) {
            return false;
        }
        Type result = Type.getReturnType(m.desc);
        if (!JdkModel.returnsWitness(m.name)) {
            return result.getSort() == Type.BOOLEAN;
        }
        Type[] args = Type.getArgumentTypes(m.desc);
        return result.getSort() != Type.VOID && args.length >= 2
                && MethodRewriter.letter(result) == MethodRewriter.letter(args[args.length - 2]);
    }

    /** Whether the VarHandle of call {@code m} is kept for the probe after it: a decidable compareAndExchange of references. */
    private static boolean keepsHandle(MethodInsnNode m, JdkModel.Call c) {
        return c.treatment() == JdkModel.Treatment.HANDLE && decidable(m, c) && JdkModel.returnsWitness(m.name)
                && MethodRewriter.letter(Type.getReturnType(m.desc)) == 'A';
    }

    static boolean isRef(Type t) {
        return t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
    }

    /** Creation of an updater, VarHandle or field offset: remember what it points at. */
    void created(MethodInsnNode m, JdkModel.Call c) {
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
        reload(before, args, slots);
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
