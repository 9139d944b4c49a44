package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AnnotationNode;

import java.util.List;

/**
 * Rewrites one class: hands each concrete method to a {@link MethodRewriter}, knows the class's
 * name, source file and whether it declares final instance fields (whose constructors end with the
 * JMM freeze), and registers the class's sites. Not thread-safe: one per class transformation.
 */
public final class ClassRewriter extends ClassVisitor {

    /** Where the rewriter registers ids and what it asks about other classes. */
    public interface Context {
        /** The field ids. */
        FieldTable fields();

        /** The site table. */
        SiteTable sites();

        /** Whether method {@code method} of {@code className} was declared atomic by option. */
        boolean atomicByOption(String className, String method);

        /** Whether atomic methods are transactions (false when no serializability check can run). */
        boolean transactions();

        /** Whether the plain accesses to synthetic fields are instrumented too (synthetic=true). */
        default boolean syntheticFields() {
            return false;
        }

        /** The context of these tables, this atomic-by-option test and this answer on transactions. */
        static Context of(FieldTable fields, SiteTable sites, java.util.function.BiPredicate<String, String> atomic,
                boolean transactions) {
            return of(fields, sites, atomic, transactions, false);
        }

        /** As above; {@code syntheticFields}: synthetic=true. */
        static Context of(FieldTable fields, SiteTable sites, java.util.function.BiPredicate<String, String> atomic,
                boolean transactions, boolean syntheticFields) {
            record Of(FieldTable fields, SiteTable sites, java.util.function.BiPredicate<String, String> atomic,
                    boolean transactions, boolean syntheticFields) implements Context {
                @Override
                public boolean atomicByOption(String className, String method) {
                    return atomic.test(className, method);
                }
            }
            return new Of(fields, sites, atomic, transactions, syntheticFields);
        }
    }

    private final Context context;
    private final TypeFacts facts;
    private final boolean syncOnly;
    /** The internal name of the class the probes are called through (ProbeBridge), or null to call them directly. */
    private final String bridge;
    private String internalName;
    private String className;
    private String sourceFile = "";
    private boolean finalInstanceFields;
    private boolean tooOld;
    /** The class file's major version. */
    private int version;
    /** The plain synthetic fields the class declares (fields come before methods in a class file). */
    private final java.util.Set<String> syntheticFields = new java.util.HashSet<>();

    /** Rewrites everything: {@code ClassRewriter(next, context, facts, false)}. */
    ClassRewriter(ClassVisitor next, Context context, TypeFacts facts) {
        this(next, context, facts, false);
    }

    /**
     * A rewriter of one class; {@code syncOnly} for an excluded class, whose synchronization alone is
     * logged (thread start/join, monitors, volatile fields, atomics and other JDK synchronization, fences),
     * never its plain data accesses.
     */
    ClassRewriter(ClassVisitor next, Context context, TypeFacts facts, boolean syncOnly) {
        this(next, context, facts, syncOnly, null);
    }

    /** As above; {@code bridge}, when not null, names the class its probes are called through (ProbeBridge). */
    ClassRewriter(ClassVisitor next, Context context, TypeFacts facts, boolean syncOnly, String bridge) {
        super(Opcodes.ASM9, next);
        this.context = context;
        this.facts = facts;
        this.syncOnly = syncOnly;
        this.bridge = bridge;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
            String[] interfaces) {
        this.internalName = name;
        this.className = name.replace('/', '.');
        // class files before Java 5 cannot load class constants: left as they are (and counted)
        this.tooOld = (version & 0xFFFF) < Opcodes.V1_5;
        this.version = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public void visitSource(String source, String debug) {
        if (source != null) {
            sourceFile = source;
        }
        super.visitSource(source, debug);
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        if ((access & Opcodes.ACC_FINAL) != 0 && (access & Opcodes.ACC_STATIC) == 0) {
            finalInstanceFields = true;
        }
        if ((access & Opcodes.ACC_SYNTHETIC) != 0 && (access & Opcodes.ACC_VOLATILE) == 0) {
            syntheticFields.add(name);
        }
        return super.visitField(access, name, descriptor, signature, value);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
            String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || next == null || tooOld
                || ForeignAccesses.injected(access, name)) {
            return next; // another agent's method ($jacocoInit) is left as that agent wrote it
        }
        return new MethodRewriter(this, access, name, descriptor, signature, exceptions,
                bridge == null ? next : ProbeBridge.calls(next, bridge));
    }

    String internalName() {
        return internalName;
    }

    /** Whether the class file may load constants of kind MethodType (Java 7 and later). */
    boolean methodTypeConstants() {
        return version >= Opcodes.V1_7;
    }

    String className() {
        return className;
    }

    /** Whether only the class's synchronization is rewritten (an excluded class). */
    boolean syncOnly() {
        return syncOnly;
    }

    boolean hasFinalInstanceFields() {
        return finalInstanceFields;
    }

    TypeFacts facts() {
        return facts;
    }

    /**
     * Whether the accesses to field {@code name} reached through class {@code owner} (internal name) are left alone:
     * another agent's field (JaCoCo's {@code $jacocoData}) always; a plain synthetic field unless synthetic=true.
     * A volatile synthetic field is synchronization, and is never left out.
     */
    boolean leavesField(String owner, String name) {
        if (ForeignAccesses.injected(name)) {
            return true;
        }
        if (context.syntheticFields()) {
            return false;
        }
        if (owner.equals(internalName) && syntheticFields.contains(name)) {
            return true;
        }
        TypeFacts.FieldFacts f = facts.field(owner, name);
        return f.isSynthetic() && !f.isVolatile();
    }

    FieldTable fields() {
        return context.fields();
    }

    /** Registers the site of an instruction of method {@code method}. */
    int site(String method, int line, int bci) {
        return site(method, line, bci, "");
    }

    /** Registers the site of an instruction of method {@code method} that accesses memory in {@code mode}. */
    int site(String method, int line, int bci, String mode) {
        return site(method, line, bci, mode, false);
    }

    /**
     * {@link #site(String, int, int, String)} of a helper's access when {@code helper}: one whose field or element
     * its caller chooses (HelperAccesses), told apart by the call that reached it.
     */
    int site(String method, int line, int bci, String mode, boolean helper) {
        return context.sites().register(className, method, sourceFile.isEmpty() ? simpleName() + ".java" : sourceFile,
                line, bci, mode, helper);
    }

    private String simpleName() {
        String s = className.substring(className.lastIndexOf('.') + 1);
        int dollar = s.indexOf('$');
        return dollar > 0 ? s.substring(0, dollar) : s;
    }

    /**
     * Whether method {@code name} is atomic: by option, or annotated with any annotation named Atomic;
     * never when the run checks no transactions.
     */
    boolean isAtomic(String name, MethodRewriter method) {
        return !syncOnly && context.transactions() && (context.atomicByOption(className, name) || hasAtomic(method.visibleAnnotations)
                || hasAtomic(method.invisibleAnnotations));
    }

    private static boolean hasAtomic(List<AnnotationNode> annotations) {
        if (annotations == null) {
            return false;
        }
        for (AnnotationNode a : annotations) {
            String d = a.desc; // Lcom/example/Atomic; or Lcom/example/Outer$Atomic;
            String simple = d.substring(Math.max(d.lastIndexOf('/'), d.lastIndexOf('$')) + 1, d.length() - 1);
            if (simple.equals("Atomic")) {
                return true;
            }
        }
        return false;
    }
}
