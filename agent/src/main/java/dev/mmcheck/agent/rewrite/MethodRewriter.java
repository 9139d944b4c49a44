package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.Options;
import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.runtime.Kinds;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites one method (on ASM's tree API, then hands it on): every field, static and array access,
 * monitor operation and modelled JDK call gets its probes ({@link dev.mmcheck.runtime.Probes}), with
 * an int site id registered in the {@link SiteTable}. The calling thread's log is fetched once, at
 * method entry, into a new local variable.
 *
 * <p>Code before a constructor's super() call is left alone (its receiver is not yet an object).
 * Bracketed calls get an exception handler of their own, placed before the method's handlers in the
 * exception table so that it runs first, and placed inline so that its rethrow is caught by whatever
 * caught the call before. Synchronized and atomic methods get a catch-all handler last in the table.
 */
final class MethodRewriter extends MethodNode {

    private final ClassRewriter owner;
    private final MethodVisitor next;

    private int threadLocal = -1;
    private int nextLocal;
    private final Map<String, Integer> spillSlots = new HashMap<>();
    private final List<TryCatchBlockNode> innerHandlers = new ArrayList<>();
    private Map<AbstractInsnNode, Integer> bci;
    private int line;
    private int rewritten;

    MethodRewriter(ClassRewriter owner, int access, String name, String desc, String signature, String[] exceptions,
            MethodVisitor next) {
        super(Opcodes.ASM9, access, name, desc, signature, exceptions);
        this.owner = owner;
        this.next = next;
    }

    @Override
    public void visitEnd() {
        super.visitEnd();
        try {
            rewrite();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot instrument " + owner.className() + "." + name + desc + ": " + e, e);
        }
        accept(next);
    }

    private void rewrite() {
        nextLocal = maxLocals;
        bci = Bytecode.offsets(instructions);
        boolean isCtor = name.equals("<init>");
        AbstractInsnNode superCall = isCtor ? superCall() : null;
        boolean started = !isCtor;
        threadLocal = nextLocal++;
        boolean atomic = owner.isAtomic(name, this);
        boolean sync = (access & Opcodes.ACC_SYNCHRONIZED) != 0;
        boolean freeze = isCtor && owner.hasFinalInstanceFields();

        for (AbstractInsnNode n : instructions.toArray()) {
            if (n instanceof LineNumberNode) {
                line = ((LineNumberNode) n).line;
                continue;
            }
            if (!started) {
                if (n == superCall) {
                    started = true;
                }
                continue;
            }
            switch (n.getType()) {
                case AbstractInsnNode.FIELD_INSN -> field((FieldInsnNode) n);
                case AbstractInsnNode.INSN -> insn(n, freeze);
                case AbstractInsnNode.METHOD_INSN -> call((MethodInsnNode) n);
                default -> { }
            }
        }
        if (rewritten == 0 && !sync && !atomic) {
            maxLocals = nextLocal - 1; // nothing to do: not even the prologue
            return;
        }
        InsnList prologue = new InsnList();
        prologue.add(Probe.THREAD_LOG.call());
        prologue.add(new VarInsnNode(Opcodes.ASTORE, threadLocal));
        instructions.insert(prologue);
        if (sync || atomic) {
            wrapBody(sync, atomic, superCall);
        }
        // the bracketed calls' handlers first, so that they run before the method's own
        tryCatchBlocks.addAll(0, innerHandlers);
        maxLocals = Math.max(maxLocals, nextLocal);
    }

    /** The INVOKESPECIAL that initializes {@code this} in a constructor. */
    private AbstractInsnNode superCall() {
        int pending = 0;
        for (AbstractInsnNode n = instructions.getFirst(); n != null; n = n.getNext()) {
            if (n.getOpcode() == Opcodes.NEW) {
                pending++;
            } else if (n.getOpcode() == Opcodes.INVOKESPECIAL && ((MethodInsnNode) n).name.equals("<init>")) {
                if (pending == 0) {
                    return n;
                }
                pending--;
            }
        }
        return instructions.getLast();
    }

    private int site(AbstractInsnNode n) {
        Integer at = bci.get(n);
        return owner.site(name, line, at == null ? -1 : at);
    }

    private static AbstractInsnNode push(int v) {
        if (v >= -1 && v <= 5) {
            return new InsnNode(Opcodes.ICONST_0 + v);
        }
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            return new org.objectweb.asm.tree.IntInsnNode(Opcodes.BIPUSH, v);
        }
        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            return new org.objectweb.asm.tree.IntInsnNode(Opcodes.SIPUSH, v);
        }
        return new LdcInsnNode(v);
    }

    private AbstractInsnNode loadLog() {
        return new VarInsnNode(Opcodes.ALOAD, threadLocal);
    }

    /** One of I, J, F, D, A: how the probes take a value of this type. */
    private static char letter(Type t) {
        switch (t.getSort()) {
            case Type.LONG:
                return 'J';
            case Type.FLOAT:
                return 'F';
            case Type.DOUBLE:
                return 'D';
            case Type.OBJECT:
            case Type.ARRAY:
                return 'A';
            default:
                return 'I';
        }
    }

    private static String typeOf(char letter) {
        return letter == 'A' ? "Ljava/lang/Object;" : String.valueOf(letter);
    }

    private static int size(char letter) {
        return letter == 'J' || letter == 'D' ? 2 : 1;
    }

    private static AbstractInsnNode dup(char letter) {
        return new InsnNode(size(letter) == 2 ? Opcodes.DUP2 : Opcodes.DUP);
    }

    private int spill(Type t, int position) {
        String key = t.getSort() + ":" + position;
        Integer slot = spillSlots.get(key);
        if (slot == null) {
            slot = nextLocal;
            nextLocal += t.getSize();
            spillSlots.put(key, slot);
        }
        return slot;
    }

    // ------------------------------------------------------------------------------------ fields

    private void field(FieldInsnNode f) {
        TypeFacts.FieldFacts facts = owner.facts().field(f.owner, f.name);
        if (owner.syncOnly() && !facts.isVolatile()) {
            return; // an excluded class: its volatile accesses are synchronization, its plain ones data
        }
        int field = owner.fields().id(facts.declaringClass(), f.name);
        Type type = Type.getType(f.desc);
        char l = letter(type);
        int site = site(f);
        InsnList before = new InsnList();
        InsnList after = new InsnList();
        switch (f.getOpcode()) {
            case Opcodes.GETFIELD -> {
                before.add(new InsnNode(Opcodes.DUP));
                before.add(loadLog());
                before.add(push(field));
                before.add(Probe.LOCK_FIELD.call());
                loaded(after, l, site);
            }
            case Opcodes.GETSTATIC -> {
                pretouch(before, f, type);
                before.add(loadLog());
                before.add(push(field));
                before.add(Probe.LOCK_STATIC.call());
                loaded(after, l, site);
            }
            case Opcodes.PUTFIELD -> {
                int v = spill(type, 0);
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ISTORE), v));
                before.add(new InsnNode(Opcodes.DUP));
                before.add(loadLog());
                before.add(push(field));
                before.add(Probe.LOCK_FIELD.call());
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ILOAD), v));
                storing(before, after, l, site, facts.isVolatile() ? Kinds.VOLATILE_STORE : Kinds.STORE);
            }
            case Opcodes.PUTSTATIC -> {
                int v = spill(type, 0);
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ISTORE), v));
                pretouch(before, f, type);
                before.add(loadLog());
                before.add(push(field));
                before.add(Probe.LOCK_STATIC.call());
                before.add(new VarInsnNode(type.getOpcode(Opcodes.ILOAD), v));
                storing(before, after, l, site, facts.isVolatile() ? Kinds.VOLATILE_STORE : Kinds.STORE);
            }
            default -> {
                return;
            }
        }
        instructions.insertBefore(f, before);
        instructions.insert(f, after);
        rewritten++;
    }

    /**
     * Reads the static once before taking its stripe, so that the initialization it may trigger (of
     * another class, or of an interface that declares it, which initializing this class does not do)
     * runs first and not inside the probes.
     */
    private void pretouch(InsnList code, FieldInsnNode f, Type type) {
        code.add(new FieldInsnNode(Opcodes.GETSTATIC, f.owner, f.name, f.desc));
        code.add(new InsnNode(type.getSize() == 2 ? Opcodes.POP2 : Opcodes.POP));
    }

    private void loaded(InsnList after, char l, int site) {
        after.add(dup(l));
        after.add(loadLog());
        after.add(push(site));
        after.add(Probe.logLoad(l).call());
    }

    private void storing(InsnList before, InsnList after, char l, int site, int kind) {
        before.add(dup(l));
        before.add(loadLog());
        before.add(push(site));
        before.add(push(kind));
        before.add(Probe.logStore(l).call());
        after.add(loadLog());
        after.add(Probe.UNLOCK.call());
    }

    // ----------------------------------------------------------------- arrays, monitors, returns

    private void insn(AbstractInsnNode n, boolean freeze) {
        int op = n.getOpcode();
        boolean data = (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) || (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE);
        if (data && owner.syncOnly()) {
            return; // an excluded class's array elements are data
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD && op != Opcodes.AALOAD) {
            // primitive element loads: the probe loads, so that it can skip the stripe for a repeated load
            int k = op - Opcodes.IALOAD;
            char suffix = "IJFD?BCS".charAt(k);
            InsnList call = new InsnList();
            call.add(loadLog());
            call.add(push(site(n)));
            call.add(Probe.loadElement(suffix).call());
            instructions.insertBefore(n, call);
            instructions.remove(n);
            rewritten++;
        } else if (op == Opcodes.AALOAD) {
            char l = arrayLetter(op - Opcodes.IALOAD);
            int site = site(n);
            InsnList before = new InsnList();
            before.add(new InsnNode(Opcodes.DUP2));
            before.add(loadLog());
            before.add(Probe.LOCK_ELEMENT.call());
            InsnList after = new InsnList();
            loaded(after, l, site);
            instructions.insertBefore(n, before);
            instructions.insert(n, after);
            rewritten++;
        } else if (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
            char l = arrayLetter(op - Opcodes.IASTORE);
            Type type = l == 'A' ? Type.getType(Object.class) : Type.getType(typeOf(l));
            int site = site(n);
            int v = spill(type, 0);
            InsnList before = new InsnList();
            InsnList after = new InsnList();
            before.add(new VarInsnNode(type.getOpcode(Opcodes.ISTORE), v));
            before.add(new InsnNode(Opcodes.DUP2));
            if (op == Opcodes.AASTORE) {
                before.add(new VarInsnNode(Opcodes.ALOAD, v));
                before.add(loadLog());
                before.add(Probe.LOCK_ELEMENT_STORE.call());
            } else {
                before.add(loadLog());
                before.add(Probe.LOCK_ELEMENT.call());
            }
            before.add(new VarInsnNode(type.getOpcode(Opcodes.ILOAD), v));
            storing(before, after, l, site, Kinds.STORE);
            instructions.insertBefore(n, before);
            instructions.insert(n, after);
            rewritten++;
        } else if (op == Opcodes.MONITORENTER) {
            int site = site(n);
            instructions.insertBefore(n, new InsnNode(Opcodes.DUP));
            InsnList after = new InsnList();
            after.add(loadLog());
            after.add(push(site));
            after.add(Probe.LOG_MONITOR_ENTER.call());
            instructions.insert(n, after);
            rewritten++;
        } else if (op == Opcodes.MONITOREXIT) {
            int site = site(n);
            InsnList before = new InsnList();
            before.add(new InsnNode(Opcodes.DUP));
            before.add(loadLog());
            before.add(push(site));
            before.add(Probe.LOG_MONITOR_EXIT.call());
            instructions.insertBefore(n, before);
            rewritten++;
        } else if (op == Opcodes.RETURN && freeze) {
            // the JMM freeze of final fields at the end of the constructor: a StoreStore fence
            InsnList before = new InsnList();
            before.add(loadLog());
            before.add(push(site(n)));
            before.add(push(Kinds.STORE_STORE_FENCE));
            before.add(Probe.LOG_FENCE.call());
            instructions.insertBefore(n, before);
            rewritten++;
        }
    }

    private static char arrayLetter(int k) {
        // IALOAD, LALOAD, FALOAD, DALOAD, AALOAD, BALOAD, CALOAD, SALOAD (and the stores, in the same order)
        return "IJFDAIII".charAt(k);
    }

    // ------------------------------------------------------------------------------------- calls

    private void call(MethodInsnNode m) {
        String declaring = m.getOpcode() == Opcodes.INVOKESTATIC || m.name.equals("<init>") ? null
                : owner.facts().inheritedFromJdk(m.owner, m.name, m.desc);
        // an inherited JDK method (a subclass of AtomicReference calling lazySet) is modelled as the JDK's
        String callee = declaring != null ? declaring : m.owner;
        JdkModel.Call c = JdkModel.classify(m.getOpcode(), callee, m.name, m.desc, owner.facts().isThread(m.owner));
        switch (c.treatment()) {
            case NONE -> {
                return;
            }
            case START -> replace(m, Probe.START_THREAD);
            case JOIN -> replace(m, Probe.join(Type.getArgumentTypes(m.desc).length));
            case WAIT -> replace(m, Probe.waitOn(Type.getArgumentTypes(m.desc).length));
            case FENCE -> {
                InsnList before = new InsnList();
                before.add(loadLog());
                before.add(push(site(m)));
                before.add(push(c.kind()));
                before.add(Probe.LOG_FENCE.call());
                instructions.insertBefore(m, before);
            }
            case JUC -> juc(m, false);
            case JUC_FUNCTIONS -> {
                if (!wrapsAny(m.desc)) {
                    return;
                }
                juc(m, true);
            }
            case MAYBE_JUC -> maybeJuc(m);
            case ATOMIC, ATOMIC_ARRAY, UPDATER, HANDLE, UNSAFE -> bracket(m, c);
            case UPDATER_NEW, HANDLE_NEW_FIELD, HANDLE_NEW_STATIC, HANDLE_NEW_ARRAY, UNSAFE_OFFSET -> created(m, c);
            default -> {
                return;
            }
        }
        rewritten++;
    }

    private void replace(MethodInsnNode m, Probe probe) {
        int site = site(m);
        InsnList code = new InsnList();
        code.add(loadLog());
        code.add(push(site));
        code.add(probe.call());
        instructions.insertBefore(m, code);
        instructions.remove(m);
    }

    /** Stores the call's arguments into locals (last on top of the stack first); returns their slots. */
    private int[] spillArguments(InsnList code, Type[] args) {
        int[] slots = new int[args.length];
        for (int i = args.length - 1; i >= 0; i--) {
            slots[i] = spill(args[i], i + 1);
            code.add(new VarInsnNode(args[i].getOpcode(Opcodes.ISTORE), slots[i]));
        }
        return slots;
    }

    private static void reload(InsnList code, Type[] args, int[] slots) {
        for (int i = 0; i < args.length; i++) {
            code.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
        }
    }

    private void juc(MethodInsnNode m, boolean constructor) {
        int site = site(m);
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        if (!constructor) {
            before.add(loadLog());
            before.add(push(site));
            before.add(Probe.LOG_JUC.call());
        }
        boolean wraps = false;
        for (Type a : args) {
            wraps |= Probe.wrapper(a.getDescriptor()) != null;
        }
        if (wraps) {
            int[] slots = spillArguments(before, args);
            for (int i = 0; i < args.length; i++) {
                before.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
                Probe w = Probe.wrapper(args[i].getDescriptor());
                if (w != null) {
                    before.add(push(site));
                    before.add(w.call());
                }
            }
        }
        instructions.insertBefore(m, before);
        if (!constructor) {
            InsnList after = new InsnList();
            after.add(loadLog());
            after.add(push(site));
            after.add(Probe.LOG_JUC.call());
            instructions.insert(m, after);
        }
    }

    private static boolean wrapsAny(String desc) {
        for (Type a : Type.getArgumentTypes(desc)) {
            if (Probe.wrapper(a.getDescriptor()) != null) {
                return true;
            }
        }
        return false;
    }

    private void maybeJuc(MethodInsnNode m) {
        int site = site(m);
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
        int receiver = spill(Type.getType(Object.class), 0);
        before.add(new InsnNode(Opcodes.DUP));
        before.add(new VarInsnNode(Opcodes.ASTORE, receiver));
        before.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        before.add(loadLog());
        before.add(push(site));
        before.add(Probe.LOG_JUC_IF.call());
        for (int i = 0; i < args.length; i++) {
            before.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
            Probe w = Probe.wrapper(args[i].getDescriptor());
            if (w != null) {
                // wrapped only if the receiver turns out to synchronize (a ConcurrentHashMap's computeIfAbsent...)
                before.add(new VarInsnNode(Opcodes.ALOAD, receiver));
                before.add(new InsnNode(Opcodes.SWAP));
                before.add(new LdcInsnNode(w.method)); // SyncTasks.wrapIf dispatches on the wrapper's name
                before.add(push(site));
                before.add(Probe.WRAP_IF.call());
                before.add(new org.objectweb.asm.tree.TypeInsnNode(Opcodes.CHECKCAST, args[i].getInternalName()));
            }
        }
        InsnList after = new InsnList();
        after.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        after.add(loadLog());
        after.add(push(site));
        after.add(Probe.LOG_JUC_IF.call());
        instructions.insertBefore(m, before);
        instructions.insert(m, after);
    }

    /** An access through an atomic, updater, VarHandle or Unsafe: lock, call, log and unlock (or abandon). */
    private void bracket(MethodInsnNode m, JdkModel.Call c) {
        Type[] args = Type.getArgumentTypes(m.desc);
        InsnList before = new InsnList();
        int[] slots = spillArguments(before, args);
        switch (c.treatment()) {
            case ATOMIC -> {
                before.add(new InsnNode(Opcodes.DUP));
                before.add(loadLog());
                before.add(Probe.LOCK_ATOMIC.call());
            }
            case ATOMIC_ARRAY -> {
                if (args.length == 0 || args[0].getSort() != Type.INT) {
                    reload(before, args, slots);
                    instructions.insertBefore(m, before);
                    return;
                }
                before.add(new InsnNode(Opcodes.DUP));
                before.add(new VarInsnNode(Opcodes.ILOAD, slots[0]));
                before.add(loadLog());
                before.add(Probe.LOCK_ATOMIC_ELEMENT.call());
            }
            case UPDATER -> {
                if (args.length == 0 || args[0].getSort() != Type.OBJECT) {
                    reload(before, args, slots);
                    instructions.insertBefore(m, before);
                    return;
                }
                before.add(new InsnNode(Opcodes.DUP));
                before.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
                before.add(loadLog());
                before.add(Probe.LOCK_UPDATER.call());
            }
            case HANDLE -> {
                int k = c.coordinates();
                boolean ok = (k == 0) || (k == 1 && isRef(args[0]))
                        || (k == 2 && isRef(args[0]) && args[1].getSort() == Type.INT);
                if (!ok) {
                    reload(before, args, slots);
                    instructions.insertBefore(m, before);
                    return;
                }
                before.add(new InsnNode(Opcodes.DUP));
                before.add(k >= 1 ? new VarInsnNode(Opcodes.ALOAD, slots[0]) : new InsnNode(Opcodes.ACONST_NULL));
                before.add(k == 2 ? new VarInsnNode(Opcodes.ILOAD, slots[1]) : push(-1));
                before.add(push(k));
                before.add(loadLog());
                before.add(Probe.LOCK_HANDLE.call());
            }
            case UNSAFE -> {
                before.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));
                before.add(new VarInsnNode(Opcodes.LLOAD, slots[1]));
                before.add(loadLog());
                before.add(Probe.LOCK_UNSAFE.call());
            }
            default -> throw new IllegalArgumentException(c.treatment().name());
        }
        if (c.muting()) {
            before.add(loadLog());
            before.add(Probe.MUTE.call());
        }
        reload(before, args, slots);
        int site = site(m);
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        LabelNode done = new LabelNode();
        before.add(start);
        InsnList after = new InsnList();
        after.add(end);
        after.add(loadLog());
        after.add(push(site));
        after.add(push(c.kind()));
        after.add((c.muting() ? Probe.LOG_CALL_UNMUTE : Probe.LOG_CALL).call());
        after.add(new JumpInsnNode(Opcodes.GOTO, done));
        after.add(handler);
        after.add(loadLog());
        after.add((c.muting() ? Probe.UNLOCK_UNMUTE : Probe.UNLOCK).call());
        after.add(new InsnNode(Opcodes.ATHROW));
        after.add(done);
        instructions.insertBefore(m, before);
        instructions.insert(m, after);
        innerHandlers.add(new TryCatchBlockNode(start, end, handler, null));
    }

    private static boolean isRef(Type t) {
        return t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
    }

    /** Creation of an updater, VarHandle or field offset: remember what it points at. */
    private void created(MethodInsnNode m, JdkModel.Call c) {
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
                after.add(push(c.treatment() == JdkModel.Treatment.HANDLE_NEW_STATIC ? 1 : 0));
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
        instructions.insertBefore(m, before);
        instructions.insert(m, after);
    }

    // ------------------------------------------------------------------ synchronized and atomic methods

    /**
     * Entry and exit events of a synchronized method (the monitor) and of an atomic method (the
     * transaction), on every return and, through a catch-all handler last in the table, on exceptions.
     */
    private void wrapBody(boolean sync, boolean atomic, AbstractInsnNode superCall) {
        int site = owner.site(name, firstLine(), 0);
        InsnList enter = new InsnList();
        if (atomic) {
            enter.add(loadLog());
            enter.add(push(site));
            enter.add(Probe.TX_BEGIN.call());
        }
        if (sync) {
            monitor(enter);
            enter.add(loadLog());
            enter.add(push(site));
            enter.add(Probe.LOG_MONITOR_ENTER.call());
        }
        LabelNode start = new LabelNode();
        enter.add(start);
        // after the prologue (and, in a constructor, after the super() call)
        AbstractInsnNode anchor = superCall != null ? superCall : instructions.get(1);
        instructions.insert(anchor, enter);
        boolean afterStart = false;
        for (AbstractInsnNode n : instructions.toArray()) {
            afterStart |= n == start;
            int op = n.getOpcode();
            if (afterStart && op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                instructions.insertBefore(n, exit(sync, atomic, site));
            }
        }
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        instructions.add(end);
        instructions.add(handler);
        instructions.add(exit(sync, atomic, site));
        instructions.add(new InsnNode(Opcodes.ATHROW));
        tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }

    private InsnList exit(boolean sync, boolean atomic, int site) {
        InsnList exit = new InsnList();
        if (sync) {
            monitor(exit);
            exit.add(loadLog());
            exit.add(push(site));
            exit.add(Probe.LOG_MONITOR_EXIT.call());
        }
        if (atomic) {
            exit.add(loadLog());
            exit.add(push(site));
            exit.add(Probe.TX_END.call());
        }
        return exit;
    }

    private void monitor(InsnList code) {
        if ((access & Opcodes.ACC_STATIC) != 0) {
            code.add(new LdcInsnNode(Type.getObjectType(owner.internalName())));
        } else {
            code.add(new VarInsnNode(Opcodes.ALOAD, 0));
        }
    }

    private int firstLine() {
        for (AbstractInsnNode n = instructions.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof LineNumberNode) {
                return ((LineNumberNode) n).line;
            }
        }
        return 0;
    }
}
