package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.ids.SiteTable;
import org.objectweb.asm.MethodVisitor;
import dev.mmcheck.runtime.Kinds;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
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
 * Rewrites one method (on ASM's tree API, then hands it on): walks its instructions and hands each
 * one that touches memory to the part that rewrites its kind ({@link FieldRewriting},
 * {@link InstructionRewriting}, {@link CallRewriting}; {@link MethodBrackets} for synchronized and atomic
 * methods), which surround it with probe calls from the {@link Probe} table, with an int site id
 * registered in the {@link SiteTable}. Holds what the parts share: the local holding the calling
 * thread's log (fetched once, at method entry), spill locals, the current line, the emitters.
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
    /** The plain field accesses a fence next to them orders, and the mode that makes them ({@link FenceOrdered}). */
    private Map<AbstractInsnNode, String> fenced;
    private int line;
    private int rewritten;
    /** The plain accesses that share one solo window with their neighbours, and where each stands ({@link AccessGroups}). */
    private Map<AbstractInsnNode, AccessGroups.Grouped> grouped = Map.of();
    private final FieldRewriting fields = new FieldRewriting(this);
    private final InstructionRewriting others = new InstructionRewriting(this);
    private final CallRewriting calls = new CallRewriting(this);
    /** The accesses whose field or element the caller chooses (HelperAccesses): their sites are helper sites. */
    private java.util.Set<AbstractInsnNode> helpers = java.util.Set.of();
    /** Calls into code that may be instrumented, in order: each says where it is to what it calls (Probes.callFrom). */
    private final List<MethodInsnNode> plainCalls = new ArrayList<>();
    /** Whether one of them passes arguments: it may point a helper at what it accesses, so it says where it is. */
    private boolean passes;
    /** The accesses that are not the program's, left alone (ForeignAccesses): JaCoCo's probes, synthetic fields. */
    private java.util.Set<AbstractInsnNode> foreign = java.util.Set.of();

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
        fenced = FenceOrdered.modes(instructions); // before any rewriting: the fence and the access side by side
        foreign = ForeignAccesses.of(owner, this);
        helpers = owner.syncOnly() ? java.util.Set.of() : HelperAccesses.of(owner.internalName(), this, calls::addressing);
        boolean isCtor = name.equals("<init>");
        AbstractInsnNode superCall = isCtor ? superCall() : null;
        boolean started = !isCtor;
        threadLocal = nextLocal++;
        boolean atomic = owner.isAtomic(name, this);
        boolean sync = (access & Opcodes.ACC_SYNCHRONIZED) != 0;
        // a fence where the method returns: the JMM freeze of a constructor of a class with final fields (a
        // StoreStore fence), and the end of a class initializer, after which the JVM releases the class's
        // initialization lock (JLS 12.4.2) that every other thread's first use synchronizes with (a full
        // fence: the static final fields it wrote are not logged, so nothing else commits its stores)
        int endFence = isCtor && owner.hasFinalInstanceFields() ? Kinds.STORE_STORE_FENCE
                : name.equals("<clinit>") ? Kinds.FULL_FENCE : -1;

        grouped = AccessGroups.of(owner, this, foreign, superCall);
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
            if (foreign.contains(n)) {
                continue;
            }
            switch (n.getType()) {
                case AbstractInsnNode.FIELD_INSN -> fields.field((FieldInsnNode) n);
                case AbstractInsnNode.INSN -> others.insn(n, endFence);
                case AbstractInsnNode.METHOD_INSN -> {
                    int before = rewritten;
                    calls.call((MethodInsnNode) n);
                    if (rewritten == before && !owner.syncOnly() && mayBeInstrumented((MethodInsnNode) n)) {
                        plainCalls.add((MethodInsnNode) n);
                        lines.put(n, line);
                        passes |= !((MethodInsnNode) n).desc.startsWith("()");
                    }
                }
                default -> { }
            }
        }
        if (rewritten == 0 && !sync && !atomic && !passes) {
            // nothing to do: not even the prologue (a method that calls with no arguments only, a getter or a run(),
            // leaves its callees the call that reached it: it cannot be what points a helper at its target)
            maxLocals = nextLocal - 1;
            return;
        }
        List<TryCatchBlockNode> ownHandlers = new ArrayList<>(tryCatchBlocks);
        InsnList prologue = new InsnList();
        prologue.add(Probe.THREAD_LOG.call());
        prologue.add(new VarInsnNode(Opcodes.ASTORE, threadLocal));
        if (!plainCalls.isEmpty()) {
            callers(prologue, ownHandlers);
        }
        instructions.insert(prologue);
        if (sync || atomic) {
            new MethodBrackets(this).wrapBody(sync, atomic, superCall);
        }
        // the bracketed calls' handlers first, so that they run before the method's own
        tryCatchBlocks.addAll(0, innerHandlers);
        maxLocals = Math.max(maxLocals, nextLocal);
    }

    /**
     * The calling context (docs/report-format.md, "One finding per race"): the thread's log holds the site of the call that
     * reached the method running now (runtime.Probes.callFrom), and every event carries it. This method keeps what
     * it found there on entry (appended to {@code prologue}), puts each call's own site there before the call and
     * its entry value back after it, and at each of its exception handlers (a call may have thrown). Only calls
     * into code that may be instrumented, and not in excluded classes. A method that logs nothing gets the thread's
     * log for it only when it passes arguments to such a call (it may be what points a helper at its target: a
     * {@code record()} calling {@code putInt(1, 5)}).
     */
    private void callers(InsnList prologue, List<TryCatchBlockNode> ownHandlers) {
        int saved = nextLocal++;
        maxLocals = Math.max(maxLocals, nextLocal);
        prologue.add(loadLog());
        prologue.add(Probe.CALLER.call());
        prologue.add(new VarInsnNode(Opcodes.ISTORE, saved));
        for (MethodInsnNode m : plainCalls) {
            InsnList before = new InsnList();
            before.add(loadLog());
            before.add(push(owner.site(name, lineOf(m), bciOf(m))));
            before.add(Probe.CALL_FROM.call());
            instructions.insertBefore(m, before);
            instructions.insert(m, restore(saved));
        }
        java.util.Set<org.objectweb.asm.tree.LabelNode> done = java.util.Collections.newSetFromMap(
                new java.util.IdentityHashMap<>());
        for (TryCatchBlockNode h : ownHandlers) {
            if (done.add(h.handler)) {
                // after the handler's label, its line and its frame: the code the handler runs
                AbstractInsnNode at = h.handler;
                while (at.getNext() != null && at.getNext().getOpcode() < 0) {
                    at = at.getNext();
                }
                instructions.insert(at, restore(saved));
            }
        }
    }

    private InsnList restore(int saved) {
        InsnList code = new InsnList();
        code.add(loadLog());
        code.add(new VarInsnNode(Opcodes.ILOAD, saved));
        code.add(Probe.CALL_FROM.call());
        return code;
    }

    /**
     * Whether call {@code m} may run instrumented code whose accesses want to know where they were called from: not
     * the JDK's, not a constructor (an object under construction is its own).
     */
    private static boolean mayBeInstrumented(MethodInsnNode m) {
        String o = m.owner;
        return !m.name.startsWith("<") && !ForeignAccesses.injected(m.name) && !o.startsWith("[") && !o.startsWith("java/") && !o.startsWith("javax/")
                && !o.startsWith("jdk/") && !o.startsWith("sun/") && !o.startsWith("com/sun/");
    }

    private final Map<AbstractInsnNode, Integer> lines = new java.util.IdentityHashMap<>();

    private int lineOf(AbstractInsnNode n) {
        return lines.getOrDefault(n, 0);
    }

    private int bciOf(AbstractInsnNode n) {
        Integer at = bci.get(n);
        return at == null ? -1 : at;
    }

    /** Where instruction {@code n} stands in a group of plain accesses, or null if it is in none. */
    AccessGroups.Grouped grouped(AbstractInsnNode n) {
        return grouped.get(n);
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

    /** The site id of instruction {@code n}, registered now (its line is the current one). */
    int site(AbstractInsnNode n) {
        return site(n, "");
    }

    /** {@link #site(AbstractInsnNode)} for an access in {@code mode} ({@code Site.mode}: volatile, acquire, opaque). */
    int site(AbstractInsnNode n, String mode) {
        Integer at = bci.get(n);
        return owner.site(name, line, at == null ? -1 : at, mode, helpers.contains(n));
    }

    /** The mode a fence next to plain field access {@code n} gives it ({@code release}, {@code acquire}), or empty. */
    String fencedMode(AbstractInsnNode n) {
        return fenced.getOrDefault(n, "");
    }

    /** Pushes int constant {@code v}. */
    static AbstractInsnNode push(int v) {
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

    /** Loads the thread's log from its local. */
    AbstractInsnNode loadLog() {
        return new VarInsnNode(Opcodes.ALOAD, threadLocal);
    }

    /** One of I, J, F, D, A: how the probes take a value of this type. */
    static char letter(Type t) {
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

    /** The descriptor a probe takes a value of letter {@code letter} as. */
    static String typeOf(char letter) {
        return letter == 'A' ? "Ljava/lang/Object;" : String.valueOf(letter);
    }

    /** Stack slots a value of letter {@code letter} takes. */
    static int size(char letter) {
        return letter == 'J' || letter == 'D' ? 2 : 1;
    }

    /** Duplicates a value of letter {@code letter} on the stack. */
    static AbstractInsnNode dup(char letter) {
        return new InsnNode(size(letter) == 2 ? Opcodes.DUP2 : Opcodes.DUP);
    }

    /** A local for a value of type {@code t} spilled at argument position {@code position}, reused per method. */
    int spill(Type t, int position) {
        String key = t.getSort() + ":" + position;
        Integer slot = spillSlots.get(key);
        if (slot == null) {
            slot = nextLocal;
            nextLocal += t.getSize();
            spillSlots.put(key, slot);
        }
        return slot;
    }

    /**
     * Resolves class {@code internalName} (a class constant, loaded and dropped) before a probe takes a stripe or
     * opens a solo window for the access that follows. The access's first execution would otherwise resolve the
     * class inside the probes, and resolving a class its class loader has not seen yet for this name calls the
     * loader's {@code loadClass}: an instrumented loader's accesses would run nested inside the probes (not logged),
     * and one whose lock another thread holds would block inside a solo window (runtime.Solo). Resolved once, the
     * constant costs nothing in compiled code. The class's own fields need none.
     */
    void resolveFirst(InsnList code, String internalName) {
        if (internalName.startsWith("[") || internalName.equals(owner.internalName())) {
            return;
        }
        code.add(new LdcInsnNode(Type.getObjectType(internalName)));
        code.add(new InsnNode(Opcodes.POP));
    }

    /** {@link #resolveFirst} for every class a signature-polymorphic call's descriptor names (a MethodType constant). */
    void resolveTypesFirst(InsnList code, String descriptor) {
        if (owner.methodTypeConstants()) {
            code.add(new LdcInsnNode(Type.getMethodType(descriptor)));
            code.add(new InsnNode(Opcodes.POP));
        }
    }

    /** The class being rewritten. */
    ClassRewriter owner() {
        return owner;
    }

    /** One more instruction rewritten. */
    void counted() {
        rewritten++;
    }

    /** An exception handler of a bracketed call: placed before the method's own in the table. */
    void handler(TryCatchBlockNode h) {
        innerHandlers.add(h);
    }

    /** Appends the probe that closes a group's window to {@code code} when {@code n} is the group's last access. */
    void endGroupAfter(AbstractInsnNode n, InsnList code) {
        if (grouped(n) == AccessGroups.Grouped.LAST) {
            code.add(loadLog());
            code.add(Probe.END_GROUP.call());
        }
    }

    /** After a load of a value of letter {@code l}: log it and unlock. */
    void loaded(InsnList after, char l, int site) {
        after.add(dup(l));
        after.add(loadLog());
        after.add(push(site));
        after.add(Probe.logLoad(l).call());
    }

    /** Around a store of kind {@code kind}: log before it, unlock after it. */
    void storing(InsnList before, InsnList after, char l, int site, int kind) {
        before.add(dup(l));
        before.add(loadLog());
        before.add(push(site));
        before.add(push(kind));
        before.add(Probe.logStore(l).call());
        after.add(loadLog());
        after.add(Probe.UNLOCK.call());
    }
}
