package dev.mmcheck.agent.rewrite;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Installs the class-file transformer with Byte Buddy's {@link AgentBuilder}: every class outside the
 * JDK and the agent (narrowed by {@code includes}/{@code excludes}) is decorated with a
 * {@link ClassRewriter}; frames are recomputed from Byte Buddy's type pool. Classes that fail to
 * transform load unchanged and are counted and named in the report.
 */
public final class Transformation {

    private static final String[] JDK = {"java.", "javax.", "jdk.", "sun.", "com.sun."};

    /** The agent's own packages, never instrumented (nor the classes it shades). */
    public static final List<String> AGENT_PACKAGES = List.of("dev.mmcheck.agent.", "dev.mmcheck.runtime.",
            "dev.mmcheck.checker.", "dev.mmcheck.shaded.", "dev.mmcheck.junit5.");

    /** What happened to the classes offered to the transformer. Any thread. */
    public static final class Stats {
        public final AtomicInteger instrumented = new AtomicInteger();
        public final AtomicInteger failed = new AtomicInteger();
        private final List<String> failures = new ArrayList<>();

        synchronized void failure(String type, Throwable t) {
            failed.incrementAndGet();
            if (failures.size() < 5) {
                failures.add(type + ": " + t);
            }
        }

        public synchronized List<String> failures() {
            return List.copyOf(failures);
        }
    }

    private Transformation() {
    }

    /**
     * Installs the transformer: a class for which {@code instrumented} is false (excludes=, includes=) is
     * rewritten for its synchronization only.
     */
    public static void install(Instrumentation inst, Predicate<String> instrumented, ClassRewriter.Context context,
            Stats stats) {
        // the rewriter is an ASM visitor: the type is decorated (no rebasing, no method graph of its
        // hierarchy), and the graph is of the declared methods only, so that a type with no class file to
        // read needs no description (Mockito's mocks for their auxiliary classes, its dispatcher injected
        // into the boot loader for MockMethodAdvice: Agrona's suite left 21 such classes uninstrumented)
        new AgentBuilder.Default(new net.bytebuddy.ByteBuddy()
                .with(net.bytebuddy.dynamic.scaffold.MethodGraph.Compiler.ForDeclaredMethods.INSTANCE))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.DISABLED)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module,
                            boolean loaded, net.bytebuddy.dynamic.DynamicType dynamicType) {
                        stats.instrumented.incrementAndGet();
                    }

                    @Override
                    public void onError(String type, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable throwable) {
                        stats.failure(type, throwable);
                    }
                })
                .ignore((type, loader, module, redefined, domain) -> ignored(type.getName(), loader))
                .type(ElementMatchers.any())
                .transform((builder, type, loader, module, domain) -> builder.visit(
                        new Wrapper(context, !instrumented.test(type.getName()),
                                throughBridge(loader) ? ProbeBridge.NAME : null)))
                .installOn(inst);
    }

    /**
     * Whether a class is not rewritten at all: the JDK (its synchronization is modelled at the call
     * sites, JdkModel) and the agent itself. Every other class is rewritten, an excluded one for its
     * synchronization only (ClassRewriter): excluding a class removes its data accesses from checking,
     * never a thread it starts, a lock it takes or an atomic it sets.
     */
    static boolean ignored(String name, ClassLoader loader) {
        if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
            return true;
        }
        for (String p : JDK) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        for (String own : AGENT_PACKAGES) {
            if (name.startsWith(own)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the code of a class of {@code loader} calls the probes through {@link ProbeBridge}: all but the
     * classes of the application class loader, which resolves the runtime's classes as the agent's own code does
     * (the agent is loaded by it). Another loader may not delegate to its parent at all; every loader resolves a
     * class of {@code java.lang}. (A class of a named module on the module path calls the runtime directly too:
     * tried, it runs checked; the JVM gives the module the read edge.)
     */
    static boolean throughBridge(ClassLoader loader) {
        return loader != ClassLoader.getSystemClassLoader();
    }

    /** Puts a {@link ClassRewriter} in front of Byte Buddy's class writer. */
    private static final class Wrapper extends AsmVisitorWrapper.AbstractBase {
        private final ClassRewriter.Context context;
        private final boolean syncOnly;
        private final String bridge;

        Wrapper(ClassRewriter.Context context, boolean syncOnly, String bridge) {
            this.context = context;
            this.syncOnly = syncOnly;
            this.bridge = bridge;
        }

        @Override
        public int mergeWriter(int flags) {
            return flags | ClassWriter.COMPUTE_FRAMES;
        }

        @Override
        public int mergeReader(int flags) {
            return flags | ClassReader.SKIP_FRAMES;
        }

        @Override
        public ClassVisitor wrap(TypeDescription type, ClassVisitor visitor, Implementation.Context implementationContext,
                TypePool pool, FieldList<FieldDescription.InDefinedShape> fields, MethodList<?> methods,
                int writerFlags, int readerFlags) {
            return new ClassRewriter(visitor, context, new TypeFacts(pool), syncOnly, bridge);
        }
    }
}
